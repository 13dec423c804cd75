"""Doppelkopf house rules beyond the spec's table: ``announcement_points``, ``karlchen_gefangen``,
``bock_stacking`` and the hand kind ``points``. Every figure worked out by hand from
doppelkopf.md (game value items, signs, special rounds) and the options' descriptions."""

from __future__ import annotations

from scoring.errors import ScoringError
from tests.scoring.test_doppelkopf_support import FOUR, errors, game, items, one, plain, run, solo

RE = ["Anna", "Ben"]


def _points(re, winner, value, **facts):
    hand = {"kind": "points", "re": list(re), "winner": winner, "value": value}
    hand.update(facts)
    return hand


def _messages(hands, **kw):
    try:
        run(hands, **kw)
    except ScoringError as error:
        return {(p.field, p.render()) for p in error.problems}
    raise AssertionError("no ScoringError")


# --- announcement_points ----------------------------------------------------------------------


def test_announcement_points_1_makes_re_worth_one():
    # Game value item 3 with Re worth 1: Re said re, won 130: gewonnen 1 + Re angesagt 1 = 2.
    hand = one([game(RE, 130, "re:re")], rules={"announcement_points": 1})
    assert hand["value"] == 2 and items(hand) == {"gewonnen": 1, "Re angesagt": 1}
    assert hand["deltas"] == {"Anna": 2, "Ben": 2, "Carl": -2, "Dora": -2}
    # The default keeps today's 2: 1 + 2 = 3.
    assert one([game(RE, 130, "re:re")])["value"] == 3


def test_announcement_points_1_for_both_calls_and_gegen_die_alten():
    # Re and Kontra said; Re needs 121, Kontra 120. R 115 / K 125: Kontra wins.
    # gewonnen 1 + Re angesagt 1 + Kontra angesagt 1 + gegen die Alten 1 = 4: Kontra +4 each.
    hand = one([game(RE, 115, "re:re", "kontra:kontra")], rules={"announcement_points": 1})
    assert hand["winner"] == "kontra" and hand["value"] == 4
    assert hand["deltas"] == {"Anna": -4, "Ben": -4, "Carl": 4, "Dora": 4}


def test_announcement_points_count_in_a_revoke_too():
    # Revoke: 5 + the announcements made so far; Re said re, worth 1: 6. Revoker -18, others +6.
    hand = one(
        [{"kind": "revoke", "revoke_by": "Carl", "announcements": [{"party": "re", "call": "re"}]}],
        rules={"announcement_points": 1},
    )
    assert hand["value"] == 6 and hand["deltas"] == {"Anna": 6, "Ben": 6, "Carl": -18, "Dora": 6}


def test_announcement_points_are_validated():
    for bad in (0, 4, True, "2"):
        assert errors([], rules={"announcement_points": bad}) == [(None, "rules")]


# --- karlchen_gefangen ------------------------------------------------------------------------

CAUGHT_BY_RE = [{"kind": "karlchen_gefangen", "party": "re"}]
ON = {"karlchen_gefangen": True}


def test_karlchen_gefangen_is_off_by_default():
    assert errors([game(RE, 130, specials=CAUGHT_BY_RE)]) == [(1, "specials")]
    assert errors([game(RE, 130, specials=CAUGHT_BY_RE)], variant="ddv") == [(1, "specials")]


