"""56 (shared/spec/fifty-six.md, seed 002): figures worked out by hand from the stake table."""

import pytest

from scoring.errors import ScoringError
from scoring.sitting import calculate

SIX = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"]  # A: Anna, Carl, Emil; B: Ben, Dora, Fritz


def calc(hands, **extra):
    return calculate({"game": "fifty_six", "players": SIX, "hands": hands, **extra})


def problems(hands, **extra):
    with pytest.raises(ScoringError) as info:
        calc(hands, **extra)
    return [(p.hand, p.field) for p in info.value.problems]


def hand(bidder="Anna", bid=28, points=28, double=0, trump="hearts"):
    return {"bidder": bidder, "bid": bid, "trump": trump, "double": double, "bidder_team_points": points}


@pytest.mark.parametrize(
    "bid, points, winner, stake",
    [
        (28, 28, "A", 1),  # 28-39 made: the bidders score 1 (taking exactly the bid is enough)
        (28, 27, "B", 2),  # 28-39 lost: the others score 2
        (39, 56, "A", 1),
        (39, 38, "B", 2),
        (40, 40, "A", 2),  # 40-47: 2 / 3
        (47, 46, "B", 3),
        (48, 50, "A", 3),  # 48-55: 3 / 4
        (55, 0, "B", 4),
        (56, 56, "A", 4),  # 56: 4 / 5
        (56, 55, "B", 5),
    ],
)
def test_the_stake_table_by_bid(bid, points, winner, stake):
    result = calc([hand("Anna", bid, points)])
    figures = result["hands"][0]
    assert (figures["winner_team"], figures["stake"]) == (winner, stake)
    loser = "B" if winner == "A" else "A"
    assert figures["deltas"] == {winner: stake, loser: 0}  # the other team scores nothing


def test_teams_sit_alternately_and_scores_add_up():
    # Ben (team B) bids 40, takes 44 -> B +2; Carl (A) bids 30, takes 20 -> B +2; Emil (A) 28/30 -> A +1.
    result = calc([hand("Ben", 40, 44), hand("Carl", 30, 20), hand("Emil", 28, 30)])
    assert result["parties"] == ["A", "B"]
    assert [h["totals"] for h in result["hands"]] == [{"A": 0, "B": 2}, {"A": 0, "B": 4}, {"A": 1, "B": 4}]
    assert result["totals"] == {"A": 1, "B": 4}
    assert result["winner"] is None


def test_the_deal_passes_counterclockwise_to_the_dealers_right():
    # players[0] deals first, then players[i-1]: Anna, Fritz, Emil; next Dora.
    result = calc([hand()] * 3)
    assert [h["dealer"] for h in result["hands"]] == ["Anna", "Fritz", "Emil"]
    assert result["hands"][0]["active"] == SIX
    assert result["next"] == {"dealer": "Dora", "active": SIX}


def test_named_teams():
    teams = {"Red": ["Anna", "Ben", "Carl"], "Blue": ["Dora", "Emil", "Fritz"]}
    result = calc([hand("Ben", 48, 40)], teams=teams)
    # Ben (Red) bid 48 and took 40: Blue scores 4.
    assert result["parties"] == ["Red", "Blue"]
    assert result["hands"][0]["deltas"] == {"Red": 0, "Blue": 4}


def test_seed_double_doubles_and_redouble_quadruples():
    # Seed 002: "Double … Verdopplung der Punkte", "Re-Double … Vervierfachung".
    # 40 made doubled: 2 x 2 = 4; 48 lost redoubled: 4 x 4 = 16.
    result = calc([hand("Anna", 40, 41, double=1), hand("Ben", 48, 47, double=2)])
    assert [(h["winner_team"], h["stake"]) for h in result["hands"]] == [("A", 4), ("A", 16)]
    assert result["totals"] == {"A": 20, "B": 0}


def test_tournament_double_adds_one_and_redouble_adds_two():
    # 40 made doubled: 2 + 1 = 3; 48 lost redoubled: 4 + 2 = 6.
    result = calc([hand("Anna", 40, 41, double=1), hand("Ben", 48, 47, double=2)], variant="tournament")
    assert [h["stake"] for h in result["hands"]] == [3, 6]


def test_double_and_redouble_are_options():
    result = calc(
        [hand("Anna", 28, 30, double=1), hand("Anna", 28, 30, double=2)], rules={"double": "x3", "redouble": "+4"}
    )
    assert [h["stake"] for h in result["hands"]] == [3, 5]


