"""Doppelkopf: winner and value of single games (doppelkopf.md "Who wins", "Game value",
"Signs", "Loser gets the points", "Revoke", "Ramsch"), figures worked out by hand."""

from __future__ import annotations

import pytest

from tests.scoring.test_doppelkopf_support import FOUR, calls, errors, game, items, one, run, solo

# --- DDV §7.1: who wins --------------------------------------------------------------------


def test_re_needs_121_without_announcements():
    # §7.1 rule 4: R >= 121. 121 eyes: Re wins 1 (gewonnen; Kontra has 119, not under 90).
    hand = one([game(["Anna", "Ben"], 121)])
    assert hand["winner"] == "re" and hand["value"] == 1
    assert hand["deltas"] == {"Anna": 1, "Ben": 1, "Carl": -1, "Dora": -1}


def test_120_to_120_without_announcements_goes_to_kontra_gegen_die_alten():
    # DDV: 120:120, nothing said: Kontra reaches its 120. gewonnen 1 + gegen die Alten 1 = 2.
    hand = one([game(["Anna", "Ben"], 120)], variant="ddv")
    assert hand["winner"] == "kontra" and hand["value"] == 2
    assert items(hand) == {"gewonnen": 1, "gegen die Alten": 1}
    assert hand["deltas"] == {"Anna": -2, "Ben": -2, "Carl": 2, "Dora": 2}
    assert hand["triggers"] == []  # ddv: no Bock


def test_120_to_120_with_re_announced():
    # Re said Re: Re needs 121, Kontra 120 -> Kontra wins: gewonnen 1 + Re angesagt 2 + gegen die Alten 1 = 4.
    hand = one([game(["Anna", "Ben"], 120, "re:re")], variant="ddv")
    assert hand["winner"] == "kontra" and hand["value"] == 4
    assert hand["deltas"]["Carl"] == 4 and hand["deltas"]["Anna"] == -4


def test_120_to_120_with_only_kontra_announced_goes_to_re():
    # §7.1 rule 3: kontra announced, re not -> R >= 120 wins. gewonnen 1 + Kontra angesagt 2 = 3.
    # club: Kontra lost (Bock) and 120:120 (Bock) -> two Bock rounds enqueued.
    result = run([game(["Anna", "Ben"], 120, "kontra:kontra")])
    hand = result["hands"][0]
    assert hand["winner"] == "re" and hand["value"] == 3
    assert hand["triggers"] == ["kontra_lost", "split_120"]
    assert result["next"]["round"] == "bock" and result["next"]["queue"] == ["bock"]


def test_own_absage_needs_151():
    # Re said keine 90: R >= 151. 150 eyes: Kontra wins against keine 90 with 90.
    # club: gewonnen 1 + Re angesagt 2 (implied) + 120 gegen keine 90? 90 < 120: no + gegen die Alten 1 = 4.
    hand = one([game(["Anna", "Ben"], 150, "re:keine_90")])
    assert hand["winner"] == "kontra" and hand["value"] == 4
    # 151: Re wins: gewonnen 1 + Re angesagt 2 + keine 90 angesagt 1 = 4 (Kontra 89: keine 90 +1) = 5.
    hand = one([game(["Anna", "Ben"], 151, "re:keine_90")])
    assert hand["winner"] == "re" and hand["value"] == 5


def test_schwarz_absage_needs_every_trick():
    # Re said schwarz and took 240 eyes but Kontra took a trick (0 eyes): Re misses its target;
    # Kontra wins against schwarz by taking a trick. Kontra's eyes 0: no "30 gegen schwarz".
    # club: gewonnen 1 + Re angesagt 2 + gegen die Alten 1 = 4.
    hand = one([game(["Anna", "Ben"], 240, "re:schwarz", re_tricks=11)])
    assert hand["winner"] == "kontra" and hand["value"] == 4


