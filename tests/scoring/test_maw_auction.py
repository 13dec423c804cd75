"""Auction Forty-Fives, all three presets and every option (maw.md "Auction Forty-Fives", seed
000 "Auction Forty-Fives"). Every figure worked out by hand. Anna deals the first hand."""

import pytest

from scoring.errors import ScoringError
from scoring.sitting import calculate

THREE = ["Anna", "Ben", "Carl"]
FOUR = ["Anna", "Ben", "Carl", "Dora"]
SIDES = {"A": ["Anna", "Carl"], "B": ["Ben", "Dora"]}
SIX = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"]
PAIRS = {"A": ["Anna", "Dora"], "B": ["Ben", "Emil"], "C": ["Carl", "Fritz"]}


def run(variant, hands, players=FOUR, teams=SIDES, **extra):
    body = {"game": "auction_45", "variant": variant, "players": players, "hands": hands, **extra}
    if teams:
        body["teams"] = teams
    return calculate(body)


def problems(variant, hands, players=FOUR, teams=SIDES, **extra):
    with pytest.raises(ScoringError) as caught:
        run(variant, hands, players, teams, **extra)
    return [(p.hand, p.field) for p in caught.value.problems]


def hand(maker, bid, tricks, top=None, **more):
    return {"maker": maker, "bid": bid, "tricks": tricks, "top_trump_trick": top, **more}


# -- Barker ------------------------------------------------------------------------------


def test_barker_the_maker_that_makes_its_bid_scores_what_it_made():
    # A bids 15: tricks 1, 3 (top trump: 10) and 4 = 20 >= 15: +20. B took two: 10.
    out = run("barker", [hand("A", 15, ["A", "B", "A", "A", "B"], 3)])
    assert out["hands"][0]["totals"] == {"A": 20, "B": 10}
    assert out["hands"][0]["made"] is True


def test_barker_a_failed_bid_costs_the_bid():
    out = run("barker", [hand("Anna", 25, ["A", "B", "A", "A", "B"], 3)])
    assert out["hands"][0]["totals"] == {"A": -25, "B": 10}
    assert out["hands"][0]["made"] is False


def test_barker_a_bid_of_30_is_60_made_or_lost():
    # All five: +60. Four tricks on a bid of 30: -60; B's fifth trick with the top trump: 10.
    out = run("barker", [hand("A", 30, ["A"] * 5, 1), hand("A", 30, ["A", "A", "A", "A", "B"], 5)])
    assert out["hands"][0]["totals"] == {"A": 60, "B": 0}
    assert out["hands"][1]["totals"] == {"A": 0, "B": 10}


def test_barker_anything_from_5_but_20_with_100_or_more():
    out = run("barker", [hand("A", 5, ["A", "B", "B", "B", "B"])])
    assert out["totals"] == {"A": 5, "B": 20}
    assert problems("barker", [hand("A", 15, ["A"] * 5, 1)], start_totals={"A": 100}) == [(1, "bid")]
    out = run("barker", [hand("A", 20, ["A"] * 5, 1)], start_totals={"A": 100})
    assert out["hands"][0]["game_over"] == {"winner": "A", "trick": 5, "games": 1}


def test_barker_scores_at_the_end_of_the_hand():
    # A 100 reaches 120 at trick 4, but the hand is scored at its end: the game is decided
    # at trick 5 and no trick is ignored.
    out = run("barker", [hand("A", 20, ["A", "A", "A", "A", "B"], 1)], start_totals={"A": 100})
    h = out["hands"][0]
    assert h["totals"] == {"A": 125, "B": 5}
    assert h["game_over"] == {"winner": "A", "trick": 5, "games": 1}
    assert h["ignored_tricks"] == []


def test_both_reach_the_target_the_maker_wins_or_the_higher_total():
    # A 100 bids 20: 10 (trick 1, top trump) + 5 + 5 = 20: 120. B 115 + 10 = 125.
    hands = [hand("A", 20, ["A", "A", "B", "A", "B"], 1)]
    out = run("barker", hands, start_totals={"A": 100, "B": 115})
    assert out["hands"][0]["totals"] == {"A": 120, "B": 125}
    assert out["hands"][0]["game_over"]["winner"] == "A"
    out = run("barker", hands, start_totals={"A": 100, "B": 115}, rules={"both_reach_target": "higher"})
    assert out["hands"][0]["game_over"]["winner"] == "B"


