"""Spoil Five (maw.md "Spoil Five", seed 000 "Spoil Five"). Chips worked out by hand; standard
preset: stake 2, dealer_extra 2, spoil_stake 1. Anna deals first."""

import pytest

from scoring.errors import ScoringError
from scoring.sitting import calculate

FOUR = ["Anna", "Ben", "Carl", "Dora"]
SIX = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"]


def run(hands, players=FOUR, **extra):
    return calculate({"game": "spoil_five", "players": players, "hands": hands, **extra})


def problems(hands, players=FOUR, **extra):
    with pytest.raises(ScoringError) as caught:
        run(hands, players, **extra)
    return [(p.hand, p.field) for p in caught.value.problems]


def test_three_tricks_win_the_pot_fed_by_everyone_and_the_dealer_extra():
    # Empty pot: everyone 2, the dealer Anna 2 more: 4 + 2 + 2 + 2 = 10. Ben's third trick
    # (trick 4) wins it: the hand stops there. Ben -2 + 10 = 8.
    out = run([{"tricks": ["Ben", "Carl", "Ben", "Ben"]}])
    h = out["hands"][0]
    assert h["deltas"] == {"Anna": -4, "Ben": 8, "Carl": -2, "Dora": -2}
    assert h["pot"] == 0 and h["pot_winner"] == "Ben" and h["jink"] is None
    assert h["fed"] == {"Anna": 4, "Ben": 2, "Carl": 2, "Dora": 2}
    assert out["pot"] == 0


def test_tricks_recorded_after_the_pot_was_won_are_ignored():
    out = run([{"tricks": ["Ben", "Ben", "Ben", "Carl", "Dora"]}])
    assert out["hands"][0]["ignored_tricks"] == [4, 5]
    assert out["hands"][0]["pot_winner"] == "Ben"


def test_a_spoilt_hand_keeps_the_pot_and_the_next_is_fed_with_the_spoil_stake():
    # Hand 1 spoilt (nobody 3 tricks): pot 10 stays. Hand 2, Ben deals: each non-dealer 1,
    # Ben 2: pot 15. Carl wins it: -1 + 15 = 14.
    out = run([{"tricks": ["Anna", "Ben", "Carl", "Dora", "Anna"]}, {"tricks": ["Carl", "Carl", "Carl"]}])
    first, second = out["hands"]
    assert first["deltas"] == {"Anna": -4, "Ben": -2, "Carl": -2, "Dora": -2}
    assert first["pot"] == 10 and first["pot_winner"] is None
    assert second["fed"] == {"Anna": 1, "Ben": 2, "Carl": 1, "Dora": 1}
    assert second["deltas"] == {"Anna": -1, "Ben": -2, "Carl": 14, "Dora": -1}
    assert second["totals"] == {"Anna": -5, "Ben": -4, "Carl": 12, "Dora": -3}
    assert out["pot"] == 0


def test_after_a_won_pot_the_next_hand_feeds_an_empty_pot_again():
    out = run([{"tricks": ["Ben", "Ben", "Ben"]}, {"tricks": ["Ben", "Ben", "Ben"]}])
    # Hand 2, Ben deals: Ben 4, the others 2: pot 10 -> Ben -4 + 10 = 6.
    assert out["hands"][1]["deltas"] == {"Anna": -2, "Ben": 6, "Carl": -2, "Dora": -2}
    assert out["next"] == {
        "dealer": "Carl",
        "active": FOUR,
        "feed": {"Anna": 2, "Ben": 2, "Carl": 4, "Dora": 2},
    }


def test_a_jink_made_wins_the_pot_and_a_stake_from_each_other_player():
    # Ben wins the first three tricks, jinks and wins all five: pot 10 + 2 from each of the
    # three others: Ben -2 + 10 + 6 = 14; Anna -4 - 2 = -6; Carl and Dora -2 - 2 = -4.
    out = run([{"tricks": ["Ben"] * 5, "jink": True}])
    h = out["hands"][0]
    assert h["deltas"] == {"Anna": -6, "Ben": 14, "Carl": -4, "Dora": -4}
    assert h["jink"] == "made" and h["pot_winner"] == "Ben" and h["pot"] == 0


def test_a_failed_jink_stops_at_the_lost_trick_and_the_hand_is_spoilt():
    # Ben loses trick 4: he forfeits the pot, the hand stops (trick 5 ignored), pot 10 stays;
    # hand 2 is fed as after a spoilt hand (Ben deals: 2, others 1): 15.
    out = run([{"tricks": ["Ben", "Ben", "Ben", "Carl", "Ben"], "jink": True}, {"tricks": ["Dora"] * 3}])
    first, second = out["hands"]
    assert first["jink"] == "failed" and first["pot_winner"] is None
    assert first["ignored_tricks"] == [5]
    assert first["deltas"] == {"Anna": -4, "Ben": -2, "Carl": -2, "Dora": -2}
    assert first["pot"] == 10
    assert second["deltas"] == {"Anna": -1, "Ben": -2, "Carl": -1, "Dora": 14}


def test_a_jink_lost_at_the_fifth_trick_fails_too():
    out = run([{"tricks": ["Ben", "Ben", "Ben", "Ben", "Anna"], "jink": True}])
    assert out["hands"][0]["jink"] == "failed"
    assert out["pot"] == 10


def test_only_a_player_with_the_first_three_tricks_may_jink():
    hands = [
        {"tricks": ["Ben", "Carl", "Ben", "Ben", "Ben"], "jink": True},
        {"tricks": ["Ben", "Ben", "Ben"], "jink": True},  # plays on: trick 4 needed
        {"tricks": ["Ben", "Ben", "Ben", "Ben"], "jink": True},  # won trick 4: trick 5 needed
        {"tricks": ["Ben", "Ben", "Ben"], "jink": "yes"},
    ]
    assert problems(hands) == [(1, "jink"), (2, "tricks"), (3, "tricks"), (4, "jink")]