def test_kontra_absage_lets_re_win_with_90():
    # Kontra said keine 90 (implies kontra): Re wins with R >= 90. 95 eyes.
    # club: gewonnen 1 + Kontra angesagt 2 = 3 (95 < 120: no point against keine 90). Kontra lost: Bock.
    hand = one([game(["Anna", "Ben"], 95, "kontra:keine_90")])
    assert hand["winner"] == "re" and hand["value"] == 3
    assert hand["triggers"] == ["kontra_lost"]
    # ddv: the loser's absage counts too: + keine 90 angesagt (Kontra) 1 = 4.
    hand = one([game(["Anna", "Ben"], 95, "kontra:keine_90")], variant="ddv")
    assert hand["value"] == 4 and hand["triggers"] == []


# --- the DDV worked examples ---------------------------------------------------------------


def test_baum24_example_1_kontra_announced_and_won_with_160():
    # baum24.net "Ermittlung des Spielwerts", Bsp. 1: Kontra said Kontra, won with 160 eyes: 5 points
    # (gewonnen 1, Re under 90 (80) 1, Kontra angesagt 2, gegen die Alten 1).
    hand = one([game(["Anna", "Ben"], 80, "kontra:kontra")], variant="ddv")
    assert hand["winner"] == "kontra" and hand["value"] == 5
    assert items(hand) == {"gewonnen": 1, "keine 90": 1, "Kontra angesagt": 2, "gegen die Alten": 1}


def test_baum24_example_2_re_said_keine_60_and_got_130():
    # baum24 Bsp. 2: Re said Re, keine 90, keine 60 and got only 130; Kontra (110 >= 60) wins: 7 points
    # (gewonnen 1, Re angesagt 2, keine 90 and keine 60 angesagt 1 + 1, 90 gegen keine 60 1,
    # gegen die Alten 1; 110 < 120: nothing against keine 90).
    hands = [game(["Anna", "Ben"], 130, "re:re", "re:keine_90", "re:keine_60")]
    hand = one(hands, variant="ddv")
    assert hand["winner"] == "kontra" and hand["value"] == 7
    assert hand["deltas"] == {"Anna": -7, "Ben": -7, "Carl": 7, "Dora": 7}
    # club (absage_points winner_only): the two absage points are not the winner's: 5.
    assert one(hands)["value"] == 5


def test_15_point_all_in_game():
    # Re: re, keine 90, keine 60, keine 30, schwarz; Kontra: kontra. Re 80, Kontra 160.
    # Re misses schwarz; Kontra wins against schwarz (it took a trick). ddv:
    # gewonnen 1 + keine 90 (Re 80) 1 + Re 2 + Kontra 2 + Re's absagen 4
    # + 120/90/60/30 gegen keine 90/60/30/schwarz 4 + gegen die Alten 1 = 15.
    hands = [
        game(["Anna", "Ben"], 80, "re:re", "re:keine_90", "kontra:kontra", "re:keine_60", "re:keine_30", "re:schwarz")
    ]
    hand = one(hands, variant="ddv")
    assert hand["winner"] == "kontra" and hand["value"] == 15
    assert sum(i["points"] for i in hand["breakdown"]) == 15
    # club: without Re's four absage points: 11; Re - Kontra - Re called: Bock.
    hand = one(hands)
    assert hand["value"] == 11 and hand["triggers"] == ["re_kontra_re"]


def test_a_party_that_said_keine_60_loses_to_125_for_two_points():
    # Against absage: 120 gegen keine 90 1 + 90 gegen keine 60 1. Re said keine 60, has 115.
    # club: gewonnen 1 + Re angesagt 2 + 2 + gegen die Alten 1 = 6; ddv + keine 90, keine 60 angesagt = 8.
    hands = [game(["Anna", "Ben"], 115, "re:keine_60")]
    hand = one(hands)
    assert hand["value"] == 6
    assert items(hand)["120 gegen keine 90"] == 1 and items(hand)["90 gegen keine 60"] == 1
    assert one(hands, variant="ddv")["value"] == 8


def test_loser_under_90_60_30_and_schwarz():
    # Re 240 with every trick: gewonnen 1 + keine 90, 60, 30, schwarz 4 = 5 (ddv, nothing announced).
    hand = one([game(["Anna", "Ben"], 240)], variant="ddv")
    assert hand["value"] == 5


# --- no winner ----------------------------------------------------------------------------