def test_equal_totals_play_on_when_the_maker_is_not_among_them():
    # Three parties; B makes 15 and stays below; A and C both reach 120 with 10 each: equal.
    start = {"A": 110, "B": 0, "C": 110}
    hands = [hand("B", 15, ["A", "B", "C", "B", "B"], 2, other_bids={"A": 15})]
    out = run("barker", hands, players=SIX, teams=PAIRS, start_totals=start)
    assert out["hands"][0]["totals"] == {"A": 115, "B": 20, "C": 115}
    hands = [hand("B", 15, ["A", "B", "C", "B", "A"], 2), hand("B", 15, ["C", "B", "B", "B", "B"], 2)]
    out = run("barker", hands, players=SIX, teams=PAIRS, start_totals=start)
    # hand 1: A 120, C 115, B 15 (B's 10 + 5 = 15: made). A alone at 120: A wins.
    assert out["hands"][0]["game_over"]["winner"] == "A"
    hands = [hand("B", 15, ["A", "B", "C", "B", "B"], 2), hand("B", 15, ["A", "B", "C", "B", "B"], 2)]
    out = run("barker", hands, players=SIX, teams=PAIRS, start_totals={"A": 110, "C": 110})
    # hand 1: A 115, C 115, B 20; hand 2: A 120, C 120 - equal, B not among them: play on.
    assert out["hands"][1]["totals"] == {"A": 120, "B": 40, "C": 120}
    assert out["hands"][1]["game_over"] is None


def test_barker_has_no_calls():
    assert problems("barker", [hand("A", 30, ["A"] * 5, 1, call="30_for_60")]) == [(1, "call")]


def test_auction_hands_are_always_played_out():
    assert problems("barker", [hand("A", 20, ["A", "A", "A", "A"], 1)], start_totals={"A": 100}) == [(1, "tricks")]


# -- Merrimack ---------------------------------------------------------------------------


def test_merrimack_a_party_with_100_not_making_trump_is_frozen():
    # Anna 100 takes tricks 1 and 5 but is not the maker: she scores nothing. Ben bids 15,
    # takes 2 (top trump: 10), 3, 4: 20: +20.
    hands = [hand("Ben", 15, ["Anna", "Ben", "Ben", "Ben", "Anna"], 2)]
    out = run("merrimack", hands, players=THREE, teams=None, start_totals={"Anna": 100, "Ben": 50})
    assert out["totals"] == {"Anna": 100, "Ben": 70, "Carl": 0}


def test_merrimack_bid_30_and_the_calls():
    # Bid 30 without a call: +30 (all five). "30 for 60" called and failed: -60 (Carl's trick 5).
    # "60 for 120" made: +120: Carl 5 + 120 = 125 wins as the maker.
    hands = [
        hand("Ben", 30, ["Ben"] * 5, 1),
        hand("Ben", 30, ["Ben", "Ben", "Ben", "Ben", "Carl"], 1, call="30_for_60"),
        hand("Carl", 30, ["Carl"] * 5, 3, call="60_for_120"),
    ]
    out = run("merrimack", hands, players=THREE, teams=None)
    assert [h["totals"] for h in out["hands"]] == [
        {"Anna": 0, "Ben": 30, "Carl": 0},
        {"Anna": 0, "Ben": -30, "Carl": 5},
        {"Anna": 0, "Ben": -30, "Carl": 125},
    ]
    assert out["hands"][2]["game_over"] == {"winner": "Carl", "trick": 5, "games": 1}


def test_merrimack_failed_calls():
    # A failed bid of 30 without a call: -30; a failed "60 for 120": -120.
    hands = [
        hand("Ben", 30, ["Ben", "Ben", "Ben", "Ben", "Carl"], None),
        hand("Carl", 30, ["Carl", "Anna", "Carl", "Carl", "Carl"], None, call="60_for_120"),
    ]
    out = run("merrimack", hands, players=THREE, teams=None)
    assert out["hands"][0]["totals"] == {"Anna": 0, "Ben": -30, "Carl": 5}
    assert out["hands"][1]["totals"] == {"Anna": 5, "Ben": -30, "Carl": -115}


def test_merrimack_lowest_bid_15_and_a_call_needs_a_bid_of_30():
    hands = [hand("Ben", 10, ["Ben"] * 5, 1), hand("Ben", 25, ["Ben"] * 5, 1, call="30_for_60")]
    assert problems("merrimack", hands, players=THREE, teams=None) == [(1, "bid"), (2, "call")]


def test_merrimack_a_bagged_dealer_bids_15_even_with_100():
    # Anna deals hand 1, nobody bid: she is bagged and must bid 15 (her 100 would need 20).
    # Three tricks: 15: made, 115. Ben 5 and Carl 5.
    hands = [hand("Anna", 15, ["Anna", "Anna", "Anna", "Ben", "Carl"], None, bagged=True)]
    out = run("merrimack", hands, players=THREE, teams=None, start_totals={"Anna": 100})
    assert out["totals"] == {"Anna": 115, "Ben": 5, "Carl": 5}


