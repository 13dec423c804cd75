"""1000 under the Polish house rules both 1000 peers play: ``barrel_turns`` with
``barrel_fall``, ``zero_rounds_penalty`` and ``target_inclusive``. Figures worked out by hand
from thousand.md and the option's definition in scoring/thousand.py."""

import pytest

from scoring.errors import ScoringError
from scoring.sitting import calculate

THREE = ["Anna", "Ben", "Carl"]
FOUR = ["Anna", "Ben", "Carl", "Dora"]
POLISH_BARREL = {"barrel_turns": 3, "barrel_fall": 120}


def calc(hands, players=THREE, **extra):
    return calculate({"game": "thousand", "players": players, "hands": hands, **extra})


def hand(declarer, bid, **points):
    return {"declarer": declarer, "bid": bid, "points": points}


def totals(result):
    return [h["totals"] for h in result["hands"]]


# --- barrel_turns / barrel_fall (pagat: barrel 880, bids from 100) ---------------------------


def test_a_player_who_does_not_win_in_three_hands_on_the_barrel_falls_back_120():
    # Anna starts on the barrel (880). Each hand a declarer fails 100 and Anna, a defender on
    # the barrel, scores nothing (the barrel rule).
    # 1: Ben 70 < 100: -100; Carl +30.  Anna's 1st hand on the barrel.
    # 2: Carl 70 < 100: -100; Ben +30.  2nd.
    # 3: Ben 70 < 100: -100; Carl +30.  3rd and not won: 880 - 120 = 760.
    # 4: Ben again: Anna is off the barrel and scores her 20.
    hands = [
        hand("Ben", 100, Anna=20, Ben=70, Carl=30),
        hand("Carl", 100, Anna=20, Ben=30, Carl=70),
        hand("Ben", 100, Anna=20, Ben=70, Carl=30),
        hand("Ben", 100, Anna=20, Ben=70, Carl=30),
    ]
    result = calc(hands, variant="pagat", rules=POLISH_BARREL, start_totals={"Anna": 880})
    assert totals(result) == [
        {"Anna": 880, "Ben": -100, "Carl": 30},
        {"Anna": 880, "Ben": -70, "Carl": -70},
        {"Anna": 760, "Ben": -170, "Carl": -40},
        {"Anna": 780, "Ben": -270, "Carl": -10},
    ]
    third = result["hands"][2]
    assert third["deltas"] == {"Anna": -120, "Ben": -100, "Carl": 30}
    assert third["scored"]["Anna"] == -120
    assert third["penalties"] == [{"player": "Anna", "reason": "barrel", "points": -120}]
    assert [h["penalties"] for h in result["hands"][:2]] == [[], []]


def test_winning_as_declarer_in_the_third_hand_on_the_barrel_wins_the_game():
    # Anna 880: two hands on the barrel without scoring, then she declares 125 and makes it
    # (100 card points + hearts 100 in pagat = 200 >= 125): 1005 > 1000 wins; no fall.
    hands = [
        hand("Ben", 100, Anna=20, Ben=70, Carl=30),
        hand("Carl", 100, Anna=20, Ben=30, Carl=70),
        {**hand("Anna", 125, Anna=100, Ben=10, Carl=10), "marriages": {"Anna": ["hearts"]}},
    ]
    result = calc(hands, variant="pagat", rules=POLISH_BARREL, start_totals={"Anna": 880})
    last = result["hands"][2]
    assert last["totals"]["Anna"] == 1005
    assert (last["game_winner"], last["penalties"]) == ("Anna", [])


def test_dropping_off_the_barrel_starts_the_count_again():
    # Anna 880. 1: on the barrel, 1st hand. 2: she declares 120 and fails (50): 760, off the
    # barrel, the count is gone. 3: she declares 120 and makes it (120 with all tricks' 120):
    # 880, back on, this hand does not count. 4, 5: 1st and 2nd hand. 6: 3rd: 880 - 120 = 760.
    hands = [
        hand("Ben", 100, Anna=20, Ben=70, Carl=30),
        hand("Anna", 120, Anna=50, Ben=40, Carl=30),
        hand("Anna", 120, Anna=120, Ben=0, Carl=0),
        hand("Ben", 100, Anna=20, Ben=70, Carl=30),
        hand("Carl", 100, Anna=20, Ben=30, Carl=70),
        hand("Ben", 100, Anna=20, Ben=70, Carl=30),
    ]
    result = calc(hands, variant="pagat", rules=POLISH_BARREL, start_totals={"Anna": 880})
    assert [t["Anna"] for t in totals(result)] == [880, 760, 880, 880, 880, 760]
    assert [len(h["penalties"]) for h in result["hands"]] == [0, 0, 0, 0, 0, 1]


