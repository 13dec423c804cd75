"""Doppelkopf: the deal, sitting out, special rounds, penalty soli and what comes next
(doppelkopf.md "Table, dealer, who sits out", "Special rounds", "Penalty soli", "Ramsch")."""

from __future__ import annotations

import dataclasses

from scoring.doppelkopf import replay
from scoring.sitting import parse_request
from tests.scoring.test_doppelkopf_support import FIVE, FOUR, SIX, calls, errors, game, one, plain, run, solo


def test_an_empty_meeting():
    result = run([], players=FIVE)
    assert result["totals"] == dict.fromkeys(FIVE, 0)
    assert result["next"] == {
        "dealer": "Anna",
        "active": ["Ben", "Carl", "Dora", "Emil"],
        "round": "normal",
        "round_games_left": 0,
        "multiplier": 1,
        "bock_rounds": [],
        "queue": [],
        "soloist": None,
        "solo_owed": FIVE,
        "host_round_games_left": 5,
        "queue_after_meeting": [],
    }


def test_with_five_the_dealer_sits_out_and_gets_0():
    result = run([game(["Ben", "Carl"], 130)], players=FIVE)
    hand = result["hands"][0]
    assert hand["dealer"] == "Anna" and hand["active"] == ["Ben", "Carl", "Dora", "Emil"]
    assert hand["deltas"] == {"Anna": 0, "Ben": 1, "Carl": 1, "Dora": -1, "Emil": -1}
    assert result["next"]["dealer"] == "Ben" and result["next"]["active"] == ["Anna", "Carl", "Dora", "Emil"]
    assert errors([game(["Anna", "Carl"], 130)], players=FIVE) == [(1, "re")]


def test_with_six_the_dealer_and_the_second_after_him_sit_out():
    # doppelkopf.md "Table, dealer, who sits out": with 6 the dealer and dealer+2 sit out (0 points);
    # active dealer+1, +3, +4, +5. One full round, so the dealer wraps past Fritz.
    hands = [
        game(["Ben", "Dora"], 130),  # dealer Anna: Carl out
        game(["Carl", "Emil"], 100),  # dealer Ben: Dora out
        game(["Anna", "Fritz"], 130),  # dealer Carl: Emil out
        game(["Ben", "Emil"], 130),  # dealer Dora: Fritz out
        game(["Fritz", "Carl"], 130),  # dealer Emil: Anna (Emil+2, wrapped) out
        game(["Anna", "Emil"], 130),  # dealer Fritz: Ben (Fritz+2, wrapped) out
    ]
    result = run(hands, players=SIX)
    h = result["hands"]
    assert [x["dealer"] for x in h] == SIX
    assert [x["active"] for x in h] == [
        ["Ben", "Dora", "Emil", "Fritz"],
        ["Anna", "Carl", "Emil", "Fritz"],
        ["Anna", "Ben", "Dora", "Fritz"],
        ["Anna", "Ben", "Carl", "Emil"],
        ["Ben", "Carl", "Dora", "Fritz"],
        ["Anna", "Carl", "Dora", "Emil"],
    ]
    # Re 130 wins, nothing said: gewonnen 1. Game 2: Re 100, Kontra (Anna, Fritz) 140 wins:
    # gewonnen 1 + gegen die Alten 1 = 2. The two sitting out get 0 every time.
    assert [x["deltas"] for x in h] == [
        {"Anna": 0, "Ben": 1, "Carl": 0, "Dora": 1, "Emil": -1, "Fritz": -1},
        {"Anna": 2, "Ben": 0, "Carl": -2, "Dora": 0, "Emil": -2, "Fritz": 2},
        {"Anna": 1, "Ben": -1, "Carl": 0, "Dora": -1, "Emil": 0, "Fritz": 1},
        {"Anna": -1, "Ben": 1, "Carl": -1, "Dora": 0, "Emil": 1, "Fritz": 0},
        {"Anna": 0, "Ben": -1, "Carl": 1, "Dora": -1, "Emil": 0, "Fritz": 1},
        {"Anna": 1, "Ben": 0, "Carl": -1, "Dora": -1, "Emil": 1, "Fritz": 0},
    ]
    # After the round Anna deals again: Carl sits out.
    assert result["next"]["dealer"] == "Anna"
    assert result["next"]["active"] == ["Ben", "Dora", "Emil", "Fritz"]
    # Next after game 1: dealer Ben, Dora sits out.
    assert run(hands[:1], players=SIX)["next"]["active"] == ["Anna", "Carl", "Emil", "Fritz"]
    assert errors([game(["Ben", "Carl"], 130)], players=SIX) == [(1, "re")]