def test_karlchen_gefangen_is_a_special_point_for_the_catchers():
    # Special points (item 8): Re caught Kontra's club jack in the last trick, Re won 130:
    # gewonnen 1 + Karlchen gefangen (Re) 1 = 2.
    hand = one([game(RE, 130, specials=CAUGHT_BY_RE)], rules=ON)
    assert items(hand) == {"gewonnen": 1, "Karlchen gefangen (Re)": 1}
    assert hand["deltas"] == {"Anna": 2, "Ben": 2, "Carl": -2, "Dora": -2}
    # Kontra caught Re's Karlchen and won 140 (R 100): 1 + gegen die Alten 1 + 1 = 3.
    hand = one([game(RE, 100, specials=[{"kind": "karlchen_gefangen", "party": "kontra"}])], rules=ON)
    assert hand["winner"] == "kontra" and hand["value"] == 3
    # Netted against the winner: Kontra caught it, Re won 130: 1 - 1 = 0, nothing moves.
    hand = one([game(RE, 130, specials=[{"kind": "karlchen_gefangen", "party": "kontra"}])], rules=ON)
    assert hand["value"] == 0 and hand["deltas"] == dict.fromkeys(FOUR, 0)
    # In ddv too, where it is switched on: Re 130: 1 + 1 = 2.
    assert one([game(RE, 130, specials=CAUGHT_BY_RE)], variant="ddv", rules=ON)["value"] == 2


def test_a_karlchen_catching_the_other_karlchen_counts_both():
    # Re's club jack wins the last trick (Karlchen 1) and catches Kontra's (Karlchen gefangen 1):
    # Re 130: 1 + 1 + 1 = 3.
    specials = [{"kind": "karlchen", "party": "re"}, {"kind": "karlchen_gefangen", "party": "re"}]
    assert one([game(RE, 130, specials=specials)], rules=ON)["value"] == 3


def test_karlchen_gefangen_impossible_combinations():
    # Doppel-Charly: both club jacks are the winners' own, none of the other party's is left.
    doppel = [{"kind": "karlchen", "party": "re", "doppel": True}, {"kind": "karlchen_gefangen", "party": "re"}]
    assert errors([game(RE, 130, specials=doppel)], rules=ON) == [(1, "specials")]
    # One party wins the last trick.
    both = [{"kind": "karlchen", "party": "kontra"}, {"kind": "karlchen_gefangen", "party": "re"}]
    assert errors([game(RE, 130, specials=both)], rules=ON) == [(1, "specials")]
    # Only two club jacks in the deck.
    three = [{"kind": "karlchen", "party": "re"}] + CAUGHT_BY_RE * 2
    assert errors([game(RE, 130, specials=three)], rules=ON) == [(1, "specials")]
    # A Fuchs cannot win a trick holding a club jack.
    dk = [{"kind": "doppelkopf", "party": "re"}] + CAUGHT_BY_RE
    assert errors([game(RE, 130, specials=dk, fuchs_wins_last_doppelkopf=True)], rules=ON) == [
        (1, "fuchs_wins_last_doppelkopf")
    ]
    # Catchers without a trick: Kontra (Re 240 in all tricks) cannot have caught anything.
    caught_by_kontra = [{"kind": "karlchen_gefangen", "party": "kontra"}]
    assert errors([game(RE, 240, specials=caught_by_kontra)], rules=ON) == [(1, "specials")]
    # Club: in a Damensolo no special point counts; in a trump solo only the Doppelkopf.
    assert errors([solo("Anna", 150, solo="damen", specials=CAUGHT_BY_RE)], rules=ON) == [(1, "specials")]
    assert errors([solo("Anna", 150, specials=CAUGHT_BY_RE)], rules=ON) == [(1, "specials")]


def test_karlchen_gefangen_counts_without_a_winner():
    # Both said keine 90 (151 each), 130:110: no winner. Re: 120 against keine 90 1 + Karlchen
    # gefangen 1 = 2; Kontra 0. Re +2.
    hand = one([game(RE, 130, "re:keine_90", "kontra:keine_90", specials=CAUGHT_BY_RE)], rules=ON)
    assert hand["winner"] is None and hand["value"] == 2
    assert hand["deltas"] == {"Anna": 2, "Ben": 2, "Carl": -2, "Dora": -2}


# --- bock_stacking ----------------------------------------------------------------------------