def test_with_four_a_hand_the_barrel_player_deals_and_sits_out_does_not_count():
    # Carl starts on the barrel. Dealers: Anna, Ben, Carl (he sits out), Dora. Every declarer
    # fails. Carl plays hands 1, 2 and 4: the 3rd hand he plays on the barrel is hand 4.
    hands = [
        hand("Ben", 100, Ben=70, Carl=20, Dora=30),
        hand("Anna", 100, Anna=70, Carl=20, Dora=30),
        hand("Dora", 100, Anna=20, Ben=30, Dora=70),
        hand("Anna", 100, Anna=70, Ben=30, Carl=20),
    ]
    result = calc(hands, players=FOUR, variant="pagat", rules=POLISH_BARREL, start_totals={"Carl": 880})
    assert [t["Carl"] for t in totals(result)] == [880, 880, 880, 760]


def test_the_fall_is_an_option():
    # barrel_turns 2, barrel_fall 50: Anna 880 falls to 830 after her 2nd hand on the barrel.
    hands = [hand("Ben", 100, Anna=20, Ben=70, Carl=30), hand("Carl", 100, Anna=20, Ben=30, Carl=70)]
    result = calc(hands, variant="pagat", rules={"barrel_turns": 2, "barrel_fall": 50}, start_totals={"Anna": 880})
    assert [t["Anna"] for t in totals(result)] == [880, 830]


def test_without_barrel_turns_a_player_stays_on_the_barrel():
    # pagat as it is: four hands on the barrel and Anna is still at 880.
    hands = [hand("Ben", 100, Anna=20, Ben=70, Carl=30)] * 4
    result = calc(hands, variant="pagat", start_totals={"Anna": 880})
    assert result["totals"]["Anna"] == 880
    assert all(h["penalties"] == [] for h in result["hands"])


def test_barrel_turns_need_a_barrel():
    with pytest.raises(ScoringError) as info:
        calc([], rules={"barrel_turns": 3})  # koenigsberg has no barrel
    found = [p.as_dict() for p in info.value.problems]
    assert [(p["hand"], p["field"]) for p in found] == [(None, "rules")]
    assert "“barrel_turns”" in found[0]["message"]


# --- zero_rounds_penalty (koenigsberg: bid 0 = contract 100) ---------------------------------


def test_three_hands_in_a_row_with_0_points_cost_the_penalty():
    # 1: Ben makes 100: +100; Anna 0 points (1st zero); Carl 20.
    # 2: Ben makes 100; Anna 2 card points round to 0 (2nd zero); Carl 18 -> 20.
    # 3: Carl makes 100; Anna 0 (3rd zero): -120; Ben 20.
    # 4: Anna 0 again: a new run, its 1st zero: nothing.
    hands = [
        hand("Ben", 0, Anna=0, Ben=100, Carl=20),
        hand("Ben", 0, Anna=2, Ben=100, Carl=18),
        hand("Carl", 0, Anna=0, Ben=20, Carl=100),
        hand("Carl", 0, Anna=0, Ben=20, Carl=100),
    ]
    result = calc(hands, rules={"zero_rounds_penalty": 120})
    assert totals(result) == [
        {"Anna": 0, "Ben": 100, "Carl": 20},
        {"Anna": 0, "Ben": 200, "Carl": 40},
        {"Anna": -120, "Ben": 220, "Carl": 140},
        {"Anna": -120, "Ben": 240, "Carl": 240},
    ]
    assert result["hands"][2]["deltas"] == {"Anna": -120, "Ben": 20, "Carl": 100}
    assert result["hands"][2]["penalties"] == [{"player": "Anna", "reason": "zero_rounds", "points": -120}]


