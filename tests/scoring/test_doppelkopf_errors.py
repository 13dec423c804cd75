"""Doppelkopf: every field of the hand table is checked; problems name hand and field
(doppelkopf.md "What one game records", calculate-api.md "Errors")."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringError
from tests.scoring.test_doppelkopf_support import FIVE, calls, errors, game, plain, run, solo

RE = ["Anna", "Ben"]


@pytest.mark.parametrize(
    "hand, field",
    [
        ({**plain(), "colour": "red"}, "colour"),
        ({"re": RE, "re_eyes": 130}, "kind"),
        ({**plain(), "kind": "skat"}, "kind"),
        ({**plain(), "kind": ["normal"]}, "kind"),
        ({**plain(), "eyes": {"Anna": 240}}, "eyes"),
        ({**plain(), "revoke_by": "Anna"}, "revoke_by"),
        ({**plain(), "solo": "trumpf"}, "solo"),
        ({"kind": "revoke", "revoke_by": "Anna", "re": RE}, "re"),
        ({"kind": "revoke"}, "revoke_by"),
        ({"kind": "revoke", "revoke_by": "Zoe"}, "revoke_by"),
        ({"kind": "revoke", "revoke_by": 3}, "revoke_by"),
        ({"kind": "normal", "re_eyes": 130}, "re"),
        (game("Anna", 130), "re"),
        (game(["Anna"], 130), "re"),
        (game(["Anna", "Anna"], 130), "re"),
        (game(["Anna", "Zoe"], 130), "re"),
        (game(["Anna", "Ben", "Carl"], 130, kind="hochzeit"), "re"),
        (game(["Anna"], 130, kind="trumpfabgabe"), "re"),
        (game(["Anna", "Ben"], 130, kind="solo", solo="trumpf"), "re"),
        (game(["Anna"], 130, kind="solo"), "solo"),
        (game(["Anna"], 130, kind="solo", solo="farbe"), "solo"),
        (game(RE, 241), "re_eyes"),
        (game(RE, -1), "re_eyes"),
        (game(RE, True), "re_eyes"),
        (game(RE, "130"), "re_eyes"),
        (game(RE, 130.0), "re_eyes"),
        ({"kind": "normal", "re": RE}, "re_eyes"),
        (game(RE, 130, re_tricks=13), "re_tricks"),
        (game(RE, 130, re_tricks=False), "re_tricks"),
        (game(RE, 10, re_tricks=0), "re_tricks"),
        (game(RE, 200, re_tricks=12), "re_tricks"),
        (game(RE, 130, announcements="re"), "announcements"),
        (game(RE, 130, "re:re", "re:re"), "announcements"),  # a call already made
        (game(RE, 200, "re:keine_60", "re:keine_90"), "announcements"),  # below its own earlier call
        (game(RE, 200, "re:keine_90", "re:re"), "announcements"),  # the absage implied the re
        (game(RE, 130, "kontra:re"), "announcements"),  # re only by Re
        (game(RE, 130, "re:kontra"), "announcements"),  # kontra only by Kontra
        (game(RE, 130, "re:keine_120"), "announcements"),
        (game(RE, 130, "alte:re"), "announcements"),
        (game(RE, 130, announcements=[{"party": "re"}]), "announcements"),
        (game(RE, 130, announcements=[{"party": "re", "call": "re", "when": 1}]), "announcements"),
        (game(RE, 130, specials={"kind": "fuchs"}), "specials"),
        (game(RE, 130, specials=[{"kind": "schwein", "party": "re"}]), "specials"),
        (game(RE, 130, specials=[{"kind": "fuchs", "party": "alte"}]), "specials"),
        (game(RE, 130, specials=[{"kind": "fuchs"}]), "specials"),
        (game(RE, 130, specials=[{"kind": "fuchs", "party": "re"}] * 3), "specials"),  # at most two
        (game(RE, 130, specials=[{"kind": "karlchen", "party": "re"}] * 2), "specials"),  # at most one
        (game(RE, 79, specials=[{"kind": "doppelkopf", "party": "re"}] * 2), "specials"),  # 79 // 40 = 1
        (game(RE, 0, specials=[{"kind": "doppelkopf", "party": "re"}]), "specials"),
        (game(RE, 0, specials=[{"kind": "fuchs", "party": "re"}]), "specials"),  # no trick
        (game(RE, 130, specials=[{"kind": "doppelkopf", "party": "re", "last_trick": True}]), "specials"),
        (game(RE, 130, specials=[{"kind": "fuchs", "party": "re", "last_trick": 1}]), "specials"),
        (game(RE, 130, specials=[{"kind": "fuchs", "party": "re", "doppel": True}]), "specials"),
        (
            game(
                RE,
                130,
                specials=[
                    {"kind": "karlchen", "party": "re"},
                    {"kind": "fuchs", "party": "kontra", "last_trick": True},
                ],
            ),
            "specials",
        ),  # two parties cannot both win the last trick
        (game(RE, 130, fuchs_wins_last_doppelkopf=True), "fuchs_wins_last_doppelkopf"),
        (game(RE, 130, fuchs_wins_last_doppelkopf="yes"), "fuchs_wins_last_doppelkopf"),
        (
            game(
                RE,
                130,
                specials=[{"kind": "doppelkopf", "party": "re"}, {"kind": "karlchen", "party": "re"}],
                fuchs_wins_last_doppelkopf=True,
            ),
            "fuchs_wins_last_doppelkopf",
        ),
        (game(RE, 130, solo_outbid="Carl"), "solo_outbid"),
        (game(RE, 130, solo_outbid=["Zoe"]), "solo_outbid"),
        (game(RE, 130, solo_outbid=["Carl", "Carl"]), "solo_outbid"),
        (solo("Anna", 130, solo_outbid=["Anna"]), "solo_outbid"),
        ({"kind": "revoke", "revoke_by": "Anna", "announcements": calls("re:re", "re:re")}, "announcements"),
        ({"kind": "revoke", "revoke_by": "Anna", "solo_outbid": ["Ben"]}, "solo_outbid"),
    ],
)
def test_each_invalid_field_is_named(hand, field):
    assert errors([plain(), hand]) == [(2, field)]


def test_special_points_of_a_game_where_they_do_not_count_are_an_error():
    # ddv: no special points in any solo (doppelkopf.md: "Elsewhere special points in the hand are an error").
    dk = [{"kind": "doppelkopf", "party": "re"}]
    assert errors([solo("Anna", 150, specials=dk)], variant="ddv") == [(1, "specials")]
    assert errors([solo("Anna", 150, specials=dk, fuchs_wins_last_doppelkopf=True)], variant="ddv") == [
        (1, "fuchs_wins_last_doppelkopf"),
        (1, "specials"),
    ]


def test_a_player_sitting_out_cannot_play():
    # 5 players, Anna deals and sits out.
    assert errors([game(["Anna", "Ben"], 130)], players=FIVE) == [(1, "re")]
    assert errors([{"kind": "revoke", "revoke_by": "Anna"}], players=FIVE) == [(1, "revoke_by")]


def test_every_problem_of_every_hand_is_reported_and_the_deal_goes_on():
    # Hand 1 has two problems; hand 2 is fine; hand 3 names the dealer of game 3 (Carl sits out
    # with 5 players: the invalid hand 1 still used up Anna's deal).
    hands = [game(["Zoe", "Ben"], 300), game(["Anna", "Carl"], 130), game(["Carl", "Dora"], 130)]
    assert errors(hands, players=FIVE) == [(1, "re"), (1, "re_eyes"), (3, "re")]


def test_null_means_left_out():
    hand = {**plain(), "announcements": None, "specials": None, "re_tricks": None, "revoke_by": None, "eyes": None}
    assert run([hand])["hands"][0]["value"] == 1


def test_ramsch_fields_are_checked():
    to_ramsch = [game(RE, 120), game(RE, 120)] + [plain()] * 3
    good = {"Anna": 100, "Ben": 80, "Carl": 60, "Dora": 0}
    tricks = {"Anna": 5, "Ben": 4, "Carl": 3, "Dora": 0}
    cases = [
        ({"kind": "ramsch", "tricks": tricks}, "eyes"),
        ({"kind": "ramsch", "eyes": [100, 80, 60, 0], "tricks": tricks}, "eyes"),
        ({"kind": "ramsch", "eyes": {**good, "Zoe": 0}, "tricks": tricks}, "eyes"),
        ({"kind": "ramsch", "eyes": {"Anna": 100, "Ben": 140, "Carl": 0}, "tricks": tricks}, "eyes"),
        ({"kind": "ramsch", "eyes": {**good, "Dora": True}, "tricks": tricks}, "eyes"),
        ({"kind": "ramsch", "eyes": {**good, "Anna": 90, "Dora": 10}, "tricks": tricks}, "eyes"),  # no trick, eyes
        ({"kind": "ramsch", "eyes": good, "tricks": {**tricks, "Anna": 6}}, "tricks"),
        ({"kind": "ramsch", "eyes": good, "tricks": {**tricks, "Anna": -1, "Ben": 10}}, "tricks"),
        ({"kind": "ramsch", "eyes": good, "tricks": tricks, "re": RE}, "re"),
        ({"kind": "ramsch", "eyes": good, "tricks": tricks, "announcements": []}, "announcements"),
        ({"kind": "ramsch", "eyes": good, "tricks": tricks, "solo_outbid": ["Zoe"]}, "solo_outbid"),
        (game(["Anna", "Ben"], 130, kind="hochzeit"), "kind"),
    ]
    for hand, field in cases:
        assert errors(to_ramsch + [hand]) == [(6, field)], hand


# --- messages for the most common scorekeeper mistakes ---------------------------------------


def _messages(hands, **kw):
    """{(hand, field): rendered message} of a sitting that must fail."""
    try:
        run(hands, **kw)
    except ScoringError as error:
        return {(p.hand, p.field): p.render() for p in error.problems}
    raise AssertionError("no ScoringError")


def _assert_sentence(message, *names):
    # A readable sentence: capitalised, several words, no unfilled placeholder, naming the thing.
    assert message[:1].isupper() and len(message.split()) >= 3, message
    assert "%(" not in message and "{" not in message, message
    for name in names:
        assert name.lower() in message.lower(), (name, message)


def test_re_eyes_over_240_names_the_limit():
    # "re_eyes: eyes of the Re party, 0..240".
    found = _messages([game(RE, 241)])
    assert list(found) == [(1, "re_eyes")]
    _assert_sentence(found[1, "re_eyes"], "240")


def test_a_re_player_sitting_out_is_named():
    # With 5 the dealer (Anna, game 1) sits out; "re" is a list of active players.
    found = _messages([game(["Anna", "Ben"], 130)], players=FIVE)
    assert list(found) == [(1, "re")]
    _assert_sentence(found[1, "re"], "Anna")
    assert "Ben" not in found[1, "re"]


def test_kontra_announced_by_re_names_the_call():
    # "`re` only by Re, `kontra` only by Kontra".
    found = _messages([game(RE, 130, "re:kontra")])
    assert list(found) == [(1, "announcements")]
    _assert_sentence(found[1, "announcements"], "kontra")


def test_a_fuchs_in_a_trump_solo_names_the_fuchs():
    # club: in a trump solo only the doppelkopf point counts; "elsewhere special points in the
    # hand are an error".
    found = _messages([solo("Anna", 150, specials=[{"kind": "fuchs", "party": "re"}])])
    assert list(found) == [(1, "specials")]
    _assert_sentence(found[1, "specials"], "fuchs")


def test_ramsch_outside_a_ramsch_round_names_ramsch():
    # "a `ramsch` hand anywhere else (and in `ddv` at all) is an error on `kind`".
    ramsch = {
        "kind": "ramsch",
        "eyes": {"Anna": 100, "Ben": 80, "Carl": 60, "Dora": 0},
        "tricks": {"Anna": 5, "Ben": 4, "Carl": 3, "Dora": 0},
    }
    for variant in (None, "ddv"):
        found = _messages([ramsch], variant=variant)
        assert list(found) == [(1, "kind")]
        _assert_sentence(found[1, "kind"], "ramsch")