def test_no_winner_the_party_ahead_gets_the_difference():
    # Re keine 90 (needs 151), Kontra keine 90 (needs 151); Re 130, Kontra 110: nobody wins.
    # Only item 5: Re reached 120 against Kontra's keine 90 (1); Kontra 110 < 120 (0). Re +1.
    hand = one([game(["Anna", "Ben"], 130, "re:keine_90", "kontra:keine_90")])
    assert hand["winner"] is None and hand["value"] == 1
    assert hand["deltas"] == {"Anna": 1, "Ben": 1, "Carl": -1, "Dora": -1}
    assert hand["triggers"] == [] and hand["loser_points"] is False


def test_no_winner_counts_item_2_for_each_party_the_spec_example():
    # doppelkopf.md, No winner (DDV TSR 7.1.4: only 7.2.2 (a), (e), (f) count): both said keine 60,
    # 170:70. Re needs 181, Kontra 181: nobody wins. Re: Kontra under 90 (item 2) 1 + 120 against
    # keine 90 and 90 against keine 60 (item 5) 2 = 3; Kontra (70): Re is not under 90, 70 < 90
    # against keine 60: 0. Re +3 each, Kontra -3 each, in both presets.
    hands = [game(["Anna", "Ben"], 170, "re:keine_60", "kontra:keine_60")]
    for variant in ("club", "ddv"):
        hand = one(hands, variant=variant)
        assert hand["winner"] is None and hand["value"] == 3
        assert hand["deltas"] == {"Anna": 3, "Ben": 3, "Carl": -3, "Dora": -3}
        assert [i["item"] for i in hand["breakdown"]] == [
            "keine 90 (Re)",
            "120 gegen keine 90 (Re)",
            "90 gegen keine 60 (Re)",
        ]
    # Both parties score, netted: Re keine 30 (needs 211), Kontra keine 30 (needs 211), 80:160.
    # Kontra: Re under 90 (item 2) 1 + 120 against keine 90, 90 against keine 60, 60 against
    # keine 30 (item 5) 3 = 4. Re: Kontra is not under 90: 0; 80 against keine 30: 80 >= 60: 1.
    # Kontra ahead by 3.
    hand = one([game(["Anna", "Ben"], 80, "re:keine_30", "kontra:keine_30")])
    assert hand["winner"] is None and hand["value"] == 3
    assert hand["deltas"] == {"Anna": -3, "Ben": -3, "Carl": 3, "Dora": 3}


def test_no_winner_special_points_count_and_can_put_kontra_ahead():
    # As above, plus two Doppelkopf for Kontra (110 eyes: at most 2): Re 1, Kontra 2 -> Kontra +1.
    specials = [{"kind": "doppelkopf", "party": "kontra"}] * 2
    hand = one([game(["Anna", "Ben"], 130, "re:keine_90", "kontra:keine_90", specials=specials)])
    assert hand["winner"] is None and hand["value"] == 1
    assert hand["deltas"] == {"Anna": -1, "Ben": -1, "Carl": 1, "Dora": 1}


def test_no_winner_in_a_solo_is_tripled_for_the_soloist():
    # Trump solo, soloist said keine 60 (needs 181), Kontra said keine 90 (needs 151); soloist 150.
    # Soloist reached 120 against keine 90: 1; Kontra 90 >= 90 against keine 60 and < 120: 1. Even: 0.
    hand = one([solo("Anna", 150, "re:keine_60", "kontra:keine_90")])
    assert hand["winner"] is None and hand["value"] == 0
    # Value 0: nothing moves, nobody is credited anything (no winner: no loser-gets-points).
    assert hand["deltas"] == dict.fromkeys(FOUR, 0)
    assert hand["triggers"] == [] and hand["loser_points"] is False
    # Soloist 160: 120 against keine 90: 1, and (DDV TSR 7.1.4, item 2) Kontra under 90: 1 = 2;
    # Kontra 80: 0 -> soloist +6, opponents -2.
    hand = one([solo("Anna", 160, "re:keine_60", "kontra:keine_90")])
    assert hand["value"] == 2 and hand["deltas"] == {"Anna": 6, "Ben": -2, "Carl": -2, "Dora": -2}
    assert hand["winner"] is None
    # Soloist 110 (misses 181), Kontra 130 (misses 151): no winner. Soloist 110 < 120 against
    # keine 90: 0; Kontra 130: 90 against keine 60 and 120 against keine 90: 2. Kontra ahead by 2:
    # the soloist pays three times, -6; each opponent +2.
    hand = one([solo("Anna", 110, "re:keine_60", "kontra:keine_90")])
    assert hand["winner"] is None and hand["value"] == 2
    assert hand["deltas"] == {"Anna": -6, "Ben": 2, "Carl": 2, "Dora": 2}


