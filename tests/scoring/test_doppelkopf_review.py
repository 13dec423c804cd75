"""Doppelkopf review: scenarios worked out by hand from doppelkopf.md sentence by sentence, none
of them already in the other Doppelkopf tests. Each test names the rule it checks; every figure
in the comments was computed by hand before running the engine."""

from __future__ import annotations

import pytest

from tests.scoring.test_doppelkopf_support import FIVE, FOUR, SIX, calls, errors, game, items, one, plain, run, solo

RE = ["Anna", "Ben"]


def _revoke(by, *announcements):
    hand = {"kind": "revoke", "revoke_by": by}
    if announcements:
        hand["announcements"] = calls(*announcements)
    return hand


def _ramsch(eyes, tricks, players=FOUR):
    return {
        "kind": "ramsch",
        "eyes": dict(zip(players, eyes, strict=True)),
        "tricks": dict(zip(players, tricks, strict=True)),
    }


def _check_breakdown(hand):
    # calculate-api.md: the breakdown explains `value`.
    assert sum(i["points"] for i in hand["breakdown"]) == hand["value"], hand["breakdown"]


# 4 players. G1 (dealer Anna) 120:120 -> Bock G2-G5; G2 (Bock) 120:120 again -> a Ramsch round
# (bock_in_bock); the Ramsch round starts with G6 (dealer Ben).
TO_BOCK = [game(RE, 120)]
TO_RAMSCH = [game(RE, 120), game(RE, 120)] + [plain()] * 3


# --- Who wins (DDV §7.1) ------------------------------------------------------------------


def test_both_parties_absage_both_miss_no_winner_items_2_and_5_and_specials_netted():
    # "When both parties made absagen both can miss: then there is no winner."
    # Re keine 60 (needs 181), Kontra keine 90 (needs 151); R 170, K 70: both miss.
    # DDV TSR 7.1.4 (7.2.2 (a), (e), (f) count): item 2: Kontra under 90: Re 1; Re (170) is not
    # under 90: Kontra 0. Item 5: Re 170 >= 120 against keine 90: 1. Kontra 70 against keine 60:
    # <120, <90: 0. Specials: Kontra a Doppelkopf (70 // 40 = 1). Re 2, Kontra 1 -> Re ahead by 1.
    specials = [{"kind": "doppelkopf", "party": "kontra"}]
    hands = [game(RE, 170, "re:keine_60", "kontra:keine_90", specials=specials)]
    for variant in ("club", "ddv"):  # absage points (item 4) are void without a winner: same in ddv
        hand = one(hands, variant=variant)
        assert hand["winner"] is None and hand["value"] == 1
        assert hand["deltas"] == {"Anna": 1, "Ben": 1, "Carl": -1, "Dora": -1}
        assert hand["triggers"] == [] and hand["loser_points"] is False
        _check_breakdown(hand)


def test_no_winner_in_a_bock_game_is_doubled():
    # The same no-winner game as Bock game 2: Re +1 x2.
    specials = [{"kind": "doppelkopf", "party": "kontra"}]
    hand = run(TO_BOCK + [game(RE, 170, "re:keine_60", "kontra:keine_90", specials=specials)])["hands"][1]
    assert hand["round"] == "bock" and hand["multiplier"] == 2 and hand["value"] == 1
    assert hand["deltas"] == {"Anna": 2, "Ben": 2, "Carl": -2, "Dora": -2}


def test_no_winner_still_fires_split_120_and_re_kontra_re():
    # Re keine 90 then keine 60 (needs 181), Kontra keine 90 (needs 151), 120:120: no winner.
    # Item 5: Re 120 against keine 90: 1; Kontra 120 against keine 90 and 90 against keine 60: 2.
    # Kontra ahead by 1. Bock triggers other than kontra_lost still count: split_120, re_kontra_re.
    hand = one([game(RE, 120, "re:keine_90", "kontra:keine_90", "re:keine_60")])
    assert hand["winner"] is None and hand["value"] == 1
    assert hand["deltas"] == {"Anna": -1, "Ben": -1, "Carl": 1, "Dora": 1}
    assert hand["triggers"] == ["split_120", "re_kontra_re"]
    # Both keine 90, 120:120: 1 each, netted to 0: nothing moves.
    hand = one([game(RE, 120, "re:keine_90", "kontra:keine_90")])
    assert hand["winner"] is None and hand["value"] == 0 and hand["deltas"] == dict.fromkeys(FOUR, 0)


def test_both_absagen_one_party_reaches_its_target():
    # Re keine 90 (151), Kontra keine 90 (151); R 160: Re wins.
    # club: 1 + under 90 (K 80) 1 + Re 2 + Kontra 2 + Re's keine 90 1 + 120 gegen keine 90 1 = 8;
    # ddv: + Kontra's keine 90 1 = 9. club: Kontra announced and lost -> kontra_lost.
    hands = [game(RE, 160, "re:keine_90", "kontra:keine_90")]
    hand = one(hands)
    assert hand["winner"] == "re" and hand["value"] == 8 and hand["triggers"] == ["kontra_lost"]
    assert one(hands, variant="ddv")["value"] == 9