def test_a_bock_round_doubles_every_point_for_as_many_games_as_players():
    # 120:120 (split_120): the next 4 games are Bock; a game worth 1 moves 2.
    hands = [game(["Anna", "Ben"], 120)] + [plain()] * 5
    result = run(hands)
    assert [h["round"] for h in result["hands"]] == ["normal", "bock", "bock", "bock", "bock", "normal"]
    assert [h["multiplier"] for h in result["hands"]] == [1, 2, 2, 2, 2, 1]
    assert result["hands"][1]["deltas"] == {"Anna": 2, "Ben": 2, "Carl": -2, "Dora": -2}
    assert result["hands"][1]["value"] == 1
    partial = run(hands[:2])["next"]
    assert partial["round"] == "bock" and partial["round_games_left"] == 3
    assert partial["queue_after_meeting"] == ["bock"]


def test_each_single_trigger_enqueues_a_round():
    # Re: re, Kontra: kontra, Re: keine 90; Kontra schwarz. Re wins: kontra_lost, schwarz, re_kontra_re
    # and (c) the losers get the points: 3 Bock rounds and a Pflichtsolo round.
    # Value: 1 + 4 (keine 90/60/30, schwarz) + Re 2 + Kontra 2 + keine 90 angesagt 1 = 10, swapped
    # (the losers get the points): Kontra +10, Re -10.
    result = run([game(["Anna", "Ben"], 240, "re:re", "kontra:kontra", "re:keine_90")])
    hand = result["hands"][0]
    assert hand["triggers"] == ["kontra_lost", "schwarz", "re_kontra_re", "loser_points"]
    assert hand["deltas"] == {"Anna": -10, "Ben": -10, "Carl": 10, "Dora": 10}
    nxt = result["next"]
    assert (nxt["round"], nxt["round_games_left"], nxt["queue"]) == ("bock", 4, ["bock", "bock", "pflichtsolo"])


def test_fuchs_wins_the_last_trick_with_a_doppelkopf():
    hand = {**plain(), "specials": [{"kind": "doppelkopf", "party": "re"}], "fuchs_wins_last_doppelkopf": True}
    assert one([hand])["triggers"] == ["fuchs_last_doppelkopf"]
    # ddv: no triggers at all (the flag is accepted, special points count there).
    result = run([hand], variant="ddv")
    assert result["hands"][0]["triggers"] == [] and result["next"]["round"] == "normal"


def test_bock_trigger_in_a_bock_game():
    hands = [game(["Anna", "Ben"], 120), game(["Anna", "Ben"], 120)]
    assert run(hands)["next"]["queue"] == ["ramsch"]  # club: Ramsch
    assert run(hands, rules={"bock_in_bock": "bock"})["next"]["queue"] == ["bock"]
    assert run(hands, rules={"ramsch": False})["next"]["queue"] == ["bock"]
    result = run(hands, rules={"bock_in_bock": None})
    assert result["hands"][1]["triggers"] == ["split_120"] and result["next"]["queue"] == []


def test_bock_triggers_option_selects_the_triggers():
    result = run([game(["Anna", "Ben"], 120, "kontra:kontra")], rules={"bock_triggers": ["kontra_lost"]})
    assert result["hands"][0]["triggers"] == ["kontra_lost"]
    assert result["next"]["queue"] == []