# --- soli ---------------------------------------------------------------------------------


def test_solo_point_and_tripling():
    # club: trump solo won with 150: gewonnen 1 + Solopunkt 1 = 2: soloist +6, each opponent -2.
    hand = one([solo("Carl", 150)])
    assert hand["value"] == 2 and hand["soloist"] == "Carl"
    assert hand["deltas"] == {"Anna": -2, "Ben": -2, "Carl": 6, "Dora": -2}
    # ddv: no solo point: 1 -> +3 / -1.
    hand = one([solo("Carl", 150)], variant="ddv")
    assert hand["deltas"] == {"Anna": -1, "Ben": -1, "Carl": 3, "Dora": -1}


def test_lost_solo_has_no_gegen_die_alten():
    # Damensolo with 100: Kontra wins: gewonnen 1 + Solopunkt 1 = 2 (no gegen die Alten): soloist -6.
    hand = one([solo("Anna", 100, solo="damen")])
    assert hand["winner"] == "kontra" and hand["value"] == 2
    assert hand["deltas"] == {"Anna": -6, "Ben": 2, "Carl": 2, "Dora": 2}


def test_gegen_die_alten_in_a_stilles_solo_only_in_the_club():
    # Stille Hochzeit lost with 110: club: gewonnen 1 + gegen die Alten 1 + Solopunkt 1 = 3 (soloist -9);
    # ddv: 1 (soloist -3).
    hand = one([solo("Anna", 110, solo="stilles")])
    assert hand["value"] == 3 and hand["deltas"]["Anna"] == -9
    hand = one([solo("Anna", 110, solo="stilles")], variant="ddv")
    assert hand["value"] == 1 and hand["deltas"]["Anna"] == -3
    hand = one([solo("Anna", 110, solo="stilles")], rules={"gegen_die_alten_in_stilles": False})
    assert hand["value"] == 2


def test_hochzeit_without_partner_is_a_trump_solo():
    # Hochzeit, no partner by the 3rd trick: a trump solo. Lost with 100: gewonnen 1 + Solopunkt 1 = 2,
    # no gegen die Alten; soloist -6. The club's Doppelkopf point counts (as in a trump solo).
    specials = [{"kind": "doppelkopf", "party": "kontra"}]
    hand = one([game(["Ben"], 100, kind="hochzeit", specials=specials)])
    assert hand["soloist"] == "Ben" and hand["value"] == 3
    assert hand["deltas"] == {"Anna": 3, "Ben": -9, "Carl": 3, "Dora": 3}


def test_hochzeit_with_partner_has_gegen_die_alten_trumpfabgabe_not():
    # Hochzeit with partner lost with 110: gewonnen 1 + gegen die Alten 1 = 2 (item 6); plain
    # plus-minus, no tripling: Re (Anna, Carl) -2, Kontra (Ben, Dora) +2.
    hand = one([game(["Anna", "Carl"], 110, kind="hochzeit")])
    assert hand["winner"] == "kontra" and hand["value"] == 2 and hand["soloist"] is None
    assert hand["deltas"] == {"Anna": -2, "Ben": 2, "Carl": -2, "Dora": 2}
    # Trumpfabgabe lost with 110: gewonnen 1 only ("Not in trumpfabgabe"): -1 / +1.
    hand = one([game(["Anna", "Carl"], 110, kind="trumpfabgabe")])
    assert hand["winner"] == "kontra" and hand["value"] == 1
    assert hand["deltas"] == {"Anna": -1, "Ben": 1, "Carl": -1, "Dora": 1}


# --- special points -----------------------------------------------------------------------