def test_kontra_keine_60_boundary_59_and_60():
    # Rule 2: Kontra's absage keine 60 -> Re needs R >= 60; Kontra needs K >= 181 (own absage).
    # R 59 (K 181): Kontra wins. gewonnen 1 + Re under 90 1 + under 60 1 + Kontra angesagt 2
    # + Kontra's own absagen keine 90, keine 60 2 + gegen die Alten 1 = 8 (club and ddv alike).
    hands = [game(RE, 59, "kontra:keine_60")]
    for variant in ("club", "ddv"):
        hand = one(hands, variant=variant)
        assert hand["winner"] == "kontra" and hand["value"] == 8
        assert hand["deltas"] == {"Anna": -8, "Ben": -8, "Carl": 8, "Dora": 8}
        assert hand["loser_points"] is False
    # R 60: Re wins. club: gewonnen 1 + Kontra angesagt 2 = 3 (60 < 90: nothing against keine 60);
    # ddv: + Kontra's absage levels 2 = 5. club: Kontra lost -> Bock.
    hand = one([game(RE, 60, "kontra:keine_60")])
    assert hand["winner"] == "re" and hand["value"] == 3 and hand["triggers"] == ["kontra_lost"]
    assert one([game(RE, 60, "kontra:keine_60")], variant="ddv")["value"] == 5


def test_kontra_schwarz_absage_re_wins_with_one_trick_of_0_eyes():
    # Rule 2: Kontra said schwarz -> Re only needs one trick. Re 0 eyes in 1 trick: Re wins.
    # club: gewonnen 1 + Kontra angesagt 2 = 3 (Re 0 eyes: nothing against the absagen; K 240: no
    # under-points); ddv: + 4 absage levels = 7. Not schwarz (Re took a trick): only kontra_lost.
    hands = [game(RE, 0, "kontra:schwarz", re_tricks=1)]
    hand = one(hands)
    assert hand["winner"] == "re" and hand["value"] == 3
    assert hand["deltas"] == {"Anna": 3, "Ben": 3, "Carl": -3, "Dora": -3}
    assert hand["triggers"] == ["kontra_lost"]
    assert one(hands, variant="ddv")["value"] == 7


def test_120_to_120_with_re_and_kontra_announced_goes_to_kontra():
    # Rule 4 (both said): R >= 121, K >= 120 -> Kontra. 1 + Re 2 + Kontra 2 + gegen die Alten 1 = 6.
    # club triggers: split_120 only (Kontra won: no kontra_lost; R-K only: no re_kontra_re).
    hand = one([game(RE, 120, "re:re", "kontra:kontra")])
    assert hand["winner"] == "kontra" and hand["value"] == 6
    assert hand["triggers"] == ["split_120"]


@pytest.mark.parametrize(
    "absage, eyes, winner, value",
    [
        # Re's own absage: keine 60 needs 181, keine 30 needs 211 (club values).
        # 180: Kontra 60 >= 60 wins: 1 + Re 2 + gegen die Alten 1 = 4 (60 reaches nothing in item 5).
        ("keine_60", 180, "kontra", 4),
        # 181: Re wins: 1 + under 90, 60 (K 59) 2 + Re 2 + keine 90, keine 60 angesagt 2 = 7.
        ("keine_60", 181, "re", 7),
        # 210: Kontra 30 >= 30 wins: 1 + 2 + 1 = 4 (30 is below 60 against keine 30).
        ("keine_30", 210, "kontra", 4),
        # 211: Re wins: 1 + 3 (K 29) + 2 + 3 = 9.
        ("keine_30", 211, "re", 9),
    ],
)
def test_own_absage_targets_181_and_211(absage, eyes, winner, value):
    hand = one([game(RE, eyes, f"re:{absage}")])
    assert hand["winner"] == winner and hand["value"] == value
    _check_breakdown(hand)


# --- Absage points: club vs ddv; against-absage points -------------------------------------


def test_absage_points_winner_only_in_club_both_in_ddv():
    # Re: re, Kontra: keine 90, Re: keine 60; R 185 (>= 181), K 55 (< 151): Re wins.
    # club: 1 + under 90, 60 2 + Re 2 + Kontra 2 + Re's keine 90, keine 60 2 + 120 gegen keine 90 1 = 10.
    # ddv: + Kontra's keine 90 1 = 11. club triggers: kontra_lost, re_kontra_re (in that order).
    hands = [game(RE, 185, "re:re", "kontra:keine_90", "re:keine_60")]
    result = run(hands)
    hand = result["hands"][0]
    assert hand["winner"] == "re" and hand["value"] == 10
    assert hand["deltas"] == {"Anna": 10, "Ben": 10, "Carl": -10, "Dora": -10}
    assert hand["triggers"] == ["kontra_lost", "re_kontra_re"] and hand["loser_points"] is False
    assert (result["next"]["round"], result["next"]["round_games_left"], result["next"]["queue"]) == (
        "bock",
        4,
        ["bock"],
    )
    hand = one(hands, variant="ddv")
    assert hand["value"] == 11 and hand["triggers"] == []
    _check_breakdown(hand)


def test_120_against_keine_90_in_the_club():
    # Kontra said only keine 90 (implies kontra); R 150 >= 90 wins. club: 1 (K 90: not under 90)
    # + Kontra angesagt 2 + 120 gegen keine 90 1 = 4.
    hand = one([game(RE, 150, "kontra:keine_90")])
    assert hand["winner"] == "re" and hand["value"] == 4
    assert items(hand).get("120 gegen keine 90") == 1


@pytest.mark.parametrize(
    "re_eyes, club, ddv",
    [
        # Re said keine 30 (needs 211); Kontra needs only 30. Item 5 against keine 30 is cumulative:
        # 120 vs keine 90, 90 vs keine 60, 60 vs keine 30.
        (200, 4, 7),  # K 40: nothing in item 5. 1 + Re 2 + gegen die Alten 1 = 4; ddv + 3 levels.
        (175, 5, 8),  # K 65: 60 gegen keine 30: 5.
        (145, 6, 9),  # K 95: 90 gegen keine 60 + 60 gegen keine 30: 6.
        (115, 7, 10),  # K 125: all three: 7.
    ],
)
def test_against_keine_30_is_cumulative(re_eyes, club, ddv):
    hands = [game(RE, re_eyes, "re:keine_30")]
    hand = one(hands)
    assert hand["winner"] == "kontra" and hand["value"] == club
    assert hand["loser_points"] is False and hand["triggers"] == []
    assert one(hands, variant="ddv")["value"] == ddv