STACK = {"bock_stacking": "stack"}
SPLIT = game(RE, 120)  # 120:120: Kontra wins, gewonnen 1 + gegen die Alten 1 = 2; split_120 fires
# re, kontra, keine 60 by Re, Re takes every trick: kontra_lost, schwarz, re_kontra_re (three Bock
# triggers, no loser points: Re's highest call is keine 60). 1 + 4 + 2 + 2 + 2 absage levels = 11.
THREE_TRIGGERS = game(RE, 240, "re:re", "kontra:kontra", "re:keine_60")


def test_stacked_bock_rounds_overlap_and_multiply():
    # G1 split -> Bock round 1 covers G2-G5. G2 split again -> Bock round 2 covers G3-G6 (no Ramsch
    # round: bock_in_bock does not apply). Multipliers: G2 x2, G3-G5 x4, G6 x2, G7 x1.
    hands = [SPLIT, SPLIT] + [plain()] * 5
    result = run(hands, rules=STACK)
    h = result["hands"]
    assert [x["round"] for x in h] == ["normal"] + ["bock"] * 5 + ["normal"]
    assert [x["multiplier"] for x in h] == [1, 2, 4, 4, 4, 2, 1]
    assert h[1]["deltas"] == {"Anna": -4, "Ben": -4, "Carl": 4, "Dora": 4}  # 2 x2
    assert h[2]["deltas"] == {"Anna": 4, "Ben": 4, "Carl": -4, "Dora": -4}  # 1 x4
    assert h[6]["deltas"] == {"Anna": 1, "Ben": 1, "Carl": -1, "Dora": -1}
    nxt = run(hands[:2], rules=STACK)["next"]
    assert (nxt["round"], nxt["multiplier"], nxt["bock_rounds"], nxt["round_games_left"], nxt["queue"]) == (
        "bock",
        4,
        [3, 4],
        4,
        [],
    )
    nxt = run(hands[:5], rules=STACK)["next"]
    assert (nxt["multiplier"], nxt["bock_rounds"], nxt["round_games_left"]) == (2, [1], 1)
    assert run(hands, rules=STACK)["next"]["bock_rounds"] == [] and result["next"]["multiplier"] == 1


def test_the_default_queue_keeps_todays_rounds_and_shows_its_multiplier():
    # Queue: G2 is a Bock game; its split enqueues a Ramsch round (bock_in_bock) after G2-G5.
    result = run([SPLIT, SPLIT], rules={"bock_stacking": "queue"})
    assert [x["multiplier"] for x in result["hands"]] == [1, 2]
    nxt = result["next"]
    assert (nxt["round"], nxt["multiplier"], nxt["bock_rounds"], nxt["queue"]) == ("bock", 2, [3], ["ramsch"])


def test_three_triggers_in_one_game_make_the_next_games_count_eight_times():
    # G1: 11 for Re; three Bock rounds start with G2: x8. G2 plain: 1 x8 = 8.
    result = run([THREE_TRIGGERS, plain()], rules=STACK)
    assert result["hands"][0]["deltas"] == {"Anna": 11, "Ben": 11, "Carl": -11, "Dora": -11}
    assert result["hands"][1]["multiplier"] == 8
    assert result["hands"][1]["deltas"] == {"Anna": 8, "Ben": 8, "Carl": -8, "Dora": -8}
    nxt = result["next"]
    assert (nxt["multiplier"], nxt["bock_rounds"]) == (8, [3, 3, 3])


def test_the_stacked_multiplier_counts_at_most_six_bock_rounds():
    # G1 and G2 three triggers each: G3 is covered by six rounds (x64); G3's split starts a 7th,
    # G4 is covered by seven and still counts x64 (MAX_STACKED_BOCK).
    # G2: 11 x8 = 88. G3: Kontra 2 x64 = 128. G4: 1 x64.
    result = run([THREE_TRIGGERS, THREE_TRIGGERS, SPLIT, plain()], rules=STACK)
    h = result["hands"]
    assert [x["multiplier"] for x in h] == [1, 8, 64, 64]
    assert h[1]["deltas"]["Anna"] == 88 and h[2]["deltas"]["Carl"] == 128 and h[3]["deltas"]["Anna"] == 64
    assert result["next"]["bock_rounds"] == [1, 1, 1, 2, 2, 2, 3]