def test_special_points_are_netted_and_can_flip_the_signs():
    # Re wins with 130 (1); Re caught a Fuchs (+1); Kontra 2 Doppelkopf and a Karlchen (3):
    # v = 1 + 1 - 3 = -1: the winners Re get -1, Kontra +1; winner stays Re.
    specials = [
        {"kind": "fuchs", "party": "re"},
        {"kind": "doppelkopf", "party": "kontra"},
        {"kind": "doppelkopf", "party": "kontra"},
        {"kind": "karlchen", "party": "kontra"},
    ]
    hand = one([game(["Anna", "Ben"], 130, specials=specials)])
    assert hand["winner"] == "re" and hand["value"] == -1
    assert hand["deltas"] == {"Anna": -1, "Ben": -1, "Carl": 1, "Dora": 1}
    assert items(hand) == {
        "gewonnen": 1,
        "Fuchs gefangen (Re)": 1,
        "Doppelkopf (Kontra)": -2,
        "Karlchen (Kontra)": -1,
    }


def test_fuchs_in_the_last_trick_counts_2_in_the_club_1_in_ddv():
    specials = [{"kind": "fuchs", "party": "re", "last_trick": True}]
    assert one([game(["Anna", "Ben"], 130, specials=specials)])["value"] == 3  # 1 + 2
    assert one([game(["Anna", "Ben"], 130, specials=specials)], variant="ddv")["value"] == 2  # 1 + 1
    assert one([game(["Anna", "Ben"], 130, specials=specials)], rules={"fuchs_last_trick_points": 1})["value"] == 2


def test_doppel_charly_counts_2_in_the_club_and_is_ignored_in_ddv():
    specials = [{"kind": "karlchen", "party": "kontra", "doppel": True}]
    # Re wins 1, Kontra's Doppel-Charly 2: v = -1 (club); ddv: Karlchen 1: v = 0.
    assert one([game(["Anna", "Ben"], 130, specials=specials)])["value"] == -1
    assert one([game(["Anna", "Ben"], 130, specials=specials)], variant="ddv")["value"] == 0


def test_where_special_points_count():
    dk = [{"kind": "doppelkopf", "party": "re"}]
    fuchs = [{"kind": "fuchs", "party": "re"}]
    # club: the Doppelkopf counts in a trump solo: 1 + Solopunkt 1 + 1 = 3 -> soloist +9.
    assert one([solo("Anna", 150, specials=dk)])["deltas"]["Anna"] == 9
    # ... but not a Fuchs, and nothing in a Damensolo; ddv: nothing in any solo.
    assert errors([solo("Anna", 150, specials=fuchs)]) == [(1, "specials")]
    assert errors([solo("Anna", 150, solo="damen", specials=dk)]) == [(1, "specials")]
    assert errors([solo("Anna", 150, specials=dk)], variant="ddv") == [(1, "specials")]
    # club: all of them in a stilles solo: 1 + 1 (Solopunkt) + 1 (Fuchs) = 3 -> +9.
    assert one([solo("Anna", 150, solo="stilles", specials=fuchs)])["deltas"]["Anna"] == 9
    assert errors([solo("Anna", 150, solo="stilles", specials=fuchs)], variant="ddv") == [(1, "specials")]
    # An option change: nothing counts anywhere.
    assert errors([game(["Anna", "Ben"], 130, specials=dk)], rules={"special_points_in": []}) == [(1, "specials")]


# --- loser gets the points (club) -----------------------------------------------------------


def test_loser_gets_points_a_under_60_without_announcement():
    # Re 185 / Kontra 55, nothing said: 1 + keine 90 + keine 60 = 3; the signs are swapped (the
    # sheet stays zero-sum): the losers (Kontra) +3 each, the winners (Re) -3 each.
    result = run([game(["Anna", "Ben"], 185)])
    hand = result["hands"][0]
    assert hand["value"] == 3 and hand["loser_points"] is True and hand["winner"] == "re"
    assert hand["deltas"] == {"Anna": -3, "Ben": -3, "Carl": 3, "Dora": 3}
    assert hand["triggers"] == ["loser_points"]
    assert result["next"]["round"] == "pflichtsolo" and result["next"]["soloist"] == "Carl"
    # ddv: plain plus-minus.
    assert one([game(["Anna", "Ben"], 185)], variant="ddv")["deltas"]["Carl"] == -3