def _to_ramsch():
    # Game 1 120:120 -> Bock; game 2 (Bock) 120:120 -> Ramsch; games 3-5 Bock; Ramsch from game 6.
    return [game(["Anna", "Ben"], 120), game(["Anna", "Ben"], 120)] + [plain()] * 3


def test_a_trump_solo_suspends_a_ramsch_game():
    # Game 6 (dealer Ben) is a trump solo: scored as a normal solo (multiplier 1), round ramsch,
    # Ben deals again and the Ramsch round still has 4 games: games 7-10, then normal.
    ramsch = {
        "kind": "ramsch",
        "eyes": {"Anna": 100, "Ben": 80, "Carl": 60, "Dora": 0},
        "tricks": {"Anna": 5, "Ben": 4, "Carl": 3, "Dora": 0},
    }
    hands = _to_ramsch() + [solo("Carl", 150)] + [ramsch] * 4 + [plain()]
    result = run(hands)
    h = result["hands"]
    assert h[5]["round"] == "ramsch" and h[5]["multiplier"] == 1
    assert h[5]["deltas"] == {"Anna": -2, "Ben": -2, "Carl": 6, "Dora": -2}
    assert [x["dealer"] for x in h[5:]] == ["Ben", "Ben", "Carl", "Dora", "Anna", "Ben"]
    assert [x["round"] for x in h[5:]] == ["ramsch"] * 5 + ["normal"]
    partial = run(hands[:6])["next"]
    assert (partial["dealer"], partial["round"], partial["round_games_left"]) == ("Ben", "ramsch", 4)
    # Only a trump solo may replace a Ramsch game; no normal game, no other solo.
    assert errors(_to_ramsch() + [solo("Carl", 150, solo="damen")]) == [(6, "solo")]
    assert errors(_to_ramsch() + [plain()]) == [(6, "kind")]


def test_pflichtsolo_round_the_player_after_the_dealer_must_play_solo():
    # Game 1 (dealer Anna): the losers got the points -> games 2-5 Pflichtsolo, dealt by Ben, Carl,
    # Dora, Anna; soloists Carl, Dora, Anna, Ben.
    hands = [game(["Anna", "Ben"], 185)] + [solo(p, 150) for p in ("Carl", "Dora", "Anna", "Ben")] + [plain()]
    result = run(hands)
    assert [h["round"] for h in result["hands"]] == ["normal"] + ["pflichtsolo"] * 4 + ["normal"]
    assert [h["soloist"] for h in result["hands"][1:5]] == ["Carl", "Dora", "Anna", "Ben"]
    # Pflichtsolo games are no voluntary soli: four in a row make no solo streak.
    assert all(h["triggers"] == [] for h in result["hands"][1:])
    # "Every other game, compulsory soli included, resets the streak" (Special rounds): 3 voluntary
    # soli (the 3rd won 185:55, nothing said: the losers get the points), the Pflichtsolo round, then
    # one more voluntary solo. Reset: the streak is 1, no trigger. (Skipping the compulsory soli
    # would make it the 4th in a row: solo_streak; counting them would fire at game 4.)
    streak = [solo("Carl", 150), solo("Dora", 150), solo("Dora", 185)]
    streak += [solo(p, 150) for p in ("Anna", "Ben", "Carl", "Dora")] + [solo("Ben", 150)]
    result = run(streak)
    assert [h["round"] for h in result["hands"]] == ["normal"] * 3 + ["pflichtsolo"] * 4 + ["normal"]
    assert [h["triggers"] for h in result["hands"]] == [[], [], ["loser_points"]] + [[]] * 5
    assert run(hands[:2])["next"]["soloist"] == "Dora"
    assert errors([hands[0], solo("Anna", 150)]) == [(2, "re")]
    assert errors([hands[0], plain()]) == [(2, "kind")]
    assert errors([hands[0], game(["Carl"], 150, kind="hochzeit")]) == [(2, "kind")]
    # A revoke uses up the game.
    assert run([hands[0], {"kind": "revoke", "revoke_by": "Anna"}])["next"]["soloist"] == "Dora"
    # Without Pflichtsolo rounds the losers still get the points, no round follows.
    result = run(hands[:1] + [plain()], rules={"pflichtsolo_rounds": False})
    assert result["hands"][0]["loser_points"] is True and result["hands"][0]["triggers"] == []
    assert result["hands"][1]["round"] == "normal"


