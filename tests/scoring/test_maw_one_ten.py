"""One-Hundred-and-Ten (maw.md "One-Hundred-and-Ten", seed 000 "One-Hundred and Ten (110)").
Every figure worked out by hand. Cut-throat, Anna deals first."""

import pytest

from scoring.errors import ScoringError
from scoring.sitting import calculate

THREE = ["Anna", "Ben", "Carl"]


def run(hands, **extra):
    return calculate({"game": "one_ten", "players": THREE, "hands": hands, **extra})


def problems(hands, **extra):
    with pytest.raises(ScoringError) as caught:
        run(hands, **extra)
    return [(p.hand, p.field) for p in caught.value.problems]


def hand(bidder, bid, tricks, top=None):
    return {"bidder": bidder, "bid": bid, "tricks": tricks, "top_trump_trick": top}


def test_a_bidder_who_makes_his_bid_scores_what_he_made():
    # Anna bids 20: trick 1 5, trick 3 with the top trump 10 (15), trick 4 20: made.
    # Ben 5, Carl 5: the others score what they took.
    out = run([hand("Anna", 20, ["Anna", "Ben", "Anna", "Anna", "Carl"], 3)])
    assert out["hands"][0]["totals"] == {"Anna": 20, "Ben": 5, "Carl": 5}
    assert out["hands"][0]["made"] is True


def test_a_bidder_who_fails_loses_his_bid_and_may_go_negative():
    # Anna bids 25, takes 2 tricks = 10: -25. Ben took trick 2 with the top trump: 10 + 5.
    out = run([hand("Anna", 25, ["Anna", "Ben", "Ben", "Anna", "Carl"], 2)])
    assert out["hands"][0]["totals"] == {"Anna": -25, "Ben": 15, "Carl": 5}
    assert out["hands"][0]["made"] is False


def test_thirty_for_sixty_made_and_failed():
    # A bid of 30 scores +60 with all five tricks, -60 otherwise (Ben's trick: 5).
    out = run([hand("Anna", 30, ["Anna"] * 5, 2), hand("Ben", 30, ["Ben", "Ben", "Ben", "Ben", "Carl"], 1)])
    assert out["hands"][0]["totals"] == {"Anna": 60, "Ben": 0, "Carl": 0}
    assert out["hands"][1]["totals"] == {"Anna": 60, "Ben": -60, "Carl": 5}


def test_all_five_tricks_without_a_bid_of_30_score_just_what_they_made():
    # Bid 20, all five with the top trump: 25 + 5 = 30, not 60.
    out = run([hand("Anna", 20, ["Anna"] * 5, 4)])
    assert out["totals"] == {"Anna": 30, "Ben": 0, "Carl": 0}


def test_maker_scores_bid_the_successful_maker_scores_only_his_bid():
    # Bid 15, four tricks with the top trump (25): scores 15. All five on a bid of 20: 20.
    out = run(
        [hand("Anna", 15, ["Anna", "Anna", "Ben", "Anna", "Anna"], 1), hand("Ben", 20, ["Ben"] * 5, 2)],
        rules={"maker_scores": "bid"},
    )
    assert out["hands"][0]["totals"] == {"Anna": 15, "Ben": 5, "Carl": 0}
    assert out["hands"][1]["totals"] == {"Anna": 15, "Ben": 25, "Carl": 0}


def test_the_bidder_counts_only_from_the_trick_where_he_made_his_bid():
    # Anna 100 bids 20, Ben 100. Trick 1: Anna 5 (not yet counted), trick 2: Ben 105,
    # trick 3: Anna 10, trick 4: Ben 110 - Ben wins. Anna's bid is cut off: she stays at 100.
    out = run([hand("Anna", 20, ["Anna", "Ben", "Anna", "Ben", "Anna"])], start_totals={"Anna": 100, "Ben": 100})
    h = out["hands"][0]
    assert h["game_over"] == {"winner": "Ben", "trick": 4, "games": 1}
    assert h["totals"] == {"Anna": 100, "Ben": 110, "Carl": 0}
    assert h["ignored_tricks"] == [5]
    assert h["made"] is None


def test_the_bidder_wins_at_the_trick_where_his_bid_is_made():
    # Anna 95 bids 15: tricks 1 and 3 (10), trick 4 with the top trump (20 >= 15): she scores
    # 20 at trick 4: 115, wins. Ben's trick 2 counted (5); trick 5 ignored.
    out = run([hand("Anna", 15, ["Anna", "Ben", "Anna", "Anna", "Ben"], 4)], start_totals={"Anna": 95, "Ben": 100})
    h = out["hands"][0]
    assert h["game_over"] == {"winner": "Anna", "trick": 4, "games": 1}
    assert h["totals"] == {"Anna": 115, "Ben": 105, "Carl": 0}
    assert h["ignored_tricks"] == [5]
    assert h["made"] is True