def test_loser_gets_points_b_under_30_when_the_winner_only_said_re():
    # Re said Re, Kontra 25: 1 + 3 (keine 90/60/30) + 2 = 6, swapped: Kontra +6, Re -6; 55: no.
    hand = one([game(["Anna", "Ben"], 215, "re:re")])
    assert hand["value"] == 6 and hand["deltas"] == {"Anna": -6, "Ben": -6, "Carl": 6, "Dora": 6}
    # Kontra 55 with Re said: neither (a) (an announcement) nor (b) (55 >= 30): plain plus-minus.
    # v = gewonnen 1 + under 90 1 + under 60 1 + Re 2 = 5: Re +5, Kontra -5, no trigger.
    hand = one([game(["Anna", "Ben"], 185, "re:re")])
    assert hand["loser_points"] is False and hand["value"] == 5
    assert hand["deltas"] == {"Anna": 5, "Ben": 5, "Carl": -5, "Dora": -5}
    assert hand["triggers"] == []


def test_loser_gets_points_c_schwarz_against_keine_90():
    # Re said keine 90, Kontra took no trick: 1 + 4 + Re 2 + keine 90 angesagt 1 = 8, swapped:
    # Kontra +8, Re -8.
    # Triggers: schwarz (Bock) first, then the Pflichtsolo round.
    result = run([game(["Anna", "Ben"], 240, "re:keine_90")])
    hand = result["hands"][0]
    assert hand["value"] == 8 and hand["deltas"] == {"Anna": -8, "Ben": -8, "Carl": 8, "Dora": 8}
    assert hand["triggers"] == ["schwarz", "loser_points"]
    assert result["next"]["round"] == "bock" and result["next"]["queue"] == ["pflichtsolo"]
    # keine 60 said: no loser points.
    assert one([game(["Anna", "Ben"], 240, "re:keine_60")])["loser_points"] is False


def test_loser_gets_points_when_the_soloist_lost():
    # Kontra wins against a trump solo with 190 (soloist 50), nothing said:
    # 1 + keine 90 + keine 60 + Solopunkt = 4; swapped, soloist x3: the soloist +12, opponents -4.
    hand = one([solo("Dora", 50)])
    assert hand["winner"] == "kontra" and hand["loser_points"] is True
    assert hand["deltas"] == {"Anna": -4, "Ben": -4, "Carl": -4, "Dora": 12}


# --- revoke ---------------------------------------------------------------------------------


def test_revoke_counts_as_a_solo_lost_schwarz():
    # 5 (gewonnen, under 90, 60, 30, schwarz), no solo point: revoker -15, others +5.
    hand = one([{"kind": "revoke", "revoke_by": "Ben"}])
    assert hand["value"] == 5 and hand["winner"] is None
    assert hand["deltas"] == {"Anna": 5, "Ben": -15, "Carl": 5, "Dora": 5}
    # With Re, Kontra and keine 90 already said: 5 + 2 + 2 + 1 = 10.
    revoke = {"kind": "revoke", "revoke_by": "Ben", "announcements": calls("re:re", "kontra:kontra", "re:keine_90")}
    assert one([revoke])["deltas"] == {"Anna": 10, "Ben": -30, "Carl": 10, "Dora": 10}
    # Only an absage: Re keine 90 implies Re's "re" (counted as if said first):
    # v = 5 + Re 2 + keine 90 level 1 = 8: revoker -24, others +8.
    revoke = {"kind": "revoke", "revoke_by": "Ben", "announcements": calls("re:keine_90")}
    hand = one([revoke])
    assert hand["value"] == 8 and hand["winner"] is None
    assert hand["deltas"] == {"Anna": 8, "Ben": -24, "Carl": 8, "Dora": 8}
    # Kontra's keine 60 alone: implied kontra 2 + two absage levels (keine 90, keine 60) 2: v = 9.
    revoke = {"kind": "revoke", "revoke_by": "Dora", "announcements": calls("kontra:keine_60")}
    assert one([revoke])["deltas"] == {"Anna": 9, "Ben": 9, "Carl": 9, "Dora": -27}
    # revoke_multiplier 1: the revoker pays the value once.
    assert one([{"kind": "revoke", "revoke_by": "Ben"}], rules={"revoke_multiplier": 1})["deltas"]["Ben"] == -5