def test_stacked_bock_runs_beside_a_pflichtsolo_round():
    # G1 split -> Bock round covers G2-G5. G2 (x2): Re 185, nothing said: 3 x2 = 6, the losers get
    # the points (swapped) -> Pflichtsolo round G3-G6 (dealer Carl, soloist Dora first). G3-G5 are
    # still covered by the Bock round: Dora's trump solo 150: gewonnen 1 + Solopunkt 1 = 2 x2 = 4:
    # Dora +12, others -4. G6 x1.
    hands = [SPLIT, game(RE, 185), solo("Dora", 150)]
    result = run(hands, rules=STACK)
    h = result["hands"]
    assert h[1]["deltas"] == {"Anna": -6, "Ben": -6, "Carl": 6, "Dora": 6}
    assert (h[2]["round"], h[2]["multiplier"]) == ("pflichtsolo", 2)
    assert h[2]["deltas"] == {"Anna": -4, "Ben": -4, "Carl": -4, "Dora": 12}
    nxt = run(hands[:2], rules=STACK)["next"]
    assert (nxt["round"], nxt["round_games_left"], nxt["multiplier"], nxt["bock_rounds"], nxt["soloist"]) == (
        "pflichtsolo",
        4,
        2,
        [3],
        "Dora",
    )


def test_bock_stacking_is_validated():
    assert errors([], rules={"bock_stacking": "pile"}) == [(None, "rules")]


# --- the hand kind points ---------------------------------------------------------------------


def test_points_hand_plain_plus_minus():
    # The club wrote: Re (Anna, Ben) won, 5 points. Each winner +5, each loser -5.
    hand = one([_points(RE, "re", 5)])
    assert (hand["kind"], hand["winner"], hand["value"]) == ("points", "re", 5)
    assert hand["deltas"] == {"Anna": 5, "Ben": 5, "Carl": -5, "Dora": -5}
    assert hand["triggers"] == [] and sum(i["points"] for i in hand["breakdown"]) == 5
    hand = one([_points(RE, "kontra", 3)])
    assert hand["deltas"] == {"Anna": -3, "Ben": -3, "Carl": 3, "Dora": 3}


def test_points_hand_solo_is_tripled():
    # Dora's Damensolo lost, 4 points: Dora -12, each opponent +4 (Signs: soloist x3).
    hand = one([_points(["Dora"], "kontra", 4, solo="damen")])
    assert hand["soloist"] == "Dora" and hand["solo"] == "damen"
    assert hand["deltas"] == {"Anna": 4, "Ben": 4, "Carl": 4, "Dora": -12}


def test_points_hand_facts_fire_triggers_and_bock_doubles():
    # Kontra announced, Re won 3: kontra_lost -> G2-G5 Bock. G2 (x2): 3 -> 6.
    result = run([_points(RE, "re", 3, kontra_announced=True), _points(RE, "re", 3)])
    h = result["hands"]
    assert h[0]["triggers"] == ["kontra_lost"]
    assert (h[1]["round"], h[1]["multiplier"]) == ("bock", 2)
    assert h[1]["deltas"] == {"Anna": 6, "Ben": 6, "Carl": -6, "Dora": -6}
    # Each fact, in the spec's order; Kontra announced and Kontra won is no trigger.
    all_facts = _points(
        RE, "re", 9, kontra_announced=True, schwarz=True, re_kontra_re=True, fuchs_wins_last_doppelkopf=True
    )
    assert one([all_facts])["triggers"] == ["kontra_lost", "schwarz", "re_kontra_re", "fuchs_last_doppelkopf"]
    assert one([_points(RE, "kontra", 2, split_120=True, kontra_announced=True)])["triggers"] == ["split_120"]
    # ddv has no Bock triggers.
    assert one([all_facts], variant="ddv")["triggers"] == []


