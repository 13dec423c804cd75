"""The shared race mechanism, through Twenty-Five (maw.md "Race games and mid-hand wins",
"Twenty-Five"; calculate-api.md race fields). Every figure worked out by hand."""

import pytest

from scoring.errors import ScoringError
from scoring.sitting import calculate

THREE = ["Anna", "Ben", "Carl"]
FOUR = ["Anna", "Ben", "Carl", "Dora"]
TEAMS = {"Us": ["Anna", "Carl"], "Them": ["Ben", "Dora"]}


def run(hands, players=THREE, **extra):
    return calculate({"game": "twenty_five", "players": players, "hands": hands, **extra})


def problems(hands, players=THREE, **extra):
    with pytest.raises(ScoringError) as caught:
        run(hands, players, **extra)
    return [(p.hand, p.field) for p in caught.value.problems]


def test_the_first_to_25_wins_at_that_trick_and_later_tricks_are_ignored():
    # Anna starts at 15: trick 1 -> 20, trick 3 -> 25: she wins at trick 3; tricks 4 and 5
    # were recorded after the game ended and count for nobody (Carl stays at 0).
    out = run([{"tricks": ["Anna", "Ben", "Anna", "Carl", "Carl"]}], start_totals={"Anna": 15})
    hand = out["hands"][0]
    assert hand["totals"] == {"Anna": 25, "Ben": 5, "Carl": 0}
    assert hand["deltas"] == {"Anna": 10, "Ben": 5, "Carl": 0}
    assert hand["ignored_tricks"] == [4, 5]
    assert hand["game_over"] == {"winner": "Anna", "trick": 3, "games": 1}
    assert out["games"] == [{"winner": "Anna", "hand": 1, "trick": 3, "games": 1}]
    assert out["games_won"] == {"Anna": 1, "Ben": 0, "Carl": 0}
    assert out["match_winner"] is None


def test_the_next_hand_starts_a_new_game_from_zero_and_deltas_include_the_reset():
    # Hand 1 ends the game at Anna 25, Ben 5, Carl 0. Hand 2 starts from 0: Ben 3 tricks = 15,
    # Carl 5, Anna 5. Deltas are the net change of the shown totals: Anna 5 - 25 = -20,
    # Ben 15 - 5 = 10, Carl 5 - 0 = 5.
    out = run(
        [
            {"tricks": ["Anna", "Ben", "Anna", "Carl", "Carl"]},
            {"tricks": ["Ben", "Ben", "Carl", "Ben", "Anna"]},
        ],
        start_totals={"Anna": 15},
    )
    second = out["hands"][1]
    assert second["totals"] == {"Anna": 5, "Ben": 15, "Carl": 5}
    assert second["deltas"] == {"Anna": -20, "Ben": 10, "Carl": 5}
    assert second["scored"] == {"Anna": 5, "Ben": 15, "Carl": 5}
    assert second["game_over"] is None
    assert out["totals"] == {"Anna": 5, "Ben": 15, "Carl": 5}


def test_the_deal_rotates_clockwise_from_the_first_player_across_games():
    # players[0] deals first; hand 4 comes round to Anna again; everyone is active.
    hands = [{"tricks": ["Ben"] * 5}, {"tricks": ["Carl"] * 5}, {"tricks": ["Anna"] * 5}, {"tricks": ["Ben"] * 5}]
    out = run(hands)
    assert [h["dealer"] for h in out["hands"]] == ["Anna", "Ben", "Carl", "Anna"]
    assert all(h["active"] == THREE for h in out["hands"])
    assert out["next"] == {"dealer": "Ben", "active": THREE}


def test_an_empty_sitting_shows_the_starting_totals():
    out = run([], start_totals={"Ben": 10})
    assert out["totals"] == {"Anna": 0, "Ben": 10, "Carl": 0}
    assert out["games"] == [] and out["games_won"] == {"Anna": 0, "Ben": 0, "Carl": 0}
    assert out["next"]["dealer"] == "Anna"