def test_a_hand_with_points_breaks_the_run():
    # Anna: 0, 5, 0, 0 -> no three zeros in a row; a 5th hand with 0 is the third: -120.
    hands = [
        hand("Ben", 0, Anna=0, Ben=100, Carl=20),
        hand("Ben", 0, Anna=5, Ben=100, Carl=15),
        hand("Ben", 0, Anna=0, Ben=100, Carl=20),
        hand("Ben", 0, Anna=0, Ben=100, Carl=20),
        hand("Ben", 0, Anna=0, Ben=100, Carl=20),
    ]
    result = calc(hands, rules={"zero_rounds_penalty": 120})
    assert [t["Anna"] for t in totals(result)] == [0, 5, 5, 5, -115]


def test_declaring_breaks_the_run_and_a_forgot_to_pass_hand_does_not_count():
    # Anna 0, 0, then declares (made 100: +100, her run is broken), then 0, 0, then Ben forgets
    # to pass (Ben -240, the hand is not played: Anna's run neither grows nor breaks), then 0:
    # her third zero in a row: -120.
    hands = [
        hand("Ben", 0, Anna=0, Ben=100, Carl=20),
        hand("Ben", 0, Anna=0, Ben=100, Carl=20),
        hand("Anna", 0, Anna=100, Ben=0, Carl=20),
        hand("Ben", 0, Anna=0, Ben=100, Carl=20),
        hand("Ben", 0, Anna=0, Ben=100, Carl=20),
        {"declarer": "Ben", "bid": 0, "forgot_to_pass": True},
        hand("Ben", 0, Anna=0, Ben=100, Carl=20),
    ]
    result = calc(hands, rules={"zero_rounds_penalty": 120})
    assert [t["Anna"] for t in totals(result)] == [0, 0, 100, 100, 100, 100, -20]


def test_with_four_a_hand_sat_out_neither_counts_nor_breaks_the_run():
    # Dealers Anna, Ben, Carl, Dora, Anna. Dora takes 20, 0, 0, sits out hand 4, then 0: her
    # third zero in a row is hand 5: -50.
    hands = [
        hand("Ben", 0, Ben=100, Carl=0, Dora=20),
        hand("Anna", 0, Anna=100, Carl=20, Dora=0),
        hand("Anna", 0, Anna=100, Ben=20, Dora=0),
        hand("Anna", 0, Anna=100, Ben=20, Carl=0),
        hand("Ben", 0, Ben=100, Carl=20, Dora=0),
    ]
    result = calc(hands, players=FOUR, rules={"zero_rounds_penalty": 50})
    assert [t["Dora"] for t in totals(result)] == [20, 20, 20, 20, -30]
    assert [h["penalties"] for h in result["hands"]][4] == [{"player": "Dora", "reason": "zero_rounds", "points": -50}]


def test_a_hand_that_ends_the_game_costs_no_penalty():
    # Anna 0, 0; in hand 3 Ben passes 1000 and Anna takes 0 again: the game is over, no
    # penalty; hand 4 starts a new game from 0.
    hands = [
        hand("Ben", 0, Anna=0, Ben=100, Carl=20),
        hand("Ben", 0, Anna=0, Ben=100, Carl=20),
        hand("Ben", 0, Anna=0, Ben=100, Carl=20),
        hand("Carl", 0, Anna=0, Ben=20, Carl=100),
    ]
    # Ben starts at 750: 850, 950, 1050 > 1000 wins at hand 3.
    result = calc(hands, rules={"zero_rounds_penalty": 120}, start_totals={"Ben": 750})
    third = result["hands"][2]
    assert (third["game_winner"], third["penalties"]) == ("Ben", [])
    assert third["totals"] == {"Anna": 0, "Ben": 1050, "Carl": 60}
    # a new game: Anna's run starts again (one zero), no penalty
    assert result["hands"][3]["totals"] == {"Anna": 0, "Ben": 20, "Carl": 100}


# --- zero_rounds_penalty and the barrel (pagat: barrel 880, bids from 100, 1000 wins) --------