def test_only_the_dealer_is_bagged_and_then_nobody_else_bid():
    hands = [
        hand("Ben", 15, ["Ben"] * 5, None, bagged=True),  # Anna deals
        hand("Ben", 15, ["Ben"] * 5, None, bagged=True, other_bids={"Anna": 15}),  # Ben deals
        hand("Carl", 15, ["Carl"] * 5, None, bagged="yes"),
    ]
    assert problems("merrimack", hands, players=THREE, teams=None) == [(1, "bagged"), (2, "bagged"), (3, "bagged")]


def test_on_the_green_only_the_maker_can_win():
    # rules: on_the_green, nobody frozen. A 105 and B 95: both on the green. Hand 1: B bids 15
    # and makes 15 (110); A takes tricks 3 and 4 (top trump): 15 -> 120 but cannot win as
    # a non-maker. Hand 2: A makes trump, bids 20 (it has 100+), takes 20: 140, wins; B's 10
    # (120) does not count for a win.
    rules = {"on_the_green": True, "frozen_at": None}
    hands = [hand("B", 15, ["B", "B", "A", "A", "B"], 4), hand("A", 20, ["A", "A", "A", "B", "B"], 1)]
    out = run("merrimack", hands, rules=rules, start_totals={"A": 105, "B": 95})
    assert out["hands"][0]["totals"] == {"A": 120, "B": 110}
    assert out["hands"][0]["game_over"] is None
    assert out["hands"][1]["totals"] == {"A": 140, "B": 120}
    assert out["hands"][1]["game_over"] == {"winner": "A", "trick": 5, "games": 1}
    # Without on_the_green A wins at hand 1.
    out = run("merrimack", hands[:1], rules={"frozen_at": None}, start_totals={"A": 105, "B": 95})
    assert out["hands"][0]["game_over"] == {"winner": "A", "trick": 5, "games": 1}


# -- Atlantic ----------------------------------------------------------------------------

SEED_START = {"A": 100, "B": 70, "C": 30}
# "Paar A bietet 20, B 25, C passt. A gewinnt einen Stich, B gewinnt 4 Stiche und hält
# Trumpf-5."
SEED_HAND = hand("B", 25, ["A", "B", "B", "B", "B"], 3, other_bids={"A": 20})


def test_atlantic_seed_example_a_100_b_70_c_30_becomes_105_and_95():
    # With the variant "frozen at 100 unless the party bid 20": A bid 20, so its trick
    # counts: 105. B: 4 x 5 + 5 (trump five) = 25, its bid: 95. C 30.
    rules = {"frozen_at": 100, "bid_unfreezes": 20}
    out = run("atlantic", [SEED_HAND], players=SIX, teams=PAIRS, rules=rules, start_totals=SEED_START)
    assert out["totals"] == {"A": 105, "B": 95, "C": 30}


def test_atlantic_seed_example_with_the_preset_freezing_only_at_105():
    out = run("atlantic", [SEED_HAND], players=SIX, teams=PAIRS, start_totals=SEED_START)
    assert out["totals"] == {"A": 105, "B": 95, "C": 30}


def test_atlantic_seed_example_a_that_passed_stays_frozen_at_100():
    rules = {"frozen_at": 100, "bid_unfreezes": 20}
    passed = {k: v for k, v in SEED_HAND.items() if k != "other_bids"}
    out = run("atlantic", [passed], players=SIX, teams=PAIRS, rules=rules, start_totals=SEED_START)
    assert out["totals"] == {"A": 100, "B": 95, "C": 30}


def test_atlantic_105_or_more_scores_only_as_maker():
    out = run("atlantic", [hand("B", 15, ["A", "B", "B", "B", "A"], 2)], start_totals={"A": 105})
    assert out["totals"] == {"A": 105, "B": 20}


def test_atlantic_every_bid_of_30_is_30_for_60_plus_60_or_minus_30():
    hands = [hand("A", 30, ["A"] * 5, 2), hand("B", 30, ["B", "A", "B", "B", "B"], None, call="30_for_60")]
    out = run("atlantic", hands)
    assert out["hands"][0]["totals"] == {"A": 60, "B": 0}
    assert out["hands"][1]["totals"] == {"A": 65, "B": -30}