def test_fewer_than_five_tricks_with_nobody_at_three_is_an_error():
    assert problems([{"tricks": ["Ben", "Carl", "Dora"]}, {"tricks": ["Ben", "Ben"]}, {"tricks": ["Ben"] * 6}]) == [
        (1, "tricks"),
        (2, "tricks"),
        (3, "tricks"),
    ]


def test_relative_majority_two_tricks_win_when_nobody_else_has_more_than_one():
    # Six players: pot 6 x 2 + 2 = 14. Anna 2 tricks, the others 1 or 0: Anna wins
    # -4 + 14 = 10. Without the option the hand is spoilt.
    hands = [{"tricks": ["Anna", "Ben", "Anna", "Carl", "Dora"]}]
    out = run(hands, players=SIX, rules={"relative_majority": True})
    assert out["hands"][0]["pot_winner"] == "Anna"
    assert out["hands"][0]["deltas"] == {"Anna": 10, "Ben": -2, "Carl": -2, "Dora": -2, "Emil": -2, "Fritz": -2}
    out = run(hands, players=SIX)
    assert out["hands"][0]["pot_winner"] is None and out["pot"] == 14
    # Two players with two tricks each: spoilt even with the option.
    out = run([{"tricks": ["Anna", "Ben", "Anna", "Ben", "Dora"]}], players=SIX, rules={"relative_majority": True})
    assert out["hands"][0]["pot_winner"] is None


def test_spoil_five_is_cut_throat_only_and_has_no_start_totals():
    body = {"players": FOUR, "teams": {"X": ["Anna", "Carl"], "Y": ["Ben", "Dora"]}, "start_totals": {"Anna": 3}}
    assert problems([], **body) == [(None, "teams"), (None, "start_totals")]


def test_unknown_fields_and_team_names_are_errors():
    assert problems([{"tricks": ["Ben"] * 3, "top_trump_trick": 1}, {"tricks": ["Team"] * 3}]) == [
        (1, "top_trump_trick"),
        (2, "tricks"),
    ]


def test_other_stakes():
    # stake 3, dealer_extra 1: pot 3 x 4 + 1 = 13; Dora wins: -3 + 13 = 10. A jink in hand 2
    # (Ben deals, empty pot: 13 again) wins 3 from each: Carl -3 + 13 + 9 = 19.
    out = run(
        [{"tricks": ["Dora"] * 3}, {"tricks": ["Carl"] * 5, "jink": True}],
        rules={"stake": 3, "dealer_extra": 1},
    )
    assert out["hands"][0]["deltas"] == {"Anna": -4, "Ben": -3, "Carl": -3, "Dora": 10}
    assert out["hands"][1]["deltas"] == {"Anna": -6, "Ben": -7, "Carl": 19, "Dora": -6}


def test_a_failed_jink_feeds_the_next_pot_as_spoilt_and_a_made_jink_takes_it_all():
    # maw.md Spoil Five, three players (Anna, Ben, Carl), standard stakes.
    # Hand 1 (Anna deals): pot 4 + 2 + 2 = 8, nobody 3 tricks: spoilt, the pot stays 8.
    # Hand 2 (Ben deals, after a spoilt hand): Anna 1, Ben 2, Carl 1 -> 12. Anna jinks and
    #   loses trick 4: the pot is forfeited (spoilt), trick 5 ignored; pot stays 12.
    # Hand 3 (Carl deals, spoilt again): Anna 1, Ben 1, Carl 2 -> 16. Ben jinks and takes all
    #   five: the pot 16 plus 2 from Anna and from Carl: Ben -1 + 16 + 4 = 19, Anna -1 - 2 = -3,
    #   Carl -2 - 2 = -4.
    # Hand 4 (Anna deals, empty pot): Anna 4, Ben 2, Carl 2 -> 8; Carl's third trick is trick 4:
    #   Carl -2 + 8 = 6, trick 5 ignored.
    hands = [
        {"tricks": ["Anna", "Ben", "Carl", "Anna", "Ben"]},
        {"tricks": ["Anna", "Anna", "Anna", "Ben", "Carl"], "jink": True},
        {"tricks": ["Ben"] * 5, "jink": True},
        {"tricks": ["Carl", "Anna", "Carl", "Carl", "Ben"]},
    ]
    out = run(hands, players=["Anna", "Ben", "Carl"])
    h1, h2, h3, h4 = out["hands"]
    assert (h1["pot"], h1["pot_winner"], h1["jink"]) == (8, None, None)
    assert h2["fed"] == {"Anna": 1, "Ben": 2, "Carl": 1}
    assert (h2["pot"], h2["pot_winner"], h2["jink"], h2["ignored_tricks"]) == (12, None, "failed", [5])
    assert h3["fed"] == {"Anna": 1, "Ben": 1, "Carl": 2}
    assert h3["deltas"] == {"Anna": -3, "Ben": 19, "Carl": -4}
    assert (h3["pot"], h3["pot_winner"], h3["jink"]) == (0, "Ben", "made")
    assert h4["deltas"] == {"Anna": -4, "Ben": -2, "Carl": 6}
    assert h4["ignored_tricks"] == [5]
    # chips only change hands: the totals and the pot add up to 0
    assert out["totals"] == {"Anna": -12, "Ben": 13, "Carl": -1}
    assert out["pot"] == 0
