"""Forty-Five, all four presets (maw.md "Forty-Five", seed 000 "Forty-Fives (45)").
Every figure worked out by hand."""

import pytest

from scoring.errors import ScoringError
from scoring.sitting import calculate

SIX = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"]
# Bruff: three pairs, partners opposite each other.
PAIRS = {"A": ["Anna", "Dora"], "B": ["Ben", "Emil"], "C": ["Carl", "Fritz"]}
THREE = ["Anna", "Ben", "Carl"]
FOUR = ["Anna", "Ben", "Carl", "Dora"]
SIDES = {"A": ["Anna", "Carl"], "B": ["Ben", "Dora"]}


def run(variant, hands, players=SIX, **extra):
    return calculate({"game": "forty_five", "variant": variant, "players": players, "hands": hands, **extra})


def problems(variant, hands, players=THREE, **extra):
    with pytest.raises(ScoringError) as caught:
        run(variant, hands, players, **extra)
    return [(p.hand, p.field) for p in caught.value.problems]


# -- Bruff ------------------------------------------------------------------------------


def test_bruff_seed_example_the_jack_is_the_top_trump_and_b_wins_at_the_first_trick():
    # "30 zwei 35": A 30, B 35, C 35. B wins trick 1 with the jack. If the jack is the highest
    # trump in play, that trick counts 5 + 5 = 10: B 45 and wins at once.
    out = run(
        "bruff",
        [{"tricks": ["B", "A", "C", "C", "B"], "top_trump_trick": 1}],
        teams=PAIRS,
        start_totals={"A": 30, "B": 35, "C": 35},
    )
    hand = out["hands"][0]
    assert hand["game_over"] == {"winner": "B", "trick": 1, "games": 1}
    assert hand["ignored_tricks"] == [2, 3, 4, 5]
    assert hand["totals"] == {"A": 30, "B": 45, "C": 35}


def test_bruff_seed_example_the_five_comes_second_zwei_40_35():
    # A holds the five and wins trick 2 with it: trick 1 only counts 5 (B 40), trick 2
    # counts 10 (A 40): "zwei 40, 35". C then wins tricks 3 and 4: 40, 45 at trick 4.
    start = {"A": 30, "B": 35, "C": 35}
    hands = [{"tricks": ["Ben", "Anna", "Carl", "Fritz", "Emil"], "top_trump_trick": 2}]
    out = run("bruff", hands, teams=PAIRS, start_totals=start)
    hand = out["hands"][0]
    assert hand["game_over"] == {"winner": "C", "trick": 4, "games": 1}
    assert hand["totals"] == {"A": 40, "B": 40, "C": 45}
    assert hand["ignored_tricks"] == [5]
    assert hand["deltas"] == {"A": 10, "B": 5, "C": 10}


def test_bruff_a_jink_wins_the_game_whatever_the_score():
    # A (0) takes all five tricks with the top trump in trick 3: 5, 10, 20, 25, 30 - not 45,
    # but all five tricks win the game (jink_wins_game), at the fifth trick, a single game.
    out = run(
        "bruff",
        [{"tricks": ["A"] * 5, "top_trump_trick": 3}],
        teams=PAIRS,
        start_totals={"B": 40, "C": 10},
    )
    hand = out["hands"][0]
    assert hand["totals"] == {"A": 30, "B": 40, "C": 10}
    assert hand["game_over"] == {"winner": "A", "trick": 5, "games": 1}


def test_bruff_a_robber_is_three_games():
    # match_games 3 (robber): three jinks by A; the fourth hand starts a new robber.
    hands = [{"tricks": ["A"] * 5, "top_trump_trick": None}] * 3 + [
        {"tricks": ["B", "B", "C", "A", "A"], "top_trump_trick": 1}
    ]
    out = run("bruff", hands, teams=PAIRS)
    assert [g["hand"] for g in out["games"]] == [1, 2, 3]
    assert out["hands"][2]["games_won"] == {"A": 3, "B": 0, "C": 0}
    assert out["matches"] == [{"winner": "A", "hand": 3}]
    assert out["match_winner"] == "A"
    assert out["games_won"] == {"A": 0, "B": 0, "C": 0}
    # hand 4: B 10 + 5 = 15, C 5, A 10
    assert out["totals"] == {"A": 10, "B": 15, "C": 5}


def test_bruff_needs_the_top_trump_trick():
    assert problems("bruff", [{"tricks": ["Anna", "Ben", "Carl", "Anna", "Ben"]}]) == [(1, "top_trump_trick")]