def test_a_player_on_the_barrel_without_a_trick_in_three_hands_pays_no_zero_penalty():
    # thousand.md: "Hands he plays while on the barrel don't count towards the three, even with
    # no trick". Anna sits on the barrel (880) and takes 0 card points three hands running while
    # Ben, Carl, Ben make 100 each: she stays at 880, no penalty.
    hands = [
        hand("Ben", 100, Anna=0, Ben=100, Carl=20),
        hand("Carl", 100, Anna=0, Ben=20, Carl=100),
        hand("Ben", 100, Anna=0, Ben=100, Carl=20),
    ]
    result = calc(hands, variant="pagat", rules={"zero_rounds_penalty": 120}, start_totals={"Anna": 880})
    assert totals(result) == [
        {"Anna": 880, "Ben": 100, "Carl": 20},
        {"Anna": 880, "Ben": 120, "Carl": 120},
        {"Anna": 880, "Ben": 220, "Carl": 140},
    ]
    assert all(h["penalties"] == [] for h in result["hands"])


def test_zeros_before_the_barrel_and_on_it_never_make_three_and_the_count_starts_below_it():
    # pagat, zero_rounds_penalty 120; Anna starts at 820.
    #  1: Ben makes 100; Anna 0: her 1st zero (820).
    #  2: Carl makes 100; Anna 0: 2nd zero (820).
    #  3: Ben fails 100 with 50 (-100); Anna takes 60: 880, on the barrel. She scored: the run
    #     ends. Carl +10.
    #  4-6: Ben, Carl, Ben make 100; Anna on the barrel takes 0 each time: these hands don't
    #     count (the spec), so no penalty, though with 1 and 2 that is five hands without a point.
    #  7: Anna fails 100 with 50: 780, off the barrel (declaring breaks any run).
    #  8, 9: Anna 0: 1st and 2nd zero below the barrel.
    # 10: Anna 0: her 3rd zero in a row: 780 - 120 = 660.
    make_ben = hand("Ben", 100, Anna=0, Ben=100, Carl=20)
    make_carl = hand("Carl", 100, Anna=0, Ben=20, Carl=100)
    hands = [
        make_ben,
        make_carl,
        hand("Ben", 100, Anna=60, Ben=50, Carl=10),
        make_ben,
        make_carl,
        make_ben,
        hand("Anna", 100, Anna=50, Ben=40, Carl=30),
        make_ben,
        make_carl,
        make_ben,
    ]
    result = calc(hands, variant="pagat", rules={"zero_rounds_penalty": 120}, start_totals={"Anna": 820})
    assert [t["Anna"] for t in totals(result)] == [820, 820, 880, 880, 880, 880, 780, 780, 780, 660]
    assert [h["penalties"] for h in result["hands"]] == [[]] * 9 + [
        [{"player": "Anna", "reason": "zero_rounds", "points": -120}]
    ]
    assert result["hands"][9]["totals"] == {"Anna": 660, "Ben": 500, "Carl": 440}


def test_the_hand_that_ends_the_game_is_not_a_zero_hand_of_either_game():
    # pagat, zero_rounds_penalty 120. Ben starts on the barrel (880), so he scores nothing as
    # a defender. 1, 2: Carl makes 100; Anna 0, 0. 3: Ben bids 120 and makes it (100 + spades
    # 40 = 140): 880 + 120 = 1000 wins (pagat: target_inclusive). Anna's third 0 comes in the
    # hand that ends the game: no penalty (thousand.md). 4-6: the new game from 0, Carl makes
    # 100 each time: Anna's zeros of game 2 are 1, 2, 3, so the penalty falls in hand 6, not 5
    # (hand 3 does not count towards the new game either).
    make_carl = hand("Carl", 100, Anna=0, Ben=20, Carl=100)
    hands = [
        make_carl,
        make_carl,
        {**hand("Ben", 120, Anna=0, Ben=100, Carl=20), "marriages": {"Ben": ["spades"]}},
        make_carl,
        make_carl,
        make_carl,
    ]
    result = calc(hands, variant="pagat", rules={"zero_rounds_penalty": 120}, start_totals={"Ben": 880})
    third = result["hands"][2]
    assert (third["game_winner"], third["penalties"]) == ("Ben", [])
    assert third["totals"] == {"Anna": 0, "Ben": 1000, "Carl": 220}
    assert totals(result)[3:] == [
        {"Anna": 0, "Ben": 20, "Carl": 100},
        {"Anna": 0, "Ben": 40, "Carl": 200},
        {"Anna": -120, "Ben": 60, "Carl": 300},
    ]
    assert [h["penalties"] for h in result["hands"][3:]] == [
        [],
        [],
        [{"player": "Anna", "reason": "zero_rounds", "points": -120}],
    ]