def test_atlantic_60_for_120_only_in_the_hole():
    # A at 0 may not call it. A at -20: made +120 (100); failed -60 (-80).
    assert problems("atlantic", [hand("A", 30, ["A"] * 5, 1, call="60_for_120")]) == [(1, "call")]
    out = run("atlantic", [hand("A", 30, ["A"] * 5, 1, call="60_for_120")], start_totals={"A": -20})
    assert out["totals"] == {"A": 100, "B": 0}
    out = run("atlantic", [hand("A", 30, ["A"] * 4 + ["B"], 1, call="60_for_120")], start_totals={"A": -20})
    assert out["totals"] == {"A": -80, "B": 5}


def test_atlantic_lowest_bid_15_also_with_100():
    out = run("atlantic", [hand("A", 15, ["A", "A", "A", "B", "B"], None)], start_totals={"A": 100})
    assert out["totals"] == {"A": 115, "B": 10}


def test_target_125_option():
    # Two made 30-for-60 bids are 120: not enough with target 125.
    out = run("atlantic", [hand("A", 30, ["A"] * 5, 1)] * 2, rules={"target": 125})
    assert out["totals"] == {"A": 120, "B": 0}
    assert out["games"] == []


def test_lose_at_minus_120():
    # A -100 bids 25 and makes 15: -125 <= -120: A loses, B (50 + 15 = 65) wins the game.
    hands = [hand("A", 25, ["A", "B", "B", "A", "B"], 1)]
    out = run("atlantic", hands, rules={"lose_at": -120}, start_totals={"A": -100, "B": 50})
    assert out["hands"][0]["totals"] == {"A": -125, "B": 65}
    assert out["hands"][0]["game_over"] == {"winner": "B", "trick": 5, "games": 1}
    assert out["games_won"] == {"A": 0, "B": 1}


def test_lose_at_with_the_others_level_nobody_wins_the_lost_game():
    # A loses (-125); B and C both 50 + 10 = 60: the game is over without a winner.
    hands = [hand("A", 25, ["A", "B", "C", "B", "C"], None)]
    out = run(
        "atlantic", hands, players=SIX, teams=PAIRS, rules={"lose_at": -120}, start_totals={"A": -100, "B": 50, "C": 50}
    )
    assert out["hands"][0]["game_over"] == {"winner": None, "trick": 5, "games": 1}
    assert out["games_won"] == {"A": 0, "B": 0, "C": 0}


def test_three_failed_bids_lose_the_game_and_the_count_starts_again():
    # A bids 15 three times and B takes every trick (25 a hand, no trump played): A -15, -30,
    # -45 with three failed bids: A loses at hand 3, B (75) wins. Hand 4 is a new game:
    # A's fourth failure is its first in that game.
    bad = hand("A", 15, ["B"] * 5, None)
    out = run("atlantic", [bad] * 4, rules={"sets_lose": 3})
    assert out["hands"][2]["totals"] == {"A": -45, "B": 75}
    assert out["games"] == [{"winner": "B", "hand": 3, "trick": 5, "games": 1}]
    assert out["hands"][3]["totals"] == {"A": -15, "B": 25}
    assert out["hands"][3]["game_over"] is None


def test_other_bids_are_checked():
    hands = [
        hand("A", 15, ["A"] * 5, 1, other_bids={"B": 20}),  # above the winning bid
        hand("A", 15, ["A"] * 5, 1, other_bids={"Anna": 15}),  # the maker itself
        hand("A", 15, ["A"] * 5, 1, other_bids={"Zoe": 15}),  # not at the table
        hand("A", 15, ["A"] * 5, 1, other_bids=[15]),  # not a mapping
        hand("A", 15, ["A"] * 5, 1, other_bids={"B": 12}),  # not a bid
    ]
    assert problems("atlantic", hands) == [(n, "other_bids") for n in range(1, 6)]


def test_unknown_call_and_fields():
    hands = [hand("A", 30, ["A"] * 5, 1, call="all"), hand("A", 15, ["A"] * 5, 1, jink=True)]
    assert problems("atlantic", hands) == [(1, "call"), (2, "jink")]


def test_next_says_each_partys_lowest_bid():
    # Barker: 20 with 100 or more, else 5; after a finished game everyone starts again at 0.
    out = run("barker", [hand("A", 15, ["A", "A", "A", "B", "B"], None)], start_totals={"B": 100})
    assert out["totals"] == {"A": 15, "B": 110}
    assert out["next"]["min_bid"] == {"A": 5, "B": 20}
    # A 110 bids 20 (it has 100+), takes four tricks: 130, wins; B 105.
    out = run("barker", [hand("A", 20, ["A", "A", "A", "A", "B"], None)], start_totals={"A": 110, "B": 100})
    assert out["hands"][0]["totals"] == {"A": 130, "B": 105}
    assert out["hands"][0]["game_over"]["winner"] == "A"
    assert out["next"]["min_bid"] == {"A": 5, "B": 5}