# --- Ramsch ---------------------------------------------------------------------------------


def _ramsch(eyes, tricks):
    return {
        "kind": "ramsch",
        "eyes": dict(zip(FOUR, eyes, strict=True)),
        "tricks": dict(zip(FOUR, tricks, strict=True)),
    }


def _in_ramsch(hand):
    # 120:120 in a Bock game (Bock round first, after a split_120) enqueues a Ramsch round.
    # Game 1: 120:120 -> Bock x1; games 2-5 Bock, game 2 again 120:120 -> Ramsch; games 6-9 Ramsch.
    hands = [game(["Anna", "Ben"], 120), game(["Anna", "Ben"], 120)] + [game(["Anna", "Ben"], 130)] * 3 + [hand]
    return run(hands)["hands"][-1]


def test_ramsch_loser_pays_three_times_p_jungfrau_doubles():
    # Anna 100 eyes loses: P = 100 // 30 = 3; Dora took no trick (Jungfrau): P = 6. Anna -18, others +6.
    hand = _in_ramsch(_ramsch([100, 80, 60, 0], [5, 4, 3, 0]))
    assert hand["round"] == "ramsch" and hand["value"] == 6 and hand["winner"] is None
    assert hand["deltas"] == {"Anna": -18, "Ben": 6, "Carl": 6, "Dora": 6}
    assert items(hand) == {"100 Augen": 3, "Jungfrau (Dora)": 3}


def test_ramsch_tied_losers_each_pay_every_non_loser():
    # Anna and Ben 90 each: P = 3, Dora Jungfrau -> 6; k = 2: losers -6*2, non-losers +6*2.
    hand = _in_ramsch(_ramsch([90, 90, 60, 0], [4, 4, 4, 0]))
    assert hand["deltas"] == {"Anna": -12, "Ben": -12, "Carl": 12, "Dora": 12}
    # Three tied with 70: P = 2; losers -2*1, the fourth +2*3.
    hand = _in_ramsch(_ramsch([70, 70, 70, 30], [3, 3, 3, 3]))
    assert hand["deltas"] == {"Anna": -2, "Ben": -2, "Carl": -2, "Dora": 6}


def test_durchmarsch_wins_8_after_solo_scoring_and_brings_bock():
    hand = _in_ramsch(_ramsch([240, 0, 0, 0], [12, 0, 0, 0]))
    assert hand["value"] == 8 and hand["deltas"] == {"Anna": 24, "Ben": -8, "Carl": -8, "Dora": -8}
    assert hand["triggers"] == ["durchmarsch"]


def test_ramsch_hand_outside_a_ramsch_round_is_an_error_on_kind():
    assert errors([_ramsch([100, 80, 60, 0], [5, 4, 3, 0])]) == [(1, "kind")]
    assert errors([_ramsch([100, 80, 60, 0], [5, 4, 3, 0])], variant="ddv") == [(1, "kind")]


@pytest.mark.parametrize(
    "eyes, tricks, expected",
    [
        # eyes sum to 250 (and Dora has eyes without a trick): only "eyes" is wrong
        ([100, 80, 60, 10], [5, 4, 3, 0], [(6, "eyes")]),
        # tricks sum to 11: only "tricks" is wrong
        ([100, 80, 60, 0], [5, 4, 2, 0], [(6, "tricks")]),
        # eyes sum to 241: only "eyes" is wrong
        ([100, 80, 61, 0], [5, 4, 3, 0], [(6, "eyes")]),
        # eyes 230 and tricks 13: both are reported
        ([100, 80, 50, 0], [5, 4, 4, 0], [(6, "eyes"), (6, "tricks")]),
    ],
)
def test_ramsch_eyes_and_tricks_must_add_up(eyes, tricks, expected):
    # doppelkopf.md "What one game records": ramsch eyes sum to 240, tricks to 12.
    hands = [game(["Anna", "Ben"], 120), game(["Anna", "Ben"], 120)] + [game(["Anna", "Ben"], 130)] * 3
    assert errors(hands + [_ramsch(eyes, tricks)]) == expected