def test_30_against_schwarz():
    # Re said schwarz; Kontra took tricks with 35 eyes: Kontra wins.
    # club: 1 + Re 2 + 30 gegen schwarz 1 + gegen die Alten 1 = 5; ddv: + 4 levels = 9.
    hands = [game(RE, 205, "re:schwarz")]
    hand = one(hands)
    assert hand["winner"] == "kontra" and hand["value"] == 5
    assert items(hand).get("30 gegen schwarz") == 1
    assert one(hands, variant="ddv")["value"] == 9


def test_schwarz_announced_and_made():
    # Re said schwarz, Kontra took no trick: 1 + under 90/60/30 + schwarz 4 + Re 2 + 4 levels = 11
    # (club: the winner's own absagen; ddv the same). No loser points (highest call not keine 90).
    hands = [game(RE, 240, "re:schwarz")]
    hand = one(hands)
    assert hand["value"] == 11 and hand["loser_points"] is False and hand["triggers"] == ["schwarz"]
    assert one(hands, variant="ddv")["value"] == 11


# --- Special points, solo tripling with negative v -------------------------------------------


def test_trump_solo_negative_value_flips_the_signs():
    # Trump solo, soloist 120 with three Doppelkopf (120 // 40 = 3; club: the Doppelkopf counts in a
    # trump solo). Kontra 120 wins (rule 4). v = gewonnen 1 + Solopunkt 1 - 3 = -1, winner Kontra.
    # Soloist: -3v = +3; each opponent -1. 120:120 -> split_120.
    specials = [{"kind": "doppelkopf", "party": "re"}] * 3
    hand = one([solo("Anna", 120, specials=specials)])
    assert hand["winner"] == "kontra" and hand["value"] == -1
    assert hand["deltas"] == {"Anna": 3, "Ben": -1, "Carl": -1, "Dora": -1}
    assert hand["triggers"] == ["split_120"]
    _check_breakdown(hand)


def test_stilles_solo_all_special_points_count_in_the_club_negative_value():
    # Stilles solo won with 130: 1 + Solopunkt 1 = 2; Kontra two Doppelkopf (110 // 40 = 2) and a
    # Fuchs: 3. v = -1: soloist -3, opponents +1.
    specials = [{"kind": "doppelkopf", "party": "kontra"}] * 2 + [{"kind": "fuchs", "party": "kontra"}]
    hand = one([solo("Anna", 130, solo="stilles", specials=specials)])
    assert hand["winner"] == "re" and hand["value"] == -1
    assert hand["deltas"] == {"Anna": -3, "Ben": 1, "Carl": 1, "Dora": 1}


def test_special_points_against_kontra_as_winner():
    # Kontra wins 130 (R 110): 1 + gegen die Alten 1 = 2. Re: two Doppelkopf (110 // 40 = 2) and a
    # Doppel-Charly (club 2): 4 -> v = -2: Re players +2, Kontra -2. ddv: Karlchen 1 -> v = 2 - 3 = -1.
    specials = [{"kind": "doppelkopf", "party": "re"}] * 2 + [{"kind": "karlchen", "party": "re", "doppel": True}]
    hand = one([game(RE, 110, specials=specials)])
    assert hand["winner"] == "kontra" and hand["value"] == -2
    assert hand["deltas"] == {"Anna": 2, "Ben": 2, "Carl": -2, "Dora": -2}
    _check_breakdown(hand)
    hand = one([game(RE, 110, specials=specials)], variant="ddv")
    assert hand["value"] == -1 and hand["deltas"] == {"Anna": 1, "Ben": 1, "Carl": -1, "Dora": -1}


def test_doppel_charly_and_fuchs_in_the_last_trick_of_the_same_party():
    # Re wins 130 (1); Re's Karlchen wins the last trick with the second club jack from Re
    # (Doppel-Charly) and catches Kontra's Fuchs in it. club: 1 + 2 + 2 = 5; ddv 1 + 1 + 1 = 3;
    # club without doppel_charly: 1 + 1 + 2 = 4.
    specials = [
        {"kind": "karlchen", "party": "re", "doppel": True},
        {"kind": "fuchs", "party": "re", "last_trick": True},
    ]
    hands = [game(RE, 130, specials=specials)]
    hand = one(hands)
    assert hand["value"] == 5 and hand["deltas"]["Anna"] == 5
    _check_breakdown(hand)
    assert one(hands, variant="ddv")["value"] == 3
    assert one(hands, rules={"doppel_charly": False})["value"] == 4


def test_two_foxes_one_in_the_last_trick():
    # Re caught both Füchse, one in the last trick: club 1 + 1 + 2 = 4, ddv 1 + 1 + 1 = 3.
    specials = [{"kind": "fuchs", "party": "re"}, {"kind": "fuchs", "party": "re", "last_trick": True}]
    assert one([game(RE, 130, specials=specials)])["value"] == 4
    assert one([game(RE, 130, specials=specials)], variant="ddv")["value"] == 3