def test_double_may_be_omitted():
    bare = {"bidder": "Anna", "bid": 28, "trump": "no_trump", "bidder_team_points": 30}
    assert calc([bare])["hands"][0]["stake"] == 1


# --- tables -------------------------------------------------------------------------------


def test_with_tables_the_losers_pay_and_a_team_left_with_0_tokens_loses_the_match():
    # tables 3: A 3, B 3.
    # 1: Ben (B) 40 made -> stake 2, A pays 2: A 1, B 5.
    # 2: Ben 28 made -> 1, A pays its last token: A 0, B 6. B holds every token: A has lost
    #    the match (fifty-six.md, corrected: "a team left with exactly 0 tokens").
    # 3: a new match from 3 each: Ben 28 made -> A pays 1: A 2, B 4; deltas from 0 / 6: +2 / -2.
    # 4: Anna (A) 28 made -> B pays 1: A 3, B 3; deltas +1 / -1.
    hands = [hand("Ben", 40, 40), hand("Ben", 28, 30), hand("Ben", 28, 30), hand("Anna", 28, 30)]
    result = calc(hands, rules={"tables": 3})
    totals = [h["totals"] for h in result["hands"]]
    assert totals == [{"A": 1, "B": 5}, {"A": 0, "B": 6}, {"A": 2, "B": 4}, {"A": 3, "B": 3}]
    assert [h["deltas"] for h in result["hands"]] == [
        {"A": -2, "B": 2},
        {"A": -1, "B": 1},
        {"A": 2, "B": -2},
        {"A": 1, "B": -1},
    ]
    assert [h["paid"] for h in result["hands"]] == [2, 1, 1, 1]  # every stake paid in full
    assert [h["match_winner"] for h in result["hands"]] == [None, "B", None, None]
    assert result["winner"] == "B"
    assert result["matches"] == [{"winner": "B", "hand": 2}]


def test_with_tables_a_team_with_tokens_left_plays_on():
    # tables 3: Ben (B) 28 made twice -> A pays 1, then 1: A 1, B 5, nobody has lost yet.
    result = calc([hand("Ben", 28, 30), hand("Ben", 28, 30)], rules={"tables": 3})
    assert result["totals"] == {"A": 1, "B": 5}
    assert result["winner"] is None and result["matches"] == []


def test_with_tables_a_team_pays_what_it_has():
    # tables 3: Anna (A) bids 56 and takes 50: B wins 5, A has only 3 -> pays 3 and loses.
    result = calc([hand("Anna", 56, 50)], rules={"tables": 3})
    figures = result["hands"][0]
    assert (figures["stake"], figures["paid"]) == (5, 3)
    assert figures["totals"] == {"A": 0, "B": 6}
    assert result["winner"] == "B"


def test_tables_start_the_totals():
    assert calc([], rules={"tables": 12})["totals"] == {"A": 12, "B": 12}
    assert calc([])["totals"] == {"A": 0, "B": 0}


# --- stake_table: the tiers and stakes as data --------------------------------------------

THREE_TIERS = [[28, 1, 2], [40, 2, 3], [56, 3, 4]]  # 28-39 / 40-55 / 56 -> 1/2, 2/3, 3/4


@pytest.mark.parametrize(
    "bid, points, winner, stake",
    [
        (39, 39, "A", 1),  # 28-39 made: 1
        (40, 39, "B", 3),  # 40-55 lost: the others score 3
        (48, 50, "A", 2),  # 48 falls in 40-55 now: made scores 2 (the seed's table: 3)
        (55, 54, "B", 3),  # 55 lost: 3 (the seed's table: 4)
        (56, 56, "A", 3),  # 56 made: 3
        (56, 50, "B", 4),  # 56 lost: 4
    ],
)
def test_a_stake_table_of_three_tiers(bid, points, winner, stake):
    result = calc([hand("Anna", bid, points)], rules={"stake_table": THREE_TIERS})
    figures = result["hands"][0]
    assert (figures["winner_team"], figures["stake"]) == (winner, stake)