def test_a_bid_of_30_counts_only_at_the_fifth_trick():
    # Anna 90 bids 30 and takes all five: only at trick 5 does the +60 count (150).
    out = run([hand("Anna", 30, ["Anna"] * 5, 1)], start_totals={"Anna": 90})
    assert out["hands"][0]["game_over"] == {"winner": "Anna", "trick": 5, "games": 1}
    assert out["hands"][0]["totals"] == {"Anna": 150, "Ben": 0, "Carl": 0}


def test_must_bid_out_the_seed_105_cap():
    # Seed: "Wenn ein Spieler 100 Punkte hat, 2 Stiche macht, aber nicht Trumpfmacher ist, wird
    # sein Punktestand auf 105 fixiert." Anna 100 takes tricks 1 and 3 with Ben bidding: 105.
    # Ben: tricks 2, 4 and 5 with the top trump: 5 + 5 + 10 = 20 >= 15, made at trick 5.
    hands = [hand("Ben", 15, ["Anna", "Ben", "Anna", "Ben", "Ben"], 5)]
    out = run(hands, rules={"must_bid_out": True}, start_totals={"Anna": 100})
    assert out["hands"][0]["totals"] == {"Anna": 105, "Ben": 20, "Carl": 0}
    assert out["hands"][0]["game_over"] is None
    # Without must_bid_out Anna reaches 110 at trick 3 and wins; Ben's bid is cut off.
    out = run(hands, start_totals={"Anna": 100})
    assert out["hands"][0]["game_over"] == {"winner": "Anna", "trick": 3, "games": 1}
    assert out["hands"][0]["totals"] == {"Anna": 110, "Ben": 0, "Carl": 0}
    assert out["hands"][0]["ignored_tricks"] == [4, 5]


def test_must_bid_out_the_bidder_may_pass_105():
    # Anna 100 bids 15: trick 1 with the top trump (10), trick 2 (15): made, 115 - she wins.
    out = run(
        [hand("Anna", 15, ["Anna", "Anna", "Anna", "Ben", "Ben"], 1)],
        rules={"must_bid_out": True},
        start_totals={"Anna": 100},
    )
    assert out["hands"][0]["game_over"] == {"winner": "Anna", "trick": 2, "games": 1}
    assert out["hands"][0]["totals"] == {"Anna": 115, "Ben": 0, "Carl": 0}


def test_another_target_55():
    # Ben 45: trick 1 (50), trick 2 with the top trump (60 >= 55) wins the game at trick 2.
    out = run([hand("Anna", 15, ["Ben", "Ben"], 2)], rules={"target": 55}, start_totals={"Ben": 45})
    assert out["hands"][0]["game_over"] == {"winner": "Ben", "trick": 2, "games": 1}
    assert out["hands"][0]["totals"] == {"Anna": 0, "Ben": 60, "Carl": 0}


def test_bids_are_checked():
    hands = [
        hand("Anna", 10, ["Anna"] * 5),  # below the lowest bid 15
        hand("Anna", 35, ["Anna"] * 5),  # above 30
        hand("Anna", 17, ["Anna"] * 5),  # not a step of 5
        hand("Anna", True, ["Anna"] * 5),  # a bool is no number
        hand("Zoe", 15, ["Anna"] * 5),  # not at the table
        {"bid": 15, "tricks": ["Anna"] * 5, "top_trump_trick": 1},  # no bidder
        {"bidder": "Anna", "tricks": ["Anna"] * 5, "top_trump_trick": 1},  # no bid
        {"bidder": "Anna", "bid": 15, "tricks": ["Anna"] * 5},  # no top trump trick
    ]
    assert problems(hands) == [
        (1, "bid"),
        (2, "bid"),
        (3, "bid"),
        (4, "bid"),
        (5, "bidder"),
        (6, "bidder"),
        (7, "bid"),
        (8, "top_trump_trick"),
    ]


def test_in_teams_the_bidder_may_be_named_by_a_player():
    out = calculate(
        {
            "game": "one_ten",
            "players": ["Anna", "Ben", "Carl", "Dora"],
            "teams": {"N": ["Anna", "Carl"], "E": ["Ben", "Dora"]},
            "hands": [hand("Carl", 15, ["Anna", "Carl", "Ben", "N", "Dora"], 1)],
        }
    )
    # N: 10 + 5 + 5 = 20 >= 15: made; E 10.
    assert out["totals"] == {"N": 20, "E": 10}


# -- bidder_out_first: the common 110 rule when several reach the target in one hand ------------

OUT_FIRST = {"bidder_out_first": True}