def test_special_points_in_hochzeit_and_trumpfabgabe_in_ddv():
    # ddv: special points count in a Hochzeit with partner and in a Trumpfabgabe.
    # Hochzeit with partner won 130 + Fuchs (Re) = 2.
    fuchs = [{"kind": "fuchs", "party": "re"}]
    assert one([game(["Anna", "Carl"], 130, kind="hochzeit", specials=fuchs)], variant="ddv")["value"] == 2
    # Trumpfabgabe lost 110: Kontra 1 (no gegen die Alten) + Kontra's Karlchen 1 = 2.
    karl = [{"kind": "karlchen", "party": "kontra"}]
    hand = one([game(["Anna", "Carl"], 110, kind="trumpfabgabe", specials=karl)], variant="ddv")
    assert hand["winner"] == "kontra" and hand["value"] == 2


def test_hochzeit_without_partner_only_the_doppelkopf_counts():
    # Scored exactly as a trump solo: in the club only the Doppelkopf counts, a Fuchs is an error;
    # in ddv nothing counts.
    fuchs = [{"kind": "fuchs", "party": "re"}]
    dk = [{"kind": "doppelkopf", "party": "re"}]
    assert errors([game(["Ben"], 150, kind="hochzeit", specials=fuchs)]) == [(1, "specials")]
    assert errors([game(["Ben"], 150, kind="hochzeit", specials=dk)], variant="ddv") == [(1, "specials")]


# --- Loser gets the points (club): boundaries ------------------------------------------------


def test_loser_points_a_boundary_59_and_60():
    # (a) L < 60, winner said nothing. R 181 / K 59: 1 + under 90 + under 60 = 3, signs swapped:
    # the losers (Kontra) +3, the winners -3.
    hand = one([game(RE, 181)])
    assert hand["loser_points"] is True and hand["deltas"] == {"Anna": -3, "Ben": -3, "Carl": 3, "Dora": 3}
    # R 180 / K 60: 2, plain plus-minus, no Pflichtsolo.
    result = run([game(RE, 180)])
    hand = result["hands"][0]
    assert hand["loser_points"] is False and hand["value"] == 2
    assert hand["deltas"] == {"Anna": 2, "Ben": 2, "Carl": -2, "Dora": -2}
    assert hand["triggers"] == [] and result["next"]["round"] == "normal"


def test_loser_points_a_the_losers_own_announcement_does_not_matter():
    # Kontra said kontra, Re (said nothing) wins 185 / K 55: 1 + 2 + Kontra angesagt 2 = 5, swapped:
    # Kontra +5, Re -5. Triggers: kontra_lost (Bock) then loser_points (Pflichtsolo).
    result = run([game(RE, 185, "kontra:kontra")])
    hand = result["hands"][0]
    assert hand["value"] == 5 and hand["deltas"] == {"Anna": -5, "Ben": -5, "Carl": 5, "Dora": 5}
    assert hand["triggers"] == ["kontra_lost", "loser_points"]
    assert (result["next"]["round"], result["next"]["queue"]) == ("bock", ["pflichtsolo"])
    # Re said re and lost with 55; Kontra (said nothing) wins: 1 + 2 + Re angesagt 2 + gegen die Alten 1
    # = 6; swapped: the Re players (the losers) +6, Kontra -6.
    hand = one([game(RE, 55, "re:re")])
    assert hand["winner"] == "kontra" and hand["deltas"] == {"Anna": 6, "Ben": 6, "Carl": -6, "Dora": -6}
    assert hand["triggers"] == ["loser_points"]


def test_loser_points_b_boundary_29_and_30():
    # (b) L < 30 and the winner only said re. R 211 / K 29: 1 + 3 + 2 = 6, swapped: Kontra +6, Re -6.
    assert one([game(RE, 211, "re:re")])["deltas"] == {"Anna": -6, "Ben": -6, "Carl": 6, "Dora": 6}
    # R 210 / K 30: 1 + 2 + 2 = 5, plus-minus.
    hand = one([game(RE, 210, "re:re")])
    assert hand["loser_points"] is False and hand["deltas"] == {"Anna": 5, "Ben": 5, "Carl": -5, "Dora": -5}
    # Kontra said only kontra and won 215 / R 25: 1 + 3 + 2 + gegen die Alten 1 = 7, swapped:
    # Re (the losers) +7, Kontra -7.
    hand = one([game(RE, 25, "kontra:kontra")])
    assert hand["winner"] == "kontra" and hand["deltas"] == {"Anna": 7, "Ben": 7, "Carl": -7, "Dora": -7}
    assert hand["triggers"] == ["loser_points"]


def test_loser_points_c_needs_no_trick_not_just_0_eyes():
    # Re said keine 90, 240 eyes, but Kontra took one trick (of 0 eyes): no schwarz, no (c).
    # 1 + under 90/60/30 3 + Re 2 + keine 90 angesagt 1 = 7, plus-minus; no trigger.
    hand = one([game(RE, 240, "re:keine_90", re_tricks=11)])
    assert hand["loser_points"] is False and hand["value"] == 7
    assert hand["deltas"] == {"Anna": 7, "Ben": 7, "Carl": -7, "Dora": -7}
    assert hand["triggers"] == []


def test_loser_points_when_the_soloist_won():
    # Trump solo won 190, nothing said: 1 + under 90, 60 2 + Solopunkt 1 = 4. Swapped, soloist x3
    # as usual: the soloist -12, each opponent +4.
    hand = one([solo("Dora", 190)])
    assert hand["winner"] == "re" and hand["loser_points"] is True
    assert hand["deltas"] == {"Anna": 4, "Ben": 4, "Carl": 4, "Dora": -12}