def test_solo_streak_as_many_voluntary_soli_in_a_row_as_players():
    # 4 players: the 4th voluntary solo in a row triggers Bock; a normal game resets the count.
    soli = [solo(p, 150) for p in FOUR]
    result = run(soli[:3] + [plain()] + soli)
    assert [h["triggers"] for h in result["hands"]] == [[]] * 7 + [["solo_streak"]]
    # A Hochzeit without partner is a voluntary solo too.
    result = run(soli[:3] + [game(["Dora"], 150, kind="hochzeit")])
    assert result["hands"][3]["triggers"] == ["solo_streak"]
    # A revoke breaks the streak.
    result = run(soli[:3] + [{"kind": "revoke", "revoke_by": "Anna"}] + soli[:1])
    assert [h["triggers"] for h in result["hands"]] == [[]] * 5


def test_solo_owed_outbid_counts_as_played():
    hands = [solo("Carl", 150), {**plain(), "solo_outbid": ["Dora"]}]
    assert run(hands)["next"]["solo_owed"] == ["Anna", "Ben"]
    assert run(hands, variant="ddv")["next"]["solo_owed"] == ["Anna", "Ben"]


def test_revoke_in_a_bock_game_is_doubled_and_fires_nothing():
    result = run([game(["Anna", "Ben"], 120), {"kind": "revoke", "revoke_by": "Carl"}])
    hand = result["hands"][1]
    assert hand["deltas"] == {"Anna": 10, "Ben": 10, "Carl": -30, "Dora": 10}
    assert hand["triggers"] == [] and result["next"]["round_games_left"] == 3


def test_penalty_soli_come_first_dealt_by_the_right_hand_neighbour():
    # 5 players, penalty soli Carl then Anna: game 1 dealt by Ben (Carl's right), Ben sits out;
    # game 2 dealt by Emil (Anna's right); then the host Anna deals game 3.
    start = run([], players=FIVE, compulsory_solos=["Carl", "Anna"])["next"]
    assert (start["round"], start["round_games_left"], start["soloist"], start["dealer"]) == (
        "penalty",
        2,
        "Carl",
        "Ben",
    )
    assert start["host_round_games_left"] == 7
    hands = [solo("Carl", 150), solo("Anna", 150), game(["Ben", "Carl"], 130)]
    result = run(hands, players=FIVE, compulsory_solos=["Carl", "Anna"])
    h = result["hands"]
    assert [x["dealer"] for x in h] == ["Ben", "Emil", "Anna"]
    assert [x["round"] for x in h] == ["penalty", "penalty", "normal"]
    assert h[0]["active"] == ["Anna", "Carl", "Dora", "Emil"]
    assert h[0]["deltas"] == {"Anna": -2, "Ben": 0, "Carl": 6, "Dora": -2, "Emil": -2}
    assert result["next"]["dealer"] == "Ben"
    assert result["next"]["solo_owed"] == ["Ben", "Dora", "Emil"]
    assert errors([solo("Anna", 150)], players=FIVE, compulsory_solos=["Carl"]) == [(1, "re")]
    assert errors([plain(("Anna", "Carl"))], players=FIVE, compulsory_solos=["Carl"]) == [(1, "kind")]


