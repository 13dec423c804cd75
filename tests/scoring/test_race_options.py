"""Race options in combinations the presets do not use (maw.md: every option is data, not a
preset name). Every figure worked out by hand."""

import pytest

from scoring.errors import ScoringError
from scoring.sitting import calculate

THREE = ["Anna", "Ben", "Carl"]
FOUR = ["Anna", "Ben", "Carl", "Dora"]
SIDES = {"A": ["Anna", "Carl"], "B": ["Ben", "Dora"]}


def run(game, variant, hands, players=THREE, **extra):
    return calculate({"game": game, "variant": variant, "players": players, "hands": hands, **extra})


def test_majority_scoring_ending_mid_hand_counts_at_the_third_trick():
    # Barker scoring with ends_mid_hand: A 40 gets its third trick at trick 4: +5 = 45, wins
    # there; trick 5 ignored.
    out = run(
        "forty_five",
        "barker",
        [{"tricks": ["A", "B", "A", "A", "B"]}],
        players=FOUR,
        teams=SIDES,
        rules={"ends_mid_hand": True},
        start_totals={"A": 40},
    )
    assert out["hands"][0]["game_over"] == {"winner": "A", "trick": 4, "games": 1}
    assert out["hands"][0]["ignored_tricks"] == [5]


def test_jink_wins_game_also_when_hands_are_played_out():
    # Merrimack with jink_wins_game: all five (30 points with the top trump) win the game.
    out = run(
        "forty_five",
        "merrimack",
        [{"tricks": ["Anna"] * 5, "top_trump_trick": 2}],
        rules={"jink_wins_game": True},
    )
    assert out["hands"][0]["totals"] == {"Anna": 30, "Ben": 0, "Carl": 0}
    assert out["hands"][0]["game_over"] == {"winner": "Anna", "trick": 5, "games": 1}


def test_kerry_played_to_32_four_tricks_with_the_top_trump_are_not_enough():
    # Seed: "es scheint gelegentlich auf 32 Gewinnpunkte gespielt zu werden": 31 < 32.
    out = run(
        "forty_five",
        "kerry",
        [{"tricks": ["A", "A", "B", "A", "A"], "top_trump_trick": 2}],
        FOUR,
        teams=SIDES,
        rules={"target": 32},
    )
    assert out["hands"][0]["totals"] == {"A": 31, "B": 5}
    assert out["hands"][0]["game_over"] is None


def test_twenty_five_with_other_points_and_target():
    # 10 a trick, target 50: Ben from 0 takes all five: 50 at trick 5, a double game.
    out = run("twenty_five", "standard", [{"tricks": ["Ben"] * 5}], rules={"trick_points": 10, "target": 50})
    assert out["hands"][0]["game_over"] == {"winner": "Ben", "trick": 5, "games": 2}
    # 10 a trick, target 50, Ben at 10: 20, 30, 40, 50 at trick 4: a single game.
    out = run(
        "twenty_five",
        "standard",
        [{"tricks": ["Ben"] * 5}],
        rules={"trick_points": 10, "target": 50},
        start_totals={"Ben": 10},
    )
    assert out["hands"][0]["game_over"] == {"winner": "Ben", "trick": 4, "games": 1}


def test_auction_without_a_top_trump_bonus_needs_no_top_trump_trick():
    # Atlantic with top_trump_bonus 0: A bids 15, three tricks = 15: made; B two = 10.
    out = run(
        "auction_45",
        "atlantic",
        [{"maker": "A", "bid": 15, "tricks": ["A", "A", "A", "B", "B"]}],
        players=FOUR,
        teams=SIDES,
        rules={"top_trump_bonus": 0},
    )
    assert out["totals"] == {"A": 15, "B": 10}


def test_one_ten_with_matches_of_one_game():
    # Anna 105 (from a paper sheet) takes trick 1: 110, she wins at once; Ben's bid is cut off.
    # match_games 1: that game is a match.
    out = run(
        "one_ten",
        "standard",
        [{"bidder": "Ben", "bid": 15, "tricks": ["Anna"], "top_trump_trick": None}],
        start_totals={"Anna": 105},
        rules={"match_games": 1},
    )
    assert out["hands"][0]["game_over"] == {"winner": "Anna", "trick": 1, "games": 1}
    assert out["hands"][0]["made"] is None
    assert out["matches"] == [{"winner": "Anna", "hand": 1}]
    assert out["match_winner"] == "Anna"


@pytest.mark.parametrize(
    ("game", "rules"),
    [("one_ten", {"min_bid": 12}), ("auction_45", {"min_bid_at_100": 22}), ("forty_five", {"dreaded_45": True})],
)
def test_impossible_rules_are_a_sitting_error(game, rules):
    with pytest.raises(ScoringError) as caught:
        run(game, None, [], rules=rules)
    assert [(p.hand, p.field) for p in caught.value.problems] == [(None, "rules")]


def test_a_single_player_team_may_carry_his_name():
    teams = {"Anna": ["Anna"], "Ben": ["Ben"], "Rest": ["Carl", "Dora"]}
    out = run("twenty_five", "standard", [{"tricks": ["Anna", "Carl", "Rest", "Ben", "Dora"]}], FOUR, teams=teams)
    assert out["totals"] == {"Anna": 5, "Ben": 5, "Rest": 15}