def test_loser_points_in_a_bock_game_doubled_and_enqueue_pflichtsolo_not_ramsch():
    # Bock game 2: Re 185, nothing said: 3 x2 = 6, swapped: Kontra +6, Re -6; loser_points is no
    # Bock trigger.
    result = run(TO_BOCK + [game(RE, 185)])
    hand = result["hands"][1]
    assert hand["deltas"] == {"Anna": -6, "Ben": -6, "Carl": 6, "Dora": 6} and hand["triggers"] == ["loser_points"]
    nxt = result["next"]
    assert (nxt["round"], nxt["round_games_left"], nxt["queue"]) == ("bock", 3, ["pflichtsolo"])


def test_bock_game_with_a_bock_trigger_and_loser_points():
    # Bock game: Kontra said kontra, Re wins 185: 1 + 2 + 2 = 5, x2 = 10, swapped: Kontra +10, Re -10.
    # kontra_lost in a Bock game -> Ramsch; loser_points -> Pflichtsolo. Queue: ramsch, pflichtsolo.
    result = run(TO_BOCK + [game(RE, 185, "kontra:kontra")])
    hand = result["hands"][1]
    assert hand["deltas"] == {"Anna": -10, "Ben": -10, "Carl": 10, "Dora": 10}
    assert hand["triggers"] == ["kontra_lost", "loser_points"]
    assert result["next"]["queue"] == ["ramsch", "pflichtsolo"]
    # Two Bock triggers in a Bock game: two Ramsch rounds. Kontra said kontra, 120:120: Re wins
    # 1 + 2 = 3, x2 = 6.
    result = run(TO_BOCK + [game(RE, 120, "kontra:kontra")])
    hand = result["hands"][1]
    assert hand["deltas"] == {"Anna": 6, "Ben": 6, "Carl": -6, "Dora": -6}
    assert hand["triggers"] == ["kontra_lost", "split_120"]
    assert result["next"]["queue"] == ["ramsch", "ramsch"]


# --- Revoke ---------------------------------------------------------------------------------


def test_revoke_counts_implied_re_kontra_and_both_parties_absage_levels():
    # Re said keine 60 (implies re), Kontra keine 90 (implies kontra):
    # 5 + Re 2 + Kontra 2 + Re's 2 levels + Kontra's 1 level = 12. Revoker -36, others +12.
    revoke = _revoke("Ben", "re:keine_60", "kontra:keine_90")
    for variant in ("club", "ddv"):
        hand = one([revoke], variant=variant)
        assert hand["value"] == 12 and hand["winner"] is None
        assert hand["deltas"] == {"Anna": 12, "Ben": -36, "Carl": 12, "Dora": 12}
        _check_breakdown(hand)
    # In a Bock game: x2.
    hand = run(TO_BOCK + [revoke])["hands"][1]
    assert hand["deltas"] == {"Anna": 24, "Ben": -72, "Carl": 24, "Dora": 24}


def test_revoke_fires_no_trigger_even_after_re_kontra_re():
    result = run([_revoke("Carl", "re:re", "kontra:kontra", "re:keine_90")])
    assert result["hands"][0]["triggers"] == [] and result["next"]["round"] == "normal"
    assert result["hands"][0]["deltas"]["Carl"] == -30  # 5 + 2 + 2 + 1 = 10


def test_revoke_with_six_players_the_two_sitting_out_get_0():
    # Dealer Anna: Anna and Carl sit out. Dora revokes: 5; Dora -15, Ben/Emil/Fritz +5.
    hand = one([_revoke("Dora")], players=SIX)
    assert hand["deltas"] == {"Anna": 0, "Ben": 5, "Carl": 0, "Dora": -15, "Emil": 5, "Fritz": 5}


def test_revoke_in_a_ramsch_round_uses_up_the_game():
    # G6 is the first Ramsch game (dealer Ben). A revoke there: multiplier 1, the deal moves on,
    # 3 Ramsch games left.
    result = run(TO_RAMSCH + [_revoke("Anna")])
    hand = result["hands"][5]
    assert hand["round"] == "ramsch" and hand["multiplier"] == 1
    assert hand["deltas"] == {"Anna": -15, "Ben": 5, "Carl": 5, "Dora": 5}
    nxt = result["next"]
    assert (nxt["dealer"], nxt["round"], nxt["round_games_left"]) == ("Carl", "ramsch", 3)


# --- Ramsch ---------------------------------------------------------------------------------


def test_ramsch_two_jungfrauen_double_twice():
    # Anna 130 loses: P = 4; Carl and Dora took no trick: x2 x2 = 16. Anna -48, others +16.
    # No schwarz trigger in Ramsch.
    hand = run(TO_RAMSCH + [_ramsch([130, 110, 0, 0], [6, 6, 0, 0])])["hands"][5]
    assert hand["value"] == 16 and hand["deltas"] == {"Anna": -48, "Ben": 16, "Carl": 16, "Dora": 16}
    assert hand["triggers"] == [] and hand["winner"] is None
    _check_breakdown(hand)


def test_ramsch_ties():
    # 89, 89, 62, 0: P = 89 // 30 = 2, Dora Jungfrau -> 4; k = 2: losers -4*2, others +4*2.
    hand = run(TO_RAMSCH + [_ramsch([89, 89, 62, 0], [4, 4, 4, 0])])["hands"][5]
    assert hand["value"] == 4 and hand["deltas"] == {"Anna": -8, "Ben": -8, "Carl": 8, "Dora": 8}
    # All four 60: k = 4, P = 2: losers pay P*(4-4) = 0.
    hand = run(TO_RAMSCH + [_ramsch([60, 60, 60, 60], [3, 3, 3, 3])])["hands"][5]
    assert hand["deltas"] == dict.fromkeys(FOUR, 0)