def test_penalty_soli_are_compulsory_no_streak():
    # Penalty soli are compulsory (no streak count): 2 penalty soli + 2 voluntary soli are only
    # 2 in a row, no trigger.
    hands = [solo(p, 150) for p in ("Carl", "Anna", "Ben", "Dora")]
    result = run(hands, compulsory_solos=["Carl", "Anna"])
    assert all(h["triggers"] == [] for h in result["hands"])
    # Two more voluntary soli: the 4th voluntary solo in a row (game 6) is the solo_streak trigger,
    # not game 4 (which it would be if the penalty soli counted).
    result = run(hands + [solo("Anna", 150), solo("Ben", 150)], compulsory_solos=["Carl", "Anna"])
    assert [h["round"] for h in result["hands"]] == ["penalty"] * 2 + ["normal"] * 4
    assert [h["triggers"] for h in result["hands"]] == [[]] * 5 + [["solo_streak"]]
    # With 5 players: 2 penalty soli, then 4 voluntary soli are still one short of 5.
    five = [solo("Carl", 150), solo("Anna", 150)] + [solo(p, 150) for p in ("Carl", "Dora", "Emil", "Anna")]
    result = run(five, players=FIVE, compulsory_solos=["Carl", "Anna"])
    assert all(h["triggers"] == [] for h in result["hands"])


def test_carried_rounds_start_the_queue_after_the_penalty_soli():
    spec, variant, sitting = parse_request(
        {"game": "doppelkopf", "players": FOUR, "hands": [solo("Carl", 150)], "compulsory_solos": ["Carl"]}
    )
    result = replay(dataclasses.replace(sitting, carried_rounds=("bock", "ramsch")))
    assert result["hands"][0]["round"] == "penalty"
    nxt = result["next"]
    assert (nxt["round"], nxt["round_games_left"], nxt["queue"]) == ("bock", 4, ["ramsch"])
    assert nxt["queue_after_meeting"] == ["bock", "ramsch"]


def test_host_round_games_left_counts_to_the_last_deal_of_players_minus_1():
    # 5 players, 2 games played: Carl deals next; Carl, Dora, Emil still deal: 3.
    result = run([game(["Ben", "Carl"], 130), game(["Anna", "Carl"], 130)], players=FIVE)
    assert result["next"]["host_round_games_left"] == 3


def test_ddv_has_no_special_rounds():
    result = run([game(["Anna", "Ben"], 120, "kontra:kontra"), game(["Anna", "Ben"], 240, "re:re")], variant="ddv")
    assert all(h["triggers"] == [] and h["round"] == "normal" for h in result["hands"])
    assert result["next"]["queue_after_meeting"] == []