def test_the_stake_table_stake_is_doubled_and_paid_from_the_tables():
    # 28-39 / 40-55 / 56, tables 10: Anna (A) bids 48 and takes 40: lost, tier 40-55 -> B scores
    # 3, doubled (seed: x 2) 6; A pays 6: A 4, B 16.
    result = calc([hand("Anna", 48, 40, double=1)], rules={"stake_table": THREE_TIERS, "tables": 10})
    assert result["hands"][0]["stake"] == 6
    assert result["totals"] == {"A": 4, "B": 16}


def test_the_default_stake_table_is_the_seeds():
    assert calc([])["rules"]["stake_table"] == [[28, 1, 2], [40, 2, 3], [48, 3, 4], [56, 4, 5]]
    assert calc([], variant="tournament")["rules"]["stake_table"] == [[28, 1, 2], [40, 2, 3], [48, 3, 4], [56, 4, 5]]


@pytest.mark.parametrize(
    "table, words",
    [
        ([[30, 1, 2], [40, 2, 3]], "must start its first tier at 28"),  # bids 28, 29 would have no stake
        ([[28, 1, 2], [40, 2, 3], [40, 3, 4]], "each further tier higher"),
        ([[28, 1, 2], [50, 2, 3], [40, 3, 4]], "each further tier higher"),
        ([[28, 1, 2], [57, 2, 3]], "up to 56"),
        ([[28, 1, 101]], "from 0 to 100"),
        ([[28, -1, 2]], "from 0 to 100"),
        ([[28, 1]], "three whole numbers"),
        ([[28, 1, True]], "three whole numbers"),
        ([], "three whole numbers"),
        ("28-39: 1/2", "three whole numbers"),
        ([[28 + i, 1, 2] for i in range(9)], "at most 8 tiers"),
    ],
)
def test_a_bad_stake_table_is_a_rules_problem_naming_it(table, words):
    with pytest.raises(ScoringError) as info:
        calc([], rules={"stake_table": table})
    found = [p.as_dict() for p in info.value.problems]
    assert [(p["hand"], p["field"]) for p in found] == [(None, "rules")]
    assert "“stake_table”" in found[0]["message"] and words in found[0]["message"]


def test_a_single_tier_gives_every_bid_the_same_stake():
    # [[28, 2, 2]]: every bid, made or lost, is worth 2 to the winners.
    result = calc([hand("Anna", 28, 30), hand("Ben", 56, 10)], rules={"stake_table": [[28, 2, 2]]})
    assert [h["stake"] for h in result["hands"]] == [2, 2]
    assert result["totals"] == {"A": 4, "B": 0}


# --- errors -------------------------------------------------------------------------------


def test_every_bad_hand_is_reported():
    hands = [
        hand(bid=27),
        hand(bid=57, points=56),
        hand(points=-1),
        hand(points=57),
        hand(bidder="Zoe"),
        hand(trump="stars"),
        hand(double=3),
        hand(double=True),
        hand(bid="30"),
        {**hand(), "tricks": 5},
        {"bid": 28, "trump": "clubs", "bidder_team_points": 30},
        hand(),
    ]
    assert problems(hands) == [
        (1, "bid"),
        (2, "bid"),
        (3, "bidder_team_points"),
        (4, "bidder_team_points"),
        (5, "bidder"),
        (6, "trump"),
        (7, "double"),
        (8, "double"),
        (9, "bid"),
        (10, "tricks"),
        (11, "bidder"),
    ]


def test_six_players_only():
    with pytest.raises(ScoringError) as info:
        calculate({"game": "fifty_six", "players": SIX[:4], "hands": []})
    assert [(p.hand, p.field) for p in info.value.problems] == [(None, "players")]


def test_two_teams_of_three():
    teams = {"X": ["Anna", "Ben", "Carl", "Dora"], "Y": ["Emil", "Fritz"]}
    assert problems([], teams=teams) == [(None, "teams")]


def test_the_api_docs_example_gives_the_figures_worked_out_by_hand():
    # scoring/fifty_six.py API_EXAMPLES: the stake table test with tables above.
    from scoring.fifty_six import API_EXAMPLES

    result = calculate(dict(API_EXAMPLES["fifty_six"])["Stake table of three tiers, with tables"])
    assert result["hands"][0]["stake"] == 6
    assert result["totals"] == {"A": 4, "B": 16}


def test_a_caller_changing_the_stake_table_it_got_back_never_changes_the_preset():
    first = calc([])
    first["rules"]["stake_table"][0][1] = 99
    assert calc([])["rules"]["stake_table"][0] == [28, 1, 2]