def test_two_trump_soli_in_a_row_in_a_ramsch_round():
    # Each trump solo: same dealer again, the Ramsch round grows by one game; multiplier 1.
    hands = TO_RAMSCH + [solo("Carl", 150), solo("Dora", 150)]
    result = run(hands)
    assert [h["dealer"] for h in result["hands"][5:]] == ["Ben", "Ben"]
    assert [h["multiplier"] for h in result["hands"][5:]] == [1, 1]
    nxt = result["next"]
    assert (nxt["dealer"], nxt["round"], nxt["round_games_left"]) == ("Ben", "ramsch", 4)


def test_trump_solo_in_ramsch_counts_as_voluntary_solo():
    # G1 120:120 -> Bock G2-G5; G2 (Bock) 120:120 -> Ramsch. G3-G5 voluntary soli in Bock games
    # (streak 3); G6 (Ramsch round, dealer Ben): a trump solo, the 4th voluntary solo in a row ->
    # solo_streak. It is no Bock game, so a Bock round is enqueued. G6: Carl +6, others -2 (x1).
    hands = [game(RE, 120), game(RE, 120), solo("Dora", 150), solo("Anna", 150), solo("Ben", 150)]
    result = run(hands + [solo("Carl", 150)])
    h = result["hands"]
    assert [x["triggers"] for x in h] == [["split_120"], ["split_120"], [], [], [], ["solo_streak"]]
    assert h[2]["deltas"] == {"Anna": -4, "Ben": -4, "Carl": -4, "Dora": 12}
    assert h[5]["round"] == "ramsch" and h[5]["deltas"] == {"Anna": -2, "Ben": -2, "Carl": 6, "Dora": -2}
    nxt = result["next"]
    assert (nxt["dealer"], nxt["round"], nxt["round_games_left"], nxt["queue"]) == ("Ben", "ramsch", 4, ["bock"])


# --- Triggers -------------------------------------------------------------------------------


def test_five_triggers_in_one_game_in_the_spec_order():
    # Re: re, Kontra: kontra, Re: keine 90; Re all tricks; a Doppelkopf (Re) won by a Fuchs in the last
    # trick. v = 1 + 4 + Re 2 + Kontra 2 + keine 90 angesagt 1 + Doppelkopf 1 = 11; (c): swapped,
    # Kontra +11, Re -11.
    # kontra_lost, schwarz, re_kontra_re, fuchs_last_doppelkopf (4 Bock rounds), loser_points.
    hand = game(
        RE,
        240,
        "re:re",
        "kontra:kontra",
        "re:keine_90",
        specials=[{"kind": "doppelkopf", "party": "re"}],
        fuchs_wins_last_doppelkopf=True,
    )
    result = run([hand])
    h = result["hands"][0]
    assert h["value"] == 11 and h["deltas"] == {"Anna": -11, "Ben": -11, "Carl": 11, "Dora": 11}
    assert h["triggers"] == ["kontra_lost", "schwarz", "re_kontra_re", "fuchs_last_doppelkopf", "loser_points"]
    nxt = result["next"]
    assert (nxt["round"], nxt["round_games_left"], nxt["queue"]) == ("bock", 4, ["bock", "bock", "bock", "pflichtsolo"])


def test_solo_streak_comes_after_split_120_and_before_loser_points():
    soli = [solo(p, 150) for p in ("Anna", "Ben", "Carl")]
    # 4th solo in a row lost 120:120: Kontra 1 + Solopunkt 1 = 2: Dora -6.
    result = run(soli + [solo("Dora", 120)])
    h = result["hands"][3]
    assert h["deltas"] == {"Anna": 2, "Ben": 2, "Carl": 2, "Dora": -6}
    assert h["triggers"] == ["split_120", "solo_streak"]
    assert (result["next"]["round"], result["next"]["queue"]) == ("bock", ["bock"])
    # 4th solo won 190, nothing said: 4, signs swapped (loser points).
    result = run(soli + [solo("Dora", 190)])
    assert result["hands"][3]["triggers"] == ["solo_streak", "loser_points"]
    assert (result["next"]["round"], result["next"]["queue"]) == ("bock", ["pflichtsolo"])


@pytest.mark.parametrize(
    "sequence, expected",
    [
        (("re:keine_90", "kontra:kontra", "re:keine_60"), True),
        (("kontra:kontra", "re:re", "kontra:keine_90"), False),  # K-R-K
        (("kontra:kontra", "re:re", "re:keine_90"), False),  # no Kontra call between
        (("kontra:kontra", "re:re", "kontra:keine_90", "re:keine_90"), True),
        (("re:re", "re:keine_90", "kontra:kontra"), False),  # R-R-K
    ],
)
def test_re_kontra_re_sequence(sequence, expected):
    hand = one([game(RE, 130, *sequence)])
    assert ("re_kontra_re" in hand["triggers"]) is expected