def test_a_long_meeting_through_bock_ramsch_in_bock_durchmarsch_and_a_pflichtsolo_round():
    """Five players. Every figure below worked out by hand:

    G1  Anna deals, normal: Ben+Carl 120 -> Kontra 2 (gewonnen, gegen die Alten); 120:120 -> Bock.
    G2-G6 Bock (x2). G3: Anna+Ben schwarz with keine 60 said: 1+4+2+2 = 9, x2 = 18; schwarz in a
        Bock game -> Ramsch. Other Bock games: Re wins with 130 (1, x2 = 2).
    G7  Ben deals, Ramsch round: Carl's trump solo 150: 2 (gewonnen, Solopunkt), Carl +6;
        Ben deals again, the Ramsch round grows by one.
    G8  Ramsch: Anna 100 loses, Emil Jungfrau: P = 3*2 = 6: Anna -18, others +6.
    G9  Ramsch: Dora Durchmarsch +24, others -8 -> Bock.
    G10 Ramsch: Anna and Ben 90 tie, Emil Jungfrau: P = 6, k = 2: -12/+12.
    G11 Ramsch: Anna, Ben, Carl 70 tie: P = 2, k = 3: -2 each, Dora +6.
    G12 Ramsch: Ben 130, no Jungfrau: P = 4: Ben -12, others +4.
    G13-G17 Bock (the Durchmarsch's). G13: Anna+Carl 185, nothing said: 3, x2 = 6, the losers get
        the points (signs swapped): Anna, Carl -6, Dora, Emil +6 -> Pflichtsolo round. G16: Ben revokes: 5, x2: Ben -30, others +10.
    G18-G22 Pflichtsolo: soloists Carl, Dora, Emil, Anna, Ben; Dora loses her Damensolo with 100 (-6).
    """
    ramsch = {
        8: ({"Anna": 100, "Carl": 80, "Dora": 60, "Emil": 0}, {"Anna": 5, "Carl": 4, "Dora": 3, "Emil": 0}),
        9: ({"Anna": 0, "Ben": 0, "Dora": 240, "Emil": 0}, {"Anna": 0, "Ben": 0, "Dora": 12, "Emil": 0}),
        10: ({"Anna": 90, "Ben": 90, "Carl": 60, "Emil": 0}, {"Anna": 4, "Ben": 4, "Carl": 4, "Emil": 0}),
        11: ({"Anna": 70, "Ben": 70, "Carl": 70, "Dora": 30}, {"Anna": 3, "Ben": 3, "Carl": 3, "Dora": 3}),
        12: ({"Ben": 130, "Carl": 50, "Dora": 40, "Emil": 20}, {"Ben": 6, "Carl": 2, "Dora": 2, "Emil": 2}),
    }
    hands = [
        game(["Ben", "Carl"], 120),  # G1
        game(["Anna", "Carl"], 130),  # G2
        game(["Anna", "Ben"], 240, "re:keine_60"),  # G3
        game(["Anna", "Carl"], 130),  # G4
        game(["Ben", "Dora"], 130),  # G5
        game(["Ben", "Carl"], 130),  # G6
        solo("Carl", 150),  # G7
    ]
    hands += [{"kind": "ramsch", "eyes": e, "tricks": t} for e, t in (ramsch[i] for i in range(8, 13))]
    hands += [
        game(["Anna", "Carl"], 185),  # G13
        game(["Anna", "Ben"], 130),  # G14
        game(["Carl", "Emil"], 130),  # G15
        {"kind": "revoke", "revoke_by": "Ben"},  # G16
        game(["Dora", "Emil"], 130),  # G17
        solo("Carl", 150),  # G18
        solo("Dora", 100, solo="damen"),  # G19
        solo("Emil", 150, solo="buben"),  # G20
        solo("Anna", 150, solo="fleischlos"),  # G21
        solo("Ben", 150),  # G22
    ]
    result = run(hands, players=FIVE)
    h = result["hands"]
    assert "".join(x["dealer"][0] for x in h) == "ABCDEABBCDEABCDEABCDEA"
    assert [x["round"] for x in h] == (["normal"] + ["bock"] * 5 + ["ramsch"] * 6 + ["bock"] * 5 + ["pflichtsolo"] * 5)
    assert [x["multiplier"] for x in h] == [1] + [2] * 5 + [1] * 6 + [2] * 5 + [1] * 5
    assert [x["triggers"] for x in h if x["triggers"]] == [
        ["split_120"],
        ["schwarz"],
        ["durchmarsch"],
        ["loser_points"],
    ]
    expected_totals = {
        1: (0, -2, -2, 2, 2),
        2: (2, -2, 0, 0, 0),
        3: (20, 16, 0, -18, -18),
        4: (22, 14, 2, -18, -20),
        5: (20, 16, 0, -16, -20),
        6: (20, 18, 2, -18, -22),
        7: (18, 18, 8, -20, -24),
        8: (0, 18, 14, -14, -18),
        9: (-8, 10, 14, 10, -26),
        10: (-20, -2, 26, 10, -14),
        11: (-22, -4, 24, 16, -14),
        12: (-22, -16, 28, 20, -10),
        13: (-28, -16, 22, 26, -4),
        14: (-26, -14, 22, 24, -6),
        15: (-28, -16, 24, 24, -4),
        16: (-18, -46, 34, 34, -4),
        17: (-18, -48, 32, 36, -2),
        18: (-20, -48, 38, 34, -4),
        19: (-18, -46, 38, 28, -2),
        20: (-20, -48, 36, 28, 4),
        21: (-14, -50, 34, 26, 4),
        22: (-14, -44, 32, 24, 2),
    }
    for number, totals in expected_totals.items():
        assert h[number - 1]["totals"] == dict(zip(FIVE, totals, strict=True)), number
    assert result["totals"] == dict(zip(FIVE, expected_totals[22], strict=True))
    # What comes next at the turning points.
    after6 = run(hands[:6], players=FIVE)["next"]
    assert (after6["dealer"], after6["round"], after6["round_games_left"], after6["queue"]) == ("Ben", "ramsch", 5, [])
    after7 = run(hands[:7], players=FIVE)["next"]
    assert (after7["dealer"], after7["round_games_left"], after7["host_round_games_left"]) == ("Ben", 5, 4)
    after9 = run(hands[:9], players=FIVE)["next"]
    assert (after9["round"], after9["round_games_left"], after9["queue"]) == ("ramsch", 3, ["bock"])
    after13 = run(hands[:13], players=FIVE)["next"]
    assert (after13["round"], after13["round_games_left"], after13["queue"]) == ("bock", 4, ["pflichtsolo"])
    after17 = run(hands[:17], players=FIVE)["next"]
    assert (after17["round"], after17["round_games_left"], after17["soloist"]) == ("pflichtsolo", 5, "Carl")
    assert after17["solo_owed"] == ["Anna", "Ben", "Dora", "Emil"]
    end = result["next"]
    assert (end["dealer"], end["round"], end["round_games_left"], end["queue"], end["soloist"]) == (
        "Ben",
        "normal",
        0,
        [],
        None,
    )
    assert end["solo_owed"] == [] and end["host_round_games_left"] == 4