# --- target_inclusive -------------------------------------------------------------------------


def test_with_target_inclusive_exactly_1000_wins():
    # Anna 900 declares bid 0 (contract 100) and makes it with 100: 1000. The peers: >= 1000.
    result = calc(
        [hand("Anna", 0, Anna=100, Ben=10, Carl=10)], start_totals={"Anna": 900}, rules={"target_inclusive": True}
    )
    assert result["hands"][0]["game_winner"] == "Anna"
    assert result["winner"] == "Anna"
    # the spec's own rule (default): more than 1000 is needed
    result = calc([hand("Anna", 0, Anna=100, Ben=10, Carl=10)], start_totals={"Anna": 900})
    assert result["winner"] is None


def test_with_target_inclusive_a_start_total_at_the_target_is_an_error():
    with pytest.raises(ScoringError) as info:
        calc([], start_totals={"Anna": 1000}, rules={"target_inclusive": True})
    assert [(p.hand, p.field) for p in info.value.problems] == [(None, "start_totals")]
    assert calc([], start_totals={"Anna": 1000})["totals"]["Anna"] == 1000


def test_three_hands_without_a_trick_on_the_barrel_cost_the_fall_not_the_zero_penalty():
    # pagat with barrel_turns 3 and zero_rounds_penalty 120. Anna starts on the barrel (880)
    # and takes 0 card points in three hands, each a failed declarer's:
    # 1: Ben -100, Carl +50; Anna's 1st hand on the barrel (not a zero hand: she is on it).
    # 2: Carl -100 (-50), Ben +50 (-50); 2nd hand.
    # 3: Ben -100 (-150), Carl +50 (0); 3rd hand on the barrel, not won: she falls 120 to
    #    760. thousand.md: hands on the barrel don't count towards the three zeros.
    hands = [
        hand("Ben", 100, Anna=0, Ben=70, Carl=50),
        hand("Carl", 100, Anna=0, Ben=50, Carl=70),
        hand("Ben", 100, Anna=0, Ben=70, Carl=50),
    ]
    rules = {**POLISH_BARREL, "zero_rounds_penalty": 120}
    result = calc(hands, variant="pagat", rules=rules, start_totals={"Anna": 880})
    assert totals(result) == [
        {"Anna": 880, "Ben": -100, "Carl": 50},
        {"Anna": 880, "Ben": -50, "Carl": -50},
        {"Anna": 760, "Ben": -150, "Carl": 0},
    ]
    assert result["hands"][2]["penalties"] == [{"player": "Anna", "reason": "barrel", "points": -120}]


def test_a_defender_capped_at_the_barrel_starts_counting_with_the_next_hand():
    # pagat, barrel_turns 1: Anna 850 takes 40 as a defender: capped at 880 (on the barrel
    # from now). That hand does not count; the next one is her 1st there: 880 - 120 = 760.
    hands = [hand("Ben", 100, Anna=40, Ben=70, Carl=10), hand("Ben", 100, Anna=40, Ben=70, Carl=10)]
    result = calc(hands, variant="pagat", rules={"barrel_turns": 1}, start_totals={"Anna": 850})
    assert [t["Anna"] for t in totals(result)] == [880, 760]


def test_the_api_docs_example_gives_the_figures_worked_out_by_hand():
    # scoring/thousand.py API_EXAMPLES: the first barrel test's three hands.
    from scoring.thousand import API_EXAMPLES

    result = calculate(dict(API_EXAMPLES["thousand"])["Polish rules: falling off the barrel"])
    assert result["totals"] == {"Anna": 760, "Ben": -170, "Carl": -40}
    assert result["hands"][2]["penalties"] == [{"player": "Anna", "reason": "barrel", "points": -120}]