def test_solo_streak_with_five_players_and_a_bock_trigger_in_a_bock_game():
    # 5 players: the 5th voluntary solo in a row triggers (not the 4th); the streak starts again at 0,
    # so the 10th triggers again. G6-G10 are the Bock round (soli in Bock count as voluntary); the
    # 10th is a Bock game -> a Ramsch round follows.
    # Soloist = the player after the dealer (always active): Ben, Carl, Dora, Emil, Anna, ...
    soloists = ["Ben", "Carl", "Dora", "Emil", "Anna"] * 2
    result = run([solo(p, 150) for p in soloists], players=FIVE)
    h = result["hands"]
    assert [x["triggers"] for x in h] == [[]] * 4 + [["solo_streak"]] + [[]] * 4 + [["solo_streak"]]
    assert [x["round"] for x in h] == ["normal"] * 5 + ["bock"] * 5
    # G1: dealer Anna sits out; Ben +6, others -2. G6 (Bock): Ben +12, Anna sits out.
    assert h[0]["deltas"] == {"Anna": 0, "Ben": 6, "Carl": -2, "Dora": -2, "Emil": -2}
    assert h[5]["deltas"] == {"Anna": 0, "Ben": 12, "Carl": -4, "Dora": -4, "Emil": -4}
    nxt = result["next"]
    assert (nxt["round"], nxt["round_games_left"], nxt["queue"], nxt["solo_owed"]) == ("ramsch", 5, [], [])


def test_compulsory_soli_reset_the_streak():
    # G1 voluntary solo (streak 1) won 190: loser points -> Pflichtsolo G2-G5 (soloists Carl, Dora,
    # Anna, Ben), which reset the streak. G6-G9 voluntary soli: only the 4th of them (G9) triggers.
    hands = [solo("Carl", 190)] + [solo(p, 150) for p in ("Carl", "Dora", "Anna", "Ben")]
    hands += [solo(p, 150) for p in ("Carl", "Dora", "Anna", "Ben")]
    result = run(hands)
    h = result["hands"]
    assert [x["round"] for x in h] == ["normal"] + ["pflichtsolo"] * 4 + ["normal"] * 4
    assert [x["triggers"] for x in h] == [["loser_points"]] + [[]] * 7 + [["solo_streak"]]


def test_queue_moves_on_after_each_round():
    # kontra_lost + split_120: two Bock rounds, one after the other.
    hands = [game(RE, 120, "kontra:kontra")] + [plain()] * 8
    nxt = run(hands[:1])["next"]
    assert (nxt["round"], nxt["round_games_left"], nxt["queue"]) == ("bock", 4, ["bock"])
    nxt = run(hands[:5])["next"]
    assert (nxt["round"], nxt["round_games_left"], nxt["queue"]) == ("bock", 4, [])
    result = run(hands)
    assert [h["multiplier"] for h in result["hands"]] == [1] + [2] * 8
    nxt = result["next"]
    assert (nxt["round"], nxt["round_games_left"], nxt["queue"], nxt["soloist"]) == ("normal", 0, [], None)


# --- Pflichtsolo round, penalty soli, sitting out -------------------------------------------


def test_pflichtsolo_round_with_five_players():
    # G1 (dealer Anna sits out): Ben+Carl 185 -> loser points, 3 swapped: the losers Dora, Emil +3,
    # the winners Ben, Carl -3, Anna 0.
    # Pflichtsolo round: 5 games, dealers Ben, Carl, ...; soloists Carl, Dora, ...
    result = run([game(["Ben", "Carl"], 185)], players=FIVE)
    assert result["hands"][0]["deltas"] == {"Anna": 0, "Ben": -3, "Carl": -3, "Dora": 3, "Emil": 3}
    nxt = result["next"]
    assert (nxt["round"], nxt["round_games_left"], nxt["dealer"], nxt["soloist"]) == ("pflichtsolo", 5, "Ben", "Carl")
    result = run([game(["Ben", "Carl"], 185), solo("Carl", 150)], players=FIVE)
    assert result["hands"][1]["deltas"] == {"Anna": -2, "Ben": 0, "Carl": 6, "Dora": -2, "Emil": -2}
    nxt = result["next"]
    assert (nxt["round"], nxt["round_games_left"], nxt["dealer"], nxt["soloist"]) == ("pflichtsolo", 4, "Carl", "Dora")


def test_bock_round_with_six_players_lasts_six_games():
    result = run([game(["Ben", "Dora"], 120)], players=SIX)
    assert (result["next"]["round"], result["next"]["round_games_left"]) == ("bock", 6)


def test_pflichtsolo_round_with_six_players():
    # G1 (dealer Anna; Anna, Carl sit out): loser points. Next: dealer Ben (Ben, Dora sit out), soloist
    # Carl; the round has 6 games.
    result = run([game(["Ben", "Dora"], 185)], players=SIX)
    nxt = result["next"]
    assert (nxt["round"], nxt["round_games_left"], nxt["dealer"], nxt["soloist"]) == ("pflichtsolo", 6, "Ben", "Carl")
    assert nxt["active"] == ["Anna", "Carl", "Emil", "Fritz"]


def test_penalty_soli_with_six_players():
    # Soloist Anna: dealt by Fritz (Fritz and Ben sit out); soloist Carl: dealt by Ben (Ben, Dora sit
    # out); then the host Anna deals (Anna, Carl sit out).
    start = run([], players=SIX, compulsory_solos=["Anna", "Carl"])["next"]
    assert (start["round"], start["round_games_left"], start["dealer"], start["soloist"]) == (
        "penalty",
        2,
        "Fritz",
        "Anna",
    )
    assert start["active"] == ["Anna", "Carl", "Dora", "Emil"]
    hands = [solo("Anna", 150), solo("Carl", 150), game(["Ben", "Dora"], 130)]
    result = run(hands, players=SIX, compulsory_solos=["Anna", "Carl"])
    h = result["hands"]
    assert [x["dealer"] for x in h] == ["Fritz", "Ben", "Anna"]
    assert [x["active"] for x in h] == [
        ["Anna", "Carl", "Dora", "Emil"],
        ["Anna", "Carl", "Emil", "Fritz"],
        ["Ben", "Dora", "Emil", "Fritz"],
    ]
    assert h[0]["deltas"] == {"Anna": 6, "Ben": 0, "Carl": -2, "Dora": -2, "Emil": -2, "Fritz": 0}
    assert result["next"]["dealer"] == "Ben"


