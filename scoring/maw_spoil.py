"""Spoil Five (``spoil_five``, shared/spec/maw.md, seed 000): cut-throat, counted in chips.

Before each hand the pot is fed: into an empty pot everyone pays ``stake`` and the dealer
``dealer_extra`` more; after a spoilt hand each non-dealer pays ``spoil_stake`` and the dealer
``dealer_extra`` (instead). A player with three tricks wins the pot at that trick, the hand
stops there; with ``relative_majority`` two tricks win when, after the fifth, nobody else has
more than one. A player who won the first three tricks may jink (``jink: true``): he plays on;
all five tricks win the pot plus ``stake`` from each other player; losing the fourth or fifth
trick stops the hand there and forfeits the pot (the hand counts as spoilt). Nobody winning:
the hand is spoilt, the pot stays.

Hand: ``tricks`` (3 to 5 winners, players only; recorded tricks after the hand stopped are
ignored), ``jink`` (bool, default false; null = false).

Decisions where the spec is silent:

- The pot is fed "as after a spoilt hand" exactly when the previous hand was spoilt (a failed
  jink included); a sitting starts with an empty pot. Chip totals start at 0 for everyone
  (``start_totals`` does not apply: this is no race).
- A jink needs the first three tricks to one player and at least the fourth trick entered; a
  jink that is declared and won to the fifth trick needs all five.
- An invalid hand feeds nothing and changes nothing (it is reported; the deal passes on).

Response extras: per hand ``ignored_tricks`` (recorded after the hand stopped), ``fed``
(chips each player paid into the pot before the hand), ``hand_winners`` and ``game_winner``
(both the pot winner: a pot carried over spoilt hands is one game; nobody in a spoilt hand;
see :mod:`scoring.results`); ``next.feed`` (what each player pays
into the pot before the next hand).
"""

from __future__ import annotations

import random
from typing import Any

from .errors import Problems, _
from .options import BOOL, INT, Option
from .registry import GameSpec, Sitting
from .results import ReplayResult

TRICKS = 5
FIELDS = frozenset({"tricks", "jink"})

# At most 11,000 chips a hand go into the pot (ten stakes and the dealer's extra): what keeps
# an evening's totals within the results table (scoring/limits.py).
MAX_STAKE = 1_000

OPTIONS = (
    Option("stake", INT, _("Stake"), _("What each player pays into an empty pot."), minimum=0, maximum=MAX_STAKE),
    Option(
        "dealer_extra",
        INT,
        _("Dealer's extra"),
        _("The dealer pays this on top into an empty pot, and instead of the spoil stake after a spoilt hand."),
        minimum=0,
        maximum=MAX_STAKE,
    ),
    Option(
        "spoil_stake",
        INT,
        _("Stake after a spoilt hand"),
        _("What each player but the dealer adds to the pot after a spoilt hand."),
        minimum=0,
        maximum=MAX_STAKE,
    ),
    Option(
        "relative_majority",
        BOOL,
        _("Two tricks can win"),
        _("Two tricks win the pot when nobody else has more than one (for six or more players)."),
    ),
)

PRESETS = {"standard": {"stake": 2, "dealer_extra": 2, "spoil_stake": 1, "relative_majority": False}}


def _feed(rules: dict[str, Any], size: int, dealer: int, spoilt: bool) -> list[int]:
    if spoilt:
        fed = [rules["spoil_stake"]] * size
        fed[dealer] = rules["dealer_extra"]
    else:
        fed = [rules["stake"]] * size
        fed[dealer] += rules["dealer_extra"]
    return fed


def _read(hand: Any, number: int, problems: Problems, index: dict[str, int]):
    """(tricks as seat indexes, jink) or None after a problem."""
    if not isinstance(hand, dict):
        return None
    ok = True
    for key in hand:
        if key not in FIELDS:
            problems.add(number, str(key), _("Unknown field “%(name)s” in this hand."), name=str(key))
            ok = False
    jink = hand.get("jink")
    if jink is None:
        jink = False
    elif not isinstance(jink, bool):
        problems.add(number, "jink", _("Jink must be true or false."))
        ok = False
    value = hand.get("tricks")
    tricks = None
    if value is None:
        problems.add(number, "tricks", _("Enter who won each trick, in the order they were played."))
    elif not isinstance(value, list):
        problems.add(number, "tricks", _("Tricks must be a list of who won each trick, in playing order."))
    elif not 3 <= len(value) <= TRICKS:
        problems.add(number, "tricks", _("Enter three to five tricks, not %(count)s."), count=len(value))
    else:
        tricks = []
        for winner in value:
            seat = index.get(winner) if isinstance(winner, str) else None
            if seat is None:
                problems.add(number, "tricks", _("“%(name)s” is not a player at this table."), name=str(winner)[:40])
                tricks = None
                break
            tricks.append(seat)
    if not ok or tricks is None:
        return None
    return tricks, jink