def test_when_two_could_have_25_the_order_of_tricks_says_who_got_there_first():
    # Seed: "Wenn mehrere Parteien 25 oder mehr Punkte haben, dann wird rekonstruiert wer
    # zuerst das Ziel erreicht hat." Both at 20; Ben's trick comes first.
    out = run([{"tricks": ["Ben", "Anna", "Anna", "Anna", "Anna"]}], start_totals={"Anna": 20, "Ben": 20})
    hand = out["hands"][0]
    assert hand["game_over"] == {"winner": "Ben", "trick": 1, "games": 1}
    assert hand["ignored_tricks"] == [2, 3, 4, 5]
    assert hand["totals"] == {"Anna": 20, "Ben": 25, "Carl": 0}


def test_a_hand_may_stop_at_the_trick_that_decides_the_game():
    # "5 entries, or fewer only when the game was decided before the fifth trick".
    out = run([{"tricks": ["Anna", "Ben"]}], start_totals={"Ben": 20})
    assert out["hands"][0]["game_over"] == {"winner": "Ben", "trick": 2, "games": 1}
    assert out["hands"][0]["ignored_tricks"] == []
    assert out["hands"][0]["totals"] == {"Anna": 5, "Ben": 25, "Carl": 0}


def test_fewer_than_five_tricks_without_a_decision_is_an_error():
    assert problems([{"tricks": ["Anna", "Ben", "Carl"]}]) == [(1, "tricks")]


def test_teams_score_together_and_a_player_name_stands_for_his_team():
    # Us = Anna + Carl, Them = Ben + Dora. Tricks entered by player or team name.
    out = run([{"tricks": ["Anna", "Ben", "Us", "Dora", "Carl"]}], players=FOUR, teams=TEAMS)
    assert out["parties"] == ["Us", "Them"]
    assert out["hands"][0]["totals"] == {"Us": 15, "Them": 10}


def test_all_five_tricks_from_nothing_win_a_double_game():
    # "A party that has no points in the current game and takes all five tricks in one hand
    # wins a double game (counts 2 games)". Them took a trick first: Us still has 0.
    hands = [{"tricks": ["Ben", "Anna", "Anna", "Carl", "Dora"]}, {"tricks": ["Anna", "Carl", "Us", "Anna", "Carl"]}]
    out = run(hands, players=FOUR, teams=TEAMS)
    assert out["hands"][0]["totals"] == {"Us": 15, "Them": 10}
    # hand 1 gave Us 15, so hand 2 is not from zero: Us reaches 25 at trick 2, one game.
    assert out["hands"][1]["game_over"] == {"winner": "Us", "trick": 2, "games": 1}

    hands = [{"tricks": ["Ben", "Ben", "Dora", "Anna", "Dora"]}, {"tricks": ["Anna", "Carl", "Us", "Anna", "Carl"]}]
    out = run(hands, players=FOUR, teams=TEAMS)
    # Us had 5 after hand 1 (one trick): 5 + 20 = 25 at trick 4, a single game, trick 5 ignored.
    assert out["hands"][1]["game_over"] == {"winner": "Us", "trick": 4, "games": 1}
    assert out["hands"][1]["ignored_tricks"] == [5]

    hands = [{"tricks": ["Ben", "Ben", "Dora", "Ben", "Dora"]}, {"tricks": ["Anna", "Carl", "Us", "Anna", "Carl"]}]
    out = run(hands, players=FOUR, teams=TEAMS)
    # Us had 0 (Them took all of hand 1 - Them had 0 too: hand 1 is itself a double game for
    # Them). Hand 2 starts a new game: Us from 0 takes all five: double game at trick 5.
    assert out["hands"][0]["game_over"] == {"winner": "Them", "trick": 5, "games": 2}
    assert out["hands"][1]["game_over"] == {"winner": "Us", "trick": 5, "games": 2}
    assert out["hands"][1]["totals"] == {"Us": 25, "Them": 0}
    assert out["games_won"] == {"Us": 2, "Them": 2}


def test_without_the_double_game_option_all_five_from_zero_is_one_game():
    out = run([{"tricks": ["Ben"] * 5}], rules={"double_on_jink_from_zero": False})
    assert out["hands"][0]["game_over"] == {"winner": "Ben", "trick": 5, "games": 1}