def test_no_trump_played_means_no_bonus():
    out = run("bruff", [{"tricks": ["Anna", "Ben", "Carl", "Anna", "Ben"], "top_trump_trick": None}], players=THREE)
    assert out["totals"] == {"Anna": 10, "Ben": 10, "Carl": 5}


def test_the_top_trump_trick_must_be_one_of_the_tricks_entered():
    # The game ended at trick 2 (Ben 40 + 5); trick 4 was never entered.
    hands = [{"tricks": ["Anna", "Ben"], "top_trump_trick": 4}]
    assert problems("bruff", hands, start_totals={"Ben": 40}) == [(1, "top_trump_trick")]


# -- Merrimack ---------------------------------------------------------------------------


def test_merrimack_plays_every_hand_out_and_the_highest_total_wins():
    # Anna 40 + 5 = 45, Ben 40 + 10 (top trump, trick 2) + 5 = 55, Carl 10: both past 45 in
    # the same hand; the highest total, Ben, wins at the hand's last trick. No trick ignored.
    out = run(
        "merrimack",
        [{"tricks": ["Anna", "Ben", "Ben", "Carl", "Carl"], "top_trump_trick": 2}],
        players=THREE,
        start_totals={"Anna": 40, "Ben": 40},
    )
    hand = out["hands"][0]
    assert hand["totals"] == {"Anna": 45, "Ben": 55, "Carl": 10}
    assert hand["game_over"] == {"winner": "Ben", "trick": 5, "games": 1}
    assert hand["ignored_tricks"] == []


def test_merrimack_equal_highest_totals_play_on_until_one_is_strictly_ahead():
    # Hand 1: Anna 40 + 10 = 50, Ben 35 + 10 (top trump, trick 3) + 5 = 50, Carl 5: equal, on.
    # Hand 2: Anna 55, Ben 50, Carl 5 + 20 = 25: Anna strictly ahead and past 45: she wins.
    hands = [
        {"tricks": ["Anna", "Anna", "Ben", "Ben", "Carl"], "top_trump_trick": 3},
        {"tricks": ["Anna", "Carl", "Carl", "Carl", "Carl"], "top_trump_trick": None},
    ]
    out = run("merrimack", hands, players=THREE, start_totals={"Anna": 40, "Ben": 35})
    assert out["hands"][0]["totals"] == {"Anna": 50, "Ben": 50, "Carl": 5}
    assert out["hands"][0]["game_over"] is None
    assert out["hands"][1]["totals"] == {"Anna": 55, "Ben": 50, "Carl": 25}
    assert out["hands"][1]["game_over"] == {"winner": "Anna", "trick": 5, "games": 1}


def test_merrimack_a_third_party_strictly_ahead_ends_the_play_on():
    # maw.md Merrimack: "with equal highest totals nobody has won yet, and the game goes on
    # until, at the end of a hand, one party at or above the target is strictly ahead".
    # Hand 1: Anna 40 + 10 = 50, Ben 40 + 5 + 5 (top trump, trick 3) = 50, Carl 20 + 10 = 30:
    # equal highest, play on. Hand 2: Carl takes all five, 25 + 5 (top trump) = 30 -> 60;
    # Anna and Ben stay at 50 (past the target but level): Carl is strictly ahead and wins.
    hands = [
        {"tricks": ["Anna", "Anna", "Ben", "Carl", "Carl"], "top_trump_trick": 3},
        {"tricks": ["Carl"] * 5, "top_trump_trick": 1},
    ]
    out = run("merrimack", hands, players=THREE, start_totals={"Anna": 40, "Ben": 40, "Carl": 20})
    assert out["hands"][0]["totals"] == {"Anna": 50, "Ben": 50, "Carl": 30}
    assert out["hands"][0]["game_over"] is None
    assert out["hands"][1]["totals"] == {"Anna": 50, "Ben": 50, "Carl": 60}
    assert out["hands"][1]["game_over"] == {"winner": "Carl", "trick": 5, "games": 1}
    assert out["games"] == [{"winner": "Carl", "hand": 2, "trick": 5, "games": 1}]


def test_merrimack_has_no_jink():
    out = run("merrimack", [{"tricks": ["Anna"] * 5, "top_trump_trick": 1}], players=THREE)
    assert out["hands"][0]["totals"] == {"Anna": 30, "Ben": 0, "Carl": 0}
    assert out["games"] == []


def test_merrimack_needs_all_five_tricks():
    hands = [{"tricks": ["Anna", "Anna"], "top_trump_trick": 1}]
    assert problems("merrimack", hands, start_totals={"Anna": 40}) == [(1, "tricks")]


