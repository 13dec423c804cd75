"""Helpers shared by the Doppelkopf tests (no tests here)."""

from __future__ import annotations

from scoring.errors import ScoringError
from scoring.sitting import calculate

FOUR = ["Anna", "Ben", "Carl", "Dora"]
FIVE = FOUR + ["Emil"]
SIX = FIVE + ["Fritz"]


def run(hands, players=FOUR, variant=None, rules=None, **extra):
    request = {"game": "doppelkopf", "players": list(players), "hands": hands}
    if variant is not None:
        request["variant"] = variant
    if rules is not None:
        request["rules"] = rules
    request.update(extra)
    return calculate(request)


def errors(hands, **kw):
    try:
        run(hands, **kw)
    except ScoringError as error:
        return sorted({(p.hand, p.field) for p in error.problems}, key=repr)
    raise AssertionError("no ScoringError")


def calls(*spec):
    """calls("re:re", "kontra:keine_90") -> announcements list."""
    return [{"party": s.split(":")[0], "call": s.split(":")[1]} for s in spec]


def game(re, eyes, *announcements, kind="normal", **fields):
    hand = {"kind": kind, "re": list(re), "re_eyes": eyes}
    if announcements:
        hand["announcements"] = calls(*announcements)
    hand.update(fields)
    return hand


def solo(player, eyes, *announcements, solo="trumpf", **fields):
    return game([player], eyes, *announcements, kind="solo", solo=solo, **fields)


def plain(re=("Anna", "Ben")):
    """A game that triggers nothing: Re wins with 130, nothing announced (value 1)."""
    return game(re, 130)


def one(hands, **kw):
    """The single scored hand of a one-hand sitting."""
    return run(hands, **kw)["hands"][-1]


def items(hand):
    return {i["item"]: i["points"] for i in hand["breakdown"]}
