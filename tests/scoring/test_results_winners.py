"""Who won a hand and who won a game (scoring/results.py: ``hand_winners``, ``game_winner``),
the same two keys in every game. Every figure worked out by hand from the
game's spec; each test names the rule that decides the winner."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.registry import example_request
from scoring.results import HandFigures
from scoring.sitting import calculate
from tests.scoring.test_doppelkopf_support import FOUR, game, one, run, solo

RE = ["Anna", "Ben"]
SIX = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"]
THREE = ["Anna", "Ben", "Carl"]


def winners(hand: HandFigures):
    return hand["hand_winners"], hand["game_winner"]


# --- Doppelkopf (doppelkopf.md; DDV TSR 7.1) --------------------------------------------------


def test_doppelkopf_the_winning_party_won_the_hand_and_no_game_is_won_across_hands():
    # Re (Anna, Ben) 130 eyes, nothing said: Re needs 121 (7.1.1) and wins, +1 each.
    assert winners(one([game(RE, 130)])) == (["Anna", "Ben"], None)
    # 120 eyes: Kontra needs only 120 when nothing was said (7.1.2): Carl and Dora won.
    assert winners(one([game(RE, 120)])) == (["Carl", "Dora"], None)


def test_doppelkopf_loser_gets_the_points_the_winners_still_won():
    # Club rule (a): Re wins 181:59 without announcing: value 3, signs swapped, so the winners
    # Anna and Ben get -3 each and the losers +3. Who won is Re, whatever the sign.
    hand = one([game(RE, 181)])
    assert hand["loser_points"] is True and hand["deltas"] == {"Anna": -3, "Ben": -3, "Carl": 3, "Dora": 3}
    assert hand["hand_winners"] == ["Anna", "Ben"]


def test_doppelkopf_a_soloist_wins_alone_and_loses_to_the_three_others():
    # Trump solo, Dora 190 (won, 121 needed) and 100 (lost: Kontra has 140 >= 120).
    assert one([solo("Dora", 190)])["hand_winners"] == ["Dora"]
    assert one([solo("Dora", 100)])["hand_winners"] == ["Anna", "Ben", "Carl"]


def test_doppelkopf_no_winner_nobody_won_although_the_party_ahead_scores():
    # Re keine 60 (needs 181), Kontra keine 90 (needs 151), 170:70: both miss, no winner
    # (7.1.4); Re is ahead by 1 and gets it, but nobody won the game.
    specials = [{"kind": "doppelkopf", "party": "kontra"}]
    hand = one([game(RE, 170, "re:keine_60", "kontra:keine_90", specials=specials)])
    assert hand["winner"] is None and hand["deltas"]["Anna"] == 1
    assert winners(hand) == ([], None)


def test_doppelkopf_with_five_the_dealer_sitting_out_won_nothing():
    # Five at the table: Anna deals and sits out; Re (Ben, Carl) loses 100:140, so Kontra is
    # Dora and Emil, the active players outside Re.
    hand = one([game(["Ben", "Carl"], 100)], players=[*FOUR, "Emil"])
    assert hand["hand_winners"] == ["Dora", "Emil"]


def _ramsch(eyes, tricks):
    return {
        "kind": "ramsch",
        "eyes": dict(zip(FOUR, eyes, strict=True)),
        "tricks": dict(zip(FOUR, tricks, strict=True)),
    }


# Game 1 120:120 (Bock G2-G5), game 2 (Bock) 120:120 again: a Ramsch round from game 6.
TO_RAMSCH = [game(RE, 120), game(RE, 120)] + [game(RE, 130)] * 3


def test_ramsch_the_players_without_the_most_eyes_won():
    # The most eyes lose (Anna 100); Ben, Carl and Dora won.
    hand = run(TO_RAMSCH + [_ramsch([100, 60, 50, 30], [5, 3, 2, 2])])["hands"][5]
    assert hand["round"] == "ramsch" and hand["deltas"]["Anna"] < 0
    assert winners(hand) == (["Ben", "Carl", "Dora"], None)
    # Two level on the most eyes both lose: Carl and Dora won.
    hand = run(TO_RAMSCH + [_ramsch([89, 89, 62, 0], [4, 4, 4, 0])])["hands"][5]
    assert hand["hand_winners"] == ["Carl", "Dora"]
    # All four level: everybody has the most, nobody won (and nothing moves).
    hand = run(TO_RAMSCH + [_ramsch([60, 60, 60, 60], [3, 3, 3, 3])])["hands"][5]
    assert hand["hand_winners"] == []


def test_ramsch_durchmarsch_the_player_with_every_trick_won():
    hand = run(TO_RAMSCH + [_ramsch([0, 240, 0, 0], [0, 12, 0, 0])])["hands"][5]
    assert hand["hand_winners"] == ["Ben"]


def test_revoke_everybody_but_the_revoker_won():
    # Scored as the revoker's game lost schwarz ("falsch bedient: schwarz verloren").
    hand = one([{"kind": "revoke", "revoke_by": "Carl"}])
    assert hand["winner"] is None and winners(hand) == (["Anna", "Ben", "Dora"], None)


def test_a_points_hand_names_the_winning_party():
    # Kind points: Kontra won, value 2; Re is Anna and Ben, so Carl and Dora won.
    hand = one([{"kind": "points", "re": RE, "winner": "kontra", "value": 2}])
    assert hand["hand_winners"] == ["Carl", "Dora"]


# --- 1000 (thousand.md) -----------------------------------------------------------------------


def thousand(hands, players=THREE, **extra):
    return calculate({"game": "thousand", "players": players, "hands": hands, **extra})


def test_thousand_the_declarer_who_made_his_contract_won_the_hand():
    # Seed 001: Ben 115 + clubs 100 = 215 >= 160: made.
    hand = thousand(
        [{"declarer": "Ben", "bid": 60, "points": {"Anna": 3, "Ben": 115, "Carl": 2}, "marriages": {"Ben": ["clubs"]}}]
    )["hands"][0]
    assert winners(hand) == (["Ben"], None)


def test_thousand_the_defenders_who_set_the_declarer_won_the_hand():
    # Seed 001: 55 + 100 = 155 < 160: Ben fails; Anna and Carl set him.
    hand = thousand(
        [{"declarer": "Ben", "bid": 60, "points": {"Anna": 40, "Ben": 55, "Carl": 25}, "marriages": {"Ben": ["clubs"]}}]
    )["hands"][0]
    assert winners(hand) == (["Anna", "Carl"], None)
    # With four the dealer (Anna, hand 1) sits out: the defenders are Carl and Dora.
    hand = thousand(
        [{"declarer": "Ben", "bid": 0, "points": {"Ben": 50, "Carl": 40, "Dora": 30}}], players=[*THREE, "Dora"]
    )["hands"][0]
    assert hand["made"] is False and hand["hand_winners"] == ["Carl", "Dora"]


def test_thousand_forgot_to_pass_nobody_won_the_hand():
    hand = thousand([{"declarer": "Ben", "bid": 10, "forgot_to_pass": True}])["hands"][0]
    assert winners(hand) == ([], None)


def test_thousand_the_game_winner_won_the_hand_that_ends_the_game():
    # Ben starts at 990 and takes 20 as a defender: 1010 > 1000, he wins the game (thousand.md:
    # the first above the target) although Anna made her contract of 100 in the same hand.
    hand = thousand(
        [{"declarer": "Anna", "bid": 0, "points": {"Anna": 100, "Ben": 20, "Carl": 0}}], start_totals={"Ben": 990}
    )["hands"][0]
    assert hand["made"] is True
    assert winners(hand) == (["Ben"], "Ben")


# --- 56 (fifty-six.md) ------------------------------------------------------------------------


def fifty_six(hands, **extra):
    return calculate({"game": "fifty_six", "players": SIX, "hands": hands, **extra})


def bid56(bidder, bid, points):
    return {"bidder": bidder, "bid": bid, "trump": "hearts", "double": 0, "bidder_team_points": points}


def test_fifty_six_the_winning_team_won_the_hand():
    # Anna (A) bids 28: 28 made, A wins; 27 lost, B (the other team) wins.
    assert winners(fifty_six([bid56("Anna", 28, 28)])["hands"][0]) == (["A"], None)
    assert winners(fifty_six([bid56("Anna", 28, 27)])["hands"][0]) == (["B"], None)


def test_fifty_six_with_tables_the_match_is_the_game():
    # tables 3: Ben (B) 40 made -> A pays 2 (A 1); Ben 28 made -> A pays its last token: A is
    # left with 0, B won the match at hand 2.
    hands = fifty_six([bid56("Ben", 40, 40), bid56("Ben", 28, 30)], rules={"tables": 3})["hands"]
    assert [winners(h) for h in hands] == [(["B"], None), (["B"], "B")]


# --- Spoil Five (maw.md) ----------------------------------------------------------------------


def spoil(hands):
    return calculate({"game": "spoil_five", "players": FOUR, "hands": hands})["hands"]


def test_spoil_five_the_pot_winner_won_the_hand_and_the_game():
    # Ben's third trick wins the pot; a spoilt hand (nobody three tricks) has no winner.
    first, second = spoil(
        [{"tricks": ["Ben", "Carl", "Ben", "Ben"]}, {"tricks": ["Anna", "Ben", "Carl", "Dora", "Anna"]}]
    )
    assert winners(first) == (["Ben"], "Ben")
    assert winners(second) == ([], None)


def test_spoil_five_a_failed_jink_is_spoilt():
    # Ben takes three, jinks and loses the fourth: the pot is forfeit, nobody won.
    (hand,) = spoil([{"tricks": ["Ben", "Ben", "Ben", "Carl"], "jink": True}])
    assert hand["jink"] == "failed" and winners(hand) == ([], None)


# --- race games without a bid: 25 and 45 (maw.md) ---------------------------------------------


def twenty_five(hands, players=THREE, **extra):
    return calculate({"game": "twenty_five", "players": players, "hands": hands, **extra})["hands"]


def test_twenty_five_the_party_that_scored_the_most_won_the_hand():
    # Ben 3 tricks (15), Carl and Anna 5 each; nobody reaches 25.
    (hand,) = twenty_five([{"tricks": ["Ben", "Ben", "Carl", "Ben", "Anna"]}])
    assert winners(hand) == (["Ben"], None)


def test_twenty_five_a_tie_for_the_most_nobody_won_the_hand():
    # Four players: Anna 10, Ben 10, Carl 5, Dora 0.
    (hand,) = twenty_five([{"tricks": ["Anna", "Ben", "Anna", "Ben", "Carl"]}], players=[*THREE, "Dora"])
    assert winners(hand) == ([], None)


def test_twenty_five_the_hand_that_ends_the_game_is_won_by_the_game_winner():
    # Carl starts at 20. Ben takes tricks 1 and 2 (10), Carl trick 3: 25, Carl wins the game at
    # trick 3 although Ben scored more in the hand.
    (hand,) = twenty_five([{"tricks": ["Ben", "Ben", "Carl"]}], start_totals={"Carl": 20})
    assert hand["game_over"] == {"winner": "Carl", "trick": 3, "games": 1}
    assert winners(hand) == (["Carl"], "Carl")


def test_twenty_five_a_double_game_from_zero():
    # Anna (0) takes all five: a double game at the fifth trick.
    (hand,) = twenty_five([{"tricks": ["Anna"] * 5}])
    assert hand["game_over"]["games"] == 2 and winners(hand) == (["Anna"], "Anna")


PAIRS = {"A": ["Anna", "Dora"], "B": ["Ben", "Emil"], "C": ["Carl", "Fritz"]}


def forty_five(hands, **extra):
    return calculate(
        {"game": "forty_five", "variant": "bruff", "players": SIX, "teams": PAIRS, "hands": hands, **extra}
    )


def test_forty_five_teams_the_most_points_won_the_hand():
    # Bruff, 5 a trick: A tricks 1, 3 and 5 (15) plus the top trump in trick 3 (5): 20; B trick
    # 2: 5; C trick 4: 5. Nobody reaches 45.
    (hand,) = forty_five([{"tricks": ["A", "B", "A", "C", "A"], "top_trump_trick": 3}])["hands"]
    assert hand["scored"] == {"A": 20, "B": 5, "C": 5}
    assert winners(hand) == (["A"], None)
    # A 10 and B 10 (no trump played), C 5: a tie for the most.
    (hand,) = forty_five([{"tricks": ["A", "B", "A", "B", "C"], "top_trump_trick": None}])["hands"]
    assert winners(hand) == ([], None)


def test_forty_five_seed_b_wins_the_game_at_the_first_trick():
    # "30 zwei 35": B wins trick 1 with the top trump: 35 + 10 = 45.
    out = forty_five(
        [{"tricks": ["B", "A", "C", "C", "B"], "top_trump_trick": 1}], start_totals={"A": 30, "B": 35, "C": 35}
    )
    assert winners(out["hands"][0]) == (["B"], "B")


# --- race games with a bid: 110 and Auction 45s (maw.md) ---------------------------------------


def one_ten(hands, **extra):
    return calculate({"game": "one_ten", "players": THREE, "hands": hands, **extra})["hands"]


def bid110(bidder, bid, tricks, top=None):
    return {"bidder": bidder, "bid": bid, "tricks": tricks, "top_trump_trick": top}


def test_one_ten_a_bid_made_the_bidder_won_failed_every_other_party_won():
    # Anna bids 20: 5 + 10 (top trump) + 5 = 20 by trick 4: made.
    (hand,) = one_ten([bid110("Anna", 20, ["Anna", "Ben", "Anna", "Anna", "Carl"], 3)])
    assert hand["made"] is True and winners(hand) == (["Anna"], None)
    # Anna bids 25 and takes 10: -25; Ben and Carl set her (Carl won with 5 as well as Ben 15).
    (hand,) = one_ten([bid110("Anna", 25, ["Anna", "Ben", "Ben", "Anna", "Carl"], 2)])
    assert hand["made"] is False and winners(hand) == (["Ben", "Carl"], None)


def test_one_ten_a_game_won_before_the_bid_is_made():
    # Ben starts at 100: tricks 1 and 2 take him to 110, he wins at trick 2; Anna's bid is cut off.
    (hand,) = one_ten([bid110("Anna", 20, ["Ben", "Ben"])], start_totals={"Ben": 100})
    assert hand["made"] is None and winners(hand) == (["Ben"], "Ben")


SIDES = {"A": ["Anna", "Carl"], "B": ["Ben", "Dora"]}


def auction(variant, hands, players=(*THREE, "Dora"), teams=SIDES, **extra):
    body = {"game": "auction_45", "variant": variant, "players": list(players), "teams": teams, "hands": hands}
    return calculate({**body, **extra})["hands"]


def test_auction_45_the_maker_made_or_was_set():
    # Barker: A bids 15, tricks 1, 3 (top trump) and 4: 20 >= 15, made. A bids 25: failed.
    made, failed = auction(
        "barker",
        [
            {"maker": "A", "bid": 15, "tricks": ["A", "B", "A", "A", "B"], "top_trump_trick": 3},
            {"maker": "Anna", "bid": 25, "tricks": ["A", "B", "A", "A", "B"], "top_trump_trick": 3},
        ],
    )
    assert winners(made) == (["A"], None)
    assert winners(failed) == (["B"], None)


def test_auction_45_lose_at_the_game_winner_or_nobody():
    # Atlantic, lose_at -120: A at -100 bids 25 and makes 15: -125, A loses; B (65) wins.
    hand = {"maker": "A", "bid": 25, "tricks": ["A", "B", "B", "A", "B"], "top_trump_trick": 1}
    (lost,) = auction("atlantic", [hand], rules={"lose_at": -120}, start_totals={"A": -100, "B": 50})
    assert winners(lost) == (["B"], "B")
    # Three pairs: A loses, B and C level on 60: the game ends without a winner, nobody won.
    hand = {"maker": "A", "bid": 25, "tricks": ["A", "B", "C", "B", "C"], "top_trump_trick": None}
    (level,) = auction(
        "atlantic",
        [hand],
        players=SIX,
        teams=PAIRS,
        rules={"lose_at": -120},
        start_totals={"A": -100, "B": 50, "C": 50},
    )
    assert level["game_over"]["winner"] is None and winners(level) == ([], None)


# --- property: who won, not who gained (Doppelkopf) ---------------------------------------------


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), hands=st.integers(1, 30), variant=st.sampled_from(["club", "ddv"]))
def test_doppelkopf_winners_gain_unless_the_losers_get_the_points(seed, hands, variant):
    # doppelkopf.md: the winning party gets +v each (a soloist 3v), the losers -v; with "loser
    # gets the points" the signs are swapped (only for v > 0). A game without a winner has none.
    result = calculate(example_request("doppelkopf", random.Random(seed), hands, variant=variant))
    for hand in result["hands"]:
        won = hand["hand_winners"]
        if hand["kind"] in ("ramsch", "revoke"):
            continue  # no Re/Kontra winner: see the hand-worked tests above
        if hand["winner"] is None:
            assert won == []
            continue
        assert won and set(won) <= set(hand["active"])
        if hand["value"] > 0:
            sign = -1 if hand["loser_points"] else 1
            assert all(sign * hand["deltas"][p] > 0 for p in won), hand
            assert all(sign * hand["deltas"][p] < 0 for p in hand["active"] if p not in won), hand