def test_bidder_out_first_the_bidder_who_makes_his_bid_wins_though_another_reached_110_first():
    # Anna 100 bids 15, Ben 105. Trick 1: Ben 110 (he would win here without the rule). Trick
    # 2 with the top trump: Anna has 10, not yet her bid. Trick 3: 15, made: she scores 15 ->
    # 115 and goes out: she wins at trick 3; tricks 4 and 5 are ignored.
    hands = [hand("Anna", 15, ["Ben", "Anna", "Anna", "Anna", "Carl"], 2)]
    out = run(hands, rules=OUT_FIRST, start_totals={"Anna": 100, "Ben": 105})
    h = out["hands"][0]
    assert h["game_over"] == {"winner": "Anna", "trick": 3, "games": 1}
    assert h["totals"] == {"Anna": 115, "Ben": 110, "Carl": 0}
    assert (h["ignored_tricks"], h["made"]) == ([4, 5], True)
    # the default: the first to reach 110 wins, at trick 1
    h = run(hands, start_totals={"Anna": 100, "Ben": 105})["hands"][0]
    assert h["game_over"] == {"winner": "Ben", "trick": 1, "games": 1}
    assert h["totals"] == {"Anna": 100, "Ben": 110, "Carl": 0}


def test_bidder_out_first_a_bidder_who_fails_lets_the_first_to_reach_win_at_the_end_of_the_hand():
    # Anna 100 bids 25, Ben 105. Trick 1 with the top trump: Ben 115. Anna takes tricks 2 and
    # 4 (10 < 25): she fails, -25 -> 75, booked as the hand is played out; Carl 3 and 5: 10.
    # Ben, the first to reach 110, wins at the fifth trick.
    hands = [hand("Anna", 25, ["Ben", "Anna", "Carl", "Anna", "Carl"], 1)]
    out = run(hands, rules=OUT_FIRST, start_totals={"Anna": 100, "Ben": 105})
    h = out["hands"][0]
    assert h["game_over"] == {"winner": "Ben", "trick": 5, "games": 1}
    assert h["totals"] == {"Anna": 75, "Ben": 115, "Carl": 10}
    assert (h["ignored_tricks"], h["made"]) == ([], False)


def test_bidder_out_first_a_bidder_who_makes_his_bid_but_not_110_lets_the_other_win():
    # Anna 50 bids 15, Ben 105: Ben 110 at trick 1; Anna makes 15 at trick 3 (top trump at 2)
    # and 5 more at trick 4: 70, short of 110. Carl 5. Ben wins at the end of the hand.
    hands = [hand("Anna", 15, ["Ben", "Anna", "Anna", "Anna", "Carl"], 2)]
    h = run(hands, rules=OUT_FIRST, start_totals={"Anna": 50, "Ben": 105})["hands"][0]
    assert h["game_over"] == {"winner": "Ben", "trick": 5, "games": 1}
    assert h["totals"] == {"Anna": 70, "Ben": 110, "Carl": 5}
    assert h["made"] is True


def test_bidder_out_first_of_two_others_the_first_to_reach_wins():
    # Anna 0 bids 15; Ben and Carl 105. Trick 1: Carl 110, trick 2: Ben 110; Anna makes 15 at
    # trick 5 (15, no trump played). Carl reached first: he wins.
    hands = [hand("Anna", 15, ["Carl", "Ben", "Anna", "Anna", "Anna"])]
    h = run(hands, rules=OUT_FIRST, start_totals={"Ben": 105, "Carl": 105})["hands"][0]
    assert h["game_over"] == {"winner": "Carl", "trick": 5, "games": 1}
    assert h["totals"] == {"Anna": 15, "Ben": 110, "Carl": 110}


def test_bidder_out_first_needs_the_whole_hand_when_another_reached_the_target():
    # Ben reached 110 at trick 1, but Anna could still go out: the hand must be entered in full.
    hands = [hand("Anna", 25, ["Ben", "Anna", "Carl"], 1)]
    assert problems(hands, rules=OUT_FIRST, start_totals={"Anna": 100, "Ben": 105}) == [(1, "tricks")]
    # without the rule the game was over at trick 1
    assert run([hand("Anna", 25, ["Ben"], 1)], start_totals={"Anna": 100, "Ben": 105})["games"][0]["trick"] == 1


def test_the_api_docs_example_gives_the_figures_worked_out_by_hand():
    # scoring/maw.py API_EXAMPLES: the first bidder_out_first test.
    from scoring.maw import API_EXAMPLES

    out = calculate(dict(API_EXAMPLES["one_ten"])["The bidder goes out first"])
    assert out["hands"][0]["game_over"] == {"winner": "Anna", "trick": 3, "games": 1}
    assert out["totals"] == {"Anna": 115, "Ben": 110, "Carl": 0}