def test_dreaded_45_exactly_on_the_target_drops_to_zero():
    # Anna 35 + 10 = 45 exactly at the end of the hand: back to 0, nobody wins.
    out = run(
        "merrimack",
        [{"tricks": ["Anna", "Anna", "Ben", "Ben", "Carl"], "top_trump_trick": None}],
        players=THREE,
        rules={"dreaded_45": True},
        start_totals={"Anna": 35},
    )
    hand = out["hands"][0]
    assert hand["totals"] == {"Anna": 0, "Ben": 10, "Carl": 5}
    assert hand["deltas"] == {"Anna": -35, "Ben": 10, "Carl": 5}
    assert hand["game_over"] is None


def test_dreaded_45_does_not_touch_a_party_past_the_target():
    # Anna 35 + 15 = 50: past 45, she wins.
    out = run(
        "merrimack",
        [{"tricks": ["Anna", "Anna", "Anna", "Ben", "Carl"], "top_trump_trick": None}],
        players=THREE,
        rules={"dreaded_45": True},
        start_totals={"Anna": 35},
    )
    assert out["hands"][0]["game_over"] == {"winner": "Anna", "trick": 5, "games": 1}


def test_dreaded_45_needs_hands_played_out():
    assert problems("bruff", [], rules={"dreaded_45": True}) == [(None, "rules")]


# -- Barker ------------------------------------------------------------------------------


def test_barker_only_the_majority_scores_5_or_10_for_all_five():
    # Hand 1: A 3 tricks: 5. Hand 2: B all five: 10. Hand 3: A 4 tricks: 5. No top trump
    # trick needed (no bonus).
    hands = [
        {"tricks": ["A", "B", "A", "B", "A"]},
        {"tricks": ["B"] * 5},
        {"tricks": ["Anna", "Carl", "Ben", "Anna", "Carl"]},
    ]
    out = run("barker", hands, players=FOUR, teams=SIDES)
    assert [h["totals"] for h in out["hands"]] == [{"A": 5, "B": 0}, {"A": 5, "B": 10}, {"A": 10, "B": 10}]


def test_barker_wins_at_the_end_of_the_hand():
    # A 40 + 5 = 45 with three tricks: game at the hand's last trick.
    out = run("barker", [{"tricks": ["A", "A", "B", "B", "A"]}], players=FOUR, teams=SIDES, start_totals={"A": 40})
    assert out["hands"][0]["game_over"] == {"winner": "A", "trick": 5, "games": 1}
    assert out["hands"][0]["totals"] == {"A": 45, "B": 0}


def test_barker_cut_throat_without_a_majority_nobody_scores():
    # Two tricks each at most: nobody has three.
    out = run("barker", [{"tricks": ["Anna", "Ben", "Carl", "Anna", "Ben"]}], players=THREE)
    assert out["totals"] == {"Anna": 0, "Ben": 0, "Carl": 0}


# -- Kerry -------------------------------------------------------------------------------


def test_kerry_four_tricks_with_the_top_trump_make_31():
    # Seed: "4 x 5 + 11 = 31": A 5, 21 (trick 2 with the top trump), 26, 31 at trick 5.
    out = run("kerry", [{"tricks": ["A", "A", "B", "A", "A"], "top_trump_trick": 2}], players=FOUR, teams=SIDES)
    assert out["hands"][0]["game_over"] == {"winner": "A", "trick": 5, "games": 1}
    assert out["hands"][0]["totals"] == {"A": 31, "B": 5}


def test_kerry_one_top_trump_trick_in_each_of_two_hands_makes_32():
    # Seed: "5 + 11 = 16, 16 x 2 = 32". Hand 1: A 16, B 20. Hand 2: B 25 at trick 1, A 32
    # at trick 2: A wins, tricks 3-5 ignored.
    hands = [
        {"tricks": ["A", "B", "B", "B", "B"], "top_trump_trick": 1},
        {"tricks": ["B", "A", "B", "B", "B"], "top_trump_trick": 2},
    ]
    out = run("kerry", hands, players=FOUR, teams=SIDES)
    assert out["hands"][0]["totals"] == {"A": 16, "B": 20}
    assert out["hands"][1]["totals"] == {"A": 32, "B": 25}
    assert out["hands"][1]["game_over"] == {"winner": "A", "trick": 2, "games": 1}
    assert out["hands"][1]["ignored_tricks"] == [3, 4, 5]