def test_announcements_helper_order():
    # A sanity check of the helper used above.
    assert calls("re:re", "kontra:keine_90") == [{"party": "re", "call": "re"}, {"party": "kontra", "call": "keine_90"}]


def test_every_option_of_the_presets_table_is_declared_with_label_and_help():
    from scoring.doppelkopf import GAME

    table = {
        "solo_point",
        "absage_points",
        "special_points_in",
        "fuchs_last_trick_points",
        "doppel_charly",
        "gegen_die_alten_in_stilles",
        "loser_gets_points",
        "bock_triggers",
        "bock_in_bock",
        "ramsch",
        "pflichtsolo_rounds",
        "carry_special_rounds",
        "revoke_multiplier",
        # the house rules (not in the spec's table: both presets keep today's figures)
        "announcement_points",
        "karlchen_gefangen",
        "bock_stacking",
        # the hand form a league offers first (off in both presets; no figure changes)
        "points_only",
    }
    assert {o.name for o in GAME.options} == table
    assert GAME.default_preset == "club" and set(GAME.presets) == {"club", "ddv"}
    for option in GAME.options:
        assert option.label and option.help
        for preset in GAME.presets.values():
            assert option.check(preset[option.name]) is None, option.name
    assert run([], variant="ddv")["rules"]["bock_triggers"] == []
    assert run([])["rules"]["revoke_multiplier"] == 3


def test_example_request_follows_the_options_it_is_given():
    import random

    from scoring.doppelkopf import example_request

    request = example_request(random.Random(5), 30, players=FIVE, compulsory_solos=["Dora"], rules={"ramsch": False})
    result = run(request["hands"], players=FIVE, rules={"ramsch": False}, compulsory_solos=["Dora"])
    assert result["hands"][0]["round"] == "penalty" and result["hands"][0]["soloist"] == "Dora"
    assert all(h["round"] != "ramsch" for h in result["hands"])