def test_penalty_solo_with_four_players_then_the_host_deals():
    # Soloist Ben: dealt by Anna; afterwards the host Anna deals her first game.
    result = run([solo("Ben", 150), plain()], compulsory_solos=["Ben"])
    assert [h["dealer"] for h in result["hands"]] == ["Anna", "Anna"]
    assert [h["round"] for h in result["hands"]] == ["penalty", "normal"]
    assert result["next"]["dealer"] == "Ben"


def test_trigger_in_a_penalty_game_waits_for_the_penalty_soli():
    # Penalty soli Carl, Dora. Carl's solo ends 120:120: Kontra 1 + Solopunkt 1 = 2, Carl -6; split_120.
    result = run([solo("Carl", 120)], compulsory_solos=["Carl", "Dora"])
    assert result["hands"][0]["deltas"] == {"Anna": 2, "Ben": 2, "Carl": -6, "Dora": 2}
    nxt = result["next"]
    assert (nxt["round"], nxt["round_games_left"], nxt["soloist"], nxt["queue"]) == ("penalty", 1, "Dora", ["bock"])
    result = run([solo("Carl", 120), solo("Dora", 150)], compulsory_solos=["Carl", "Dora"])
    nxt = result["next"]
    assert (nxt["round"], nxt["round_games_left"], nxt["dealer"], nxt["queue"]) == ("bock", 4, "Anna", [])


def test_six_players_rotation_and_a_solo_with_two_sitting_out():
    hands = [
        solo("Emil", 150),  # dealer Anna: Anna, Carl out. Emil +6, Ben/Dora/Fritz -2.
        plain(("Anna", "Carl")),  # dealer Ben: Ben, Dora out
        plain(("Anna", "Ben")),  # dealer Carl: Carl, Emil out
        plain(("Anna", "Ben")),  # dealer Dora: Dora, Fritz out
        plain(("Ben", "Carl")),  # dealer Emil: Emil, Anna out
    ]
    result = run(hands, players=SIX)
    h = result["hands"]
    assert h[0]["deltas"] == {"Anna": 0, "Ben": -2, "Carl": 0, "Dora": -2, "Emil": 6, "Fritz": -2}
    assert [x["active"] for x in h[1:]] == [
        ["Anna", "Carl", "Emil", "Fritz"],
        ["Anna", "Ben", "Dora", "Fritz"],
        ["Anna", "Ben", "Carl", "Emil"],
        ["Ben", "Carl", "Dora", "Fritz"],
    ]
    assert h[4]["deltas"] == {"Anna": 0, "Ben": 1, "Carl": 1, "Dora": -1, "Emil": 0, "Fritz": -1}
    nxt = result["next"]
    assert (nxt["dealer"], nxt["active"]) == ("Fritz", ["Anna", "Carl", "Dora", "Emil"])


def test_solo_owed_hochzeit_without_partner_and_outbid():
    # A Hochzeit without partner makes Ben a soloist; Carl's outbid announcement counts as played.
    hands = [game(["Ben"], 150, kind="hochzeit"), {**plain(), "solo_outbid": ["Carl"]}]
    assert run(hands)["next"]["solo_owed"] == ["Anna", "Dora"]
    # A revoke makes nobody a soloist.
    assert run([_revoke("Anna")])["next"]["solo_owed"] == FOUR


def test_revoke_uses_up_a_penalty_game():
    # Penalty solo of Carl (dealt by Ben); Dora revokes: 5, Dora -15. The penalty game is used up, the
    # host deals next; Carl was nobody's soloist and is still owed a solo.
    result = run([_revoke("Dora")], compulsory_solos=["Carl"])
    hand = result["hands"][0]
    assert (hand["round"], hand["dealer"]) == ("penalty", "Ben")
    assert hand["deltas"] == {"Anna": 5, "Ben": 5, "Carl": 5, "Dora": -15}
    nxt = result["next"]
    assert (nxt["round"], nxt["dealer"], nxt["soloist"]) == ("normal", "Anna", None)
    assert nxt["solo_owed"] == FOUR


def test_loser_points_with_a_negative_value_keep_plain_plus_minus():
    # Re (Anna, Ben) wins 185:55 in the club with nothing announced: gewonnen 1 + under 90 1 +
    # under 60 1 = 3. Kontra's special points: Doppelkopf 1, two Füchse 1 + 1, Doppel-Charly 2
    # = 5, netted against the winner: v = 3 - 5 = -2, so the signs flip: Re -2, Kontra +2.
    # Loser gets the points (a) holds (Kontra under 60, Re said nothing) and triggers the
    # Pflichtsolo round, but with v < 0 the losers already gain |v| by plain plus-minus.
    # (Our decision: crediting them +v = -2 as well would make everyone at the table lose.)
    specials = [
        {"kind": "doppelkopf", "party": "kontra"},
        {"kind": "fuchs", "party": "kontra"},
        {"kind": "fuchs", "party": "kontra"},
        {"kind": "karlchen", "party": "kontra", "doppel": True},
    ]
    hand = one([game(["Anna", "Ben"], 185, specials=specials)])
    assert hand["winner"] == "re" and hand["value"] == -2
    assert hand["loser_points"] is True and hand["triggers"] == ["loser_points"]
    assert hand["deltas"] == {"Anna": -2, "Ben": -2, "Carl": 2, "Dora": 2}