def _judge(tricks: list[int], jink: bool, size: int, relative: bool, number: int, problems: Problems):
    """(winner or None, jink state, trick count played) or None after a problem."""
    count = len(tricks)
    if jink:
        jinker = tricks[0]
        if tricks[1] != jinker or tricks[2] != jinker:
            problems.add(number, "jink", _("Only a player who won the first three tricks may jink."))
            return None
        if count < 4:
            problems.add(number, "tricks", _("After a jink the hand goes on: enter the fourth trick."))
            return None
        if tricks[3] != jinker:
            return None, "failed", 4
        if count < TRICKS:
            problems.add(number, "tricks", _("After a jink the hand goes on: enter the fifth trick."))
            return None
        if tricks[4] != jinker:
            return None, "failed", 5
        return jinker, "made", 5
    counts = [0] * size
    for k, seat in enumerate(tricks):
        counts[seat] += 1
        if counts[seat] == 3:
            return seat, None, k + 1
    if count < TRICKS:
        problems.add(
            number,
            "tricks",
            _("Nobody has three tricks after %(count)s: enter all five tricks."),
            count=count,
        )
        return None
    if relative:
        best = max(counts)
        if best == 2 and counts.count(2) == 1:
            return counts.index(2), None, TRICKS
    return None, None, TRICKS


def replay(sitting: Sitting) -> ReplayResult:
    rules = sitting.rules
    players = sitting.players
    size = len(players)
    index = {p: i for i, p in enumerate(players)}
    stake = rules["stake"]
    relative = rules["relative_majority"]
    problems = Problems()
    totals = [0] * size
    pot = 0
    spoilt = False
    hands = []
    for i, hand in enumerate(sitting.hands):
        number = i + 1
        dealer = i % size
        read = _read(hand, number, problems, index)
        judged = _judge(read[0], read[1], size, relative, number, problems) if read else None
        result: dict[str, Any] = {"number": number, "dealer": players[dealer], "active": list(players)}
        if judged is None:
            zero = dict.fromkeys(players, 0)
            result.update(
                deltas=zero,
                totals=dict(zip(players, totals, strict=True)),
                pot=pot,
                pot_winner=None,
                jink=None,
                ignored_tricks=[],
                fed=dict(zero),
                hand_winners=[],
                game_winner=None,
            )
            hands.append(result)
            continue
        tricks = read[0]
        winner, jink_state, played = judged
        fed = _feed(rules, size, dealer, spoilt)
        deltas = [-f for f in fed]
        pot += sum(fed)
        if winner is not None:
            deltas[winner] += pot
            pot = 0
            if jink_state == "made":
                for seat in range(size):
                    if seat != winner:
                        deltas[seat] -= stake
                        deltas[winner] += stake
            spoilt = False
        else:
            spoilt = True
        for seat in range(size):
            totals[seat] += deltas[seat]
        result.update(
            deltas=dict(zip(players, deltas, strict=True)),
            totals=dict(zip(players, totals, strict=True)),
            pot=pot,
            pot_winner=None if winner is None else players[winner],
            jink=jink_state,
            ignored_tricks=list(range(played + 1, len(tricks) + 1)),
            fed=dict(zip(players, fed, strict=True)),
            # scoring.results: the pot winner won the hand, and the game the pot was (a pot
            # carried over spoilt hands is one game); a spoilt hand has no winner.
            hand_winners=[] if winner is None else [players[winner]],
            game_winner=None if winner is None else players[winner],
        )
        hands.append(result)
    problems.raise_if_any()
    seat = len(hands) % size
    return {
        "parties": list(players),
        "hands": hands,
        "totals": dict(zip(players, totals, strict=True)),
        "next": {
            "dealer": players[seat],
            "active": list(players),
            "feed": dict(zip(players, _feed(rules, size, seat, spoilt), strict=True)),
        },
        "pot": pot,
    }


SPOIL_FIVE = GameSpec(
    key="spoil_five",
    label=_("Spoil Five"),
    options=OPTIONS,
    presets=PRESETS,
    default_preset="standard",
    replay=replay,
    min_players=2,
    max_players=10,
    extra_fields=frozenset(),
    preset_labels={"standard": _("Spoil Five")},
    hand_fields=FIELDS,
)

NAMES = ("Anna", "Ben", "Carl", "Dora", "Emil", "Fritz", "Greta", "Hans", "Ida", "Jonas")


def example_request(rng: random.Random, hands: int, **kw: Any) -> dict[str, Any]:
    """A valid Spoil Five request with ``hands`` random hands, recorded until each hand stopped.

    Keyword arguments: ``variant``, ``rules`` (overrides), ``players`` (a count or names).
    """
    variant = kw.get("variant") or "standard"
    overrides = kw.get("rules") or {}
    players = kw.get("players", rng.choice((3, 4, 5, 5, 6)))
    if isinstance(players, int):
        players = list(NAMES[:players])
    players = list(players)
    out = []
    for _i in range(hands):
        if rng.random() < 0.06:
            jinker = rng.choice(players)
            tricks = [jinker] * 3
            for _k in range(2):
                tricks.append(jinker if rng.random() < 0.6 else rng.choice(players))
                if tricks[-1] != jinker:
                    break
            out.append({"tricks": tricks, "jink": True})
            continue
        tricks = []
        counts = dict.fromkeys(players, 0)
        for _k in range(TRICKS):
            winner = rng.choice(players)
            tricks.append(winner)
            counts[winner] += 1
            if counts[winner] == 3:
                break
        if len(tricks) < TRICKS and rng.random() < 0.2:
            tricks += [rng.choice(players) for _k in range(TRICKS - len(tricks))]  # played on, ignored
        out.append({"tricks": tricks})
    request = {"game": "spoil_five", "variant": variant, "players": players, "hands": out}
    if overrides:
        request["rules"] = overrides
    return request