def test_start_totals_are_the_game_in_progress_so_a_jink_from_them_is_no_double():
    out = run([{"tricks": ["Ben"] * 5}], start_totals={"Ben": 5})
    # Ben 5 + 20 = 25 at trick 4.
    assert out["hands"][0]["game_over"] == {"winner": "Ben", "trick": 4, "games": 1}


def test_a_match_of_two_games_and_a_new_match_with_the_next_hand():
    # match_games 2: a double game wins the match at once (games_won 2); the next hand starts a
    # new match: games_won back to 0, match_winner still names the finished match's winner.
    hands = [{"tricks": ["Us"] * 5}, {"tricks": ["Them", "Us", "Us", "Them", "Them"]}]
    out = run(hands, players=FOUR, teams=TEAMS, rules={"match_games": 2})
    assert out["hands"][0]["games_won"] == {"Us": 2, "Them": 0}
    assert out["matches"] == [{"winner": "Us", "hand": 1}]
    assert out["match_winner"] == "Us"
    assert out["games_won"] == {"Us": 0, "Them": 0}
    assert out["totals"] == {"Us": 10, "Them": 15}


def test_a_match_needs_the_games_counted_across_games():
    # Best of three (match_games 2) with single games: Ben wins two games from 20.
    hands = [
        {"tricks": ["Ben"]},  # 20 + 5 = 25: game 1 to Ben at trick 1
        {"tricks": ["Anna", "Anna", "Anna", "Anna", "Carl"]},  # 20, 0, 5
        {"tricks": ["Anna"]},  # Anna 25: game 2 to Anna at trick 1
        {"tricks": ["Ben", "Ben", "Ben", "Ben", "Ben"]},  # Ben from 0: double game -> 3 games
    ]
    out = run(hands, start_totals={"Ben": 20}, rules={"match_games": 2})
    assert [g["winner"] for g in out["games"]] == ["Ben", "Anna", "Ben"]
    assert out["games"][2] == {"winner": "Ben", "hand": 4, "trick": 5, "games": 2}
    assert out["matches"] == [{"winner": "Ben", "hand": 4}]
    assert out["games_won"] == {"Anna": 1, "Ben": 3, "Carl": 0}


def test_start_totals_at_the_target_or_below_zero_are_refused():
    with pytest.raises(ScoringError) as caught:
        run([], start_totals={"Anna": 25, "Ben": -5})
    assert [(p.hand, p.field) for p in caught.value.problems] == [(None, "start_totals"), (None, "start_totals")]


def test_every_problem_is_reported_with_its_hand_and_field():
    hands = [
        {"tricks": ["Anna", "Ben", "Carl", "Anna", "Ben"], "bid": 15},  # unknown field
        {"tricks": ["Anna", "Zoe", "Carl", "Anna", "Ben"]},  # not at the table
        {"tricks": ["Anna"] * 6},  # six tricks
        {"tricks": "Anna"},  # not a list
        {},  # missing
        {"tricks": ["Anna", "Ben", "Carl", "Anna", "Ben"], "top_trump_trick": 9},  # out of range
        {"tricks": ["Anna", "Ben", "Carl", "Anna", "Ben"], "top_trump_trick": True},
        {"tricks": [1, 2, 3, 4, 5]},
        {"tricks": ["Anna", "Ben", "Carl", "Anna", "Ben"], "top_trump_trick": None},  # valid
    ]
    assert problems(hands) == [
        (1, "bid"),
        (2, "tricks"),
        (3, "tricks"),
        (4, "tricks"),
        (5, "tricks"),
        (6, "top_trump_trick"),
        (7, "top_trump_trick"),
        (8, "tricks"),
    ]


def test_an_invalid_hand_scores_nothing_and_the_deal_moves_on():
    # Hand 2 is invalid; hand 3 is still checked (fewer than five tricks, undecided).
    assert problems([{"tricks": ["Anna"] * 4 + ["Ben"]}, {"tricks": ["Zoe"]}, {"tricks": ["Ben"]}]) == [
        (2, "tricks"),
        (3, "tricks"),
    ]