# -- frozen_rule and lose_at (the peers' house rules) ---------------------------


def test_frozen_rule_maker_fails_only_a_frozen_party_scores_when_the_maker_fails():
    # Merrimack (frozen at 100), frozen_rule maker_fails_only. Anna 100, Ben 50 bids 20 and
    # takes tricks 2 and 5: 10 < 20, -20 -> 30. Anna took trick 1 with the top trump and 4:
    # 15; the maker failed, so she scores it: 115. Carl 5.
    hands = [hand("Ben", 20, ["Anna", "Ben", "Carl", "Anna", "Ben"], 1)]
    start = {"Anna": 100, "Ben": 50}
    out = run(
        "merrimack", hands, players=THREE, teams=None, rules={"frozen_rule": "maker_fails_only"}, start_totals=start
    )
    assert out["totals"] == {"Anna": 115, "Ben": 30, "Carl": 5}
    # frozen_rule frozen_at (the preset): Anna scores nothing
    out = run("merrimack", hands, players=THREE, teams=None, start_totals=start)
    assert out["totals"] == {"Anna": 100, "Ben": 30, "Carl": 5}


def test_frozen_rule_maker_fails_only_a_frozen_party_scores_nothing_when_the_maker_makes_it():
    # Ben bids 15 and takes 2 (top trump), 3, 4: 20, made: +20. Anna 100 took 1 and 5: frozen.
    hands = [hand("Ben", 15, ["Anna", "Ben", "Ben", "Ben", "Anna"], 2)]
    out = run(
        "merrimack",
        hands,
        players=THREE,
        teams=None,
        rules={"frozen_rule": "maker_fails_only"},
        start_totals={"Anna": 100, "Ben": 50},
    )
    assert out["totals"] == {"Anna": 100, "Ben": 70, "Carl": 0}


def test_frozen_rule_maker_fails_only_the_thaw_can_win_the_game():
    # Anna 110 (frozen); Ben bids 20 and takes 3 and 5 (10): fails, -20. Anna took 1 and 2
    # (no trump played): 10 -> 120, the target: she wins. Carl 5.
    hands = [hand("Ben", 20, ["Anna", "Anna", "Ben", "Carl", "Ben"])]
    out = run(
        "merrimack",
        hands,
        players=THREE,
        teams=None,
        rules={"frozen_rule": "maker_fails_only"},
        start_totals={"Anna": 110},
    )
    h = out["hands"][0]
    assert h["totals"] == {"Anna": 120, "Ben": -20, "Carl": 5}
    assert h["game_over"] == {"winner": "Anna", "trick": 5, "games": 1}


def test_frozen_rule_maker_fails_only_needs_frozen_at():
    # Barker freezes nobody: the rule would never apply, so it is a rules problem.
    assert problems("barker", [], rules={"frozen_rule": "maker_fails_only"}) == [(None, "rules")]


def test_lose_at_minus_125():
    # Barker with lose_at -125: A -100 bids 25 and takes 1 (top trump) and 4: 15 < 25, -25 ->
    # -125: at the limit, A loses; B (50 + 15 = 65) wins the game.
    hands = [hand("A", 25, ["A", "B", "B", "A", "B"], 1)]
    out = run("barker", hands, rules={"lose_at": -125}, start_totals={"A": -100, "B": 50})
    assert out["hands"][0]["totals"] == {"A": -125, "B": 65}
    assert out["hands"][0]["game_over"] == {"winner": "B", "trick": 5, "games": 1}
    # at -130 the same hand plays on
    out = run("barker", hands, rules={"lose_at": -130}, start_totals={"A": -100, "B": 50})
    assert out["hands"][0]["game_over"] is None


def test_the_api_docs_examples_give_the_figures_worked_out_by_hand():
    # scoring/maw.py API_EXAMPLES: the maker_fails_only and lose_at -125 tests above.
    from scoring.maw import API_EXAMPLES

    examples = dict(API_EXAMPLES["auction_45"])
    out = calculate(examples["Frozen parties score only when the maker fails"])
    assert out["totals"] == {"Anna": 115, "Ben": 30, "Carl": 5}
    out = calculate(examples["Out at -125"])
    assert out["totals"] == {"A": -125, "B": 65}
    assert out["hands"][0]["game_over"] == {"winner": "B", "trick": 5, "games": 1}