def test_points_solos_count_for_the_solo_streak_and_follow_the_pflichtsolo_order():
    # Four voluntary soli in a row (4 players): solo_streak.
    soli = [_points([p], "re", 2, solo="trumpf") for p in FOUR]
    assert run(soli)["hands"][3]["triggers"] == ["solo_streak"]
    # Loser points from a played game start a Pflichtsolo round: G2 dealer Ben, soloist Carl.
    opening = game(RE, 185)
    assert run([opening, _points(["Carl"], "re", 2, solo="buben")])["hands"][1]["round"] == "pflichtsolo"
    assert errors([opening, _points(["Dora"], "re", 2, solo="buben")]) == [(2, "re")]
    assert errors([opening, _points(RE, "re", 2)]) == [(2, "kind")]


def test_points_hand_in_a_ramsch_round_only_as_a_trump_solo():
    # G1 split -> Bock G2-G5; G2 split in Bock -> Ramsch round G6-G9 (dealer Ben).
    to_ramsch = [game(RE, 120), game(RE, 120)] + [plain()] * 3
    hand = run(to_ramsch + [_points(["Carl"], "re", 2, solo="trumpf")])["hands"][5]
    assert (hand["round"], hand["multiplier"]) == ("ramsch", 1)
    assert hand["deltas"] == {"Anna": -2, "Ben": -2, "Carl": 6, "Dora": -2}
    assert errors(to_ramsch + [_points(["Carl"], "re", 2, solo="damen")]) == [(6, "solo")]
    assert errors(to_ramsch + [_points(RE, "re", 2)]) == [(6, "kind")]


def test_points_hand_bad_input_names_the_field():
    assert errors([{"kind": "points", "re": RE, "value": 2}]) == [(1, "winner")]
    assert errors([_points(RE, "nobody", 2)]) == [(1, "winner")]
    assert errors([{"kind": "points", "re": RE, "winner": "re"}]) == [(1, "value")]
    for bad in (-1, 101, True, "3", 2.5):
        assert errors([_points(RE, "re", bad)]) == [(1, "value")]
    assert errors([_points(["Anna", "Ben", "Carl"], "re", 2)]) == [(1, "re")]
    assert errors([_points(["Anna", "Emil"], "re", 2)]) == [(1, "re")]
    assert errors([_points(["Anna", "Anna"], "re", 2)]) == [(1, "re")]
    assert errors([_points(["Anna"], "re", 2)]) == [(1, "solo")]
    assert errors([_points(RE, "re", 2, solo="damen")]) == [(1, "solo")]
    assert errors([_points(RE, "re", 2, schwarz="yes")]) == [(1, "schwarz")]
    assert errors([_points(RE, "re", 2, schwarz=True, split_120=True)]) == [(1, "split_120")]
    assert errors([_points(RE, "re", 2, re_eyes=130)]) == [(1, "re_eyes")]
    messages = _messages([_points(RE, "re", 500)])
    assert messages == {("value", "The value must be a whole number from 0 to 100.")}


def test_the_largest_stacked_hand_stays_inside_the_limits():
    # scoring/limits.py: one hand moves at most MOST_PER_HAND for one party. The largest points
    # hand (100) as a solo won in a game covered by six or more Bock rounds (x64): the soloist
    # 100 x64 x3 = 19,200, each opponent -6,400.
    from scoring.limits import MOST_PER_HAND

    hands = [THREE_TRIGGERS, THREE_TRIGGERS, _points(["Carl"], "re", 100, solo="trumpf")]
    hand = run(hands, rules=STACK)["hands"][2]
    assert hand["multiplier"] == 64
    assert hand["deltas"] == {"Anna": -6400, "Ben": -6400, "Carl": 19200, "Dora": -6400}
    assert max(abs(d) for d in hand["deltas"].values()) <= MOST_PER_HAND
