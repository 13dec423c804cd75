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
# After a jink the hand goes on: the trick (0-based) that must be entered, and what to say.
JINK_GOES_ON = {
    3: _("After a jink the hand goes on: enter the fourth trick."),
    4: _("After a jink the hand goes on: enter the fifth trick."),
}

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
    fields_ok = True
    for key in hand:
        if key not in FIELDS:
            problems.add(number, str(key), _("Unknown field “%(name)s” in this hand."), name=str(key))
            fields_ok = False
    jink = hand.get("jink")
    jink_ok = jink is None or isinstance(jink, bool)
    if not jink_ok:
        problems.add(number, "jink", _("Jink must be true or false."))
    tricks = _read_tricks(hand.get("tricks"), number, problems, index)
    if not (fields_ok and jink_ok) or tricks is None:
        return None
    return tricks, bool(jink)


def _read_tricks(value: Any, number: int, problems: Problems, index: dict[str, int]) -> list[int] | None:
    """Three to five trick winners in playing order, as seats; None after a problem."""
    if value is None:
        problems.add(number, "tricks", _("Enter who won each trick, in the order they were played."))
        return None
    if not isinstance(value, list):
        problems.add(number, "tricks", _("Tricks must be a list of who won each trick, in playing order."))
        return None
    if not 3 <= len(value) <= TRICKS:
        problems.add(number, "tricks", _("Enter three to five tricks, not %(count)s."), count=len(value))
        return None
    tricks = []
    for winner in value:
        seat = index.get(winner) if isinstance(winner, str) else None
        if seat is None:
            problems.add(number, "tricks", _("“%(name)s” is not a player at this table."), name=str(winner)[:40])
            return None
        tricks.append(seat)
    return tricks


def _judge(tricks: list[int], jink: bool, size: int, relative: bool, number: int, problems: Problems):
    """(winner or None, jink state, trick count played) or None after a problem."""
    if jink:
        return _judge_jink(tricks, number, problems)
    counts = [0] * size
    for k, seat in enumerate(tricks):
        counts[seat] += 1
        if counts[seat] == 3:
            return seat, None, k + 1
    if len(tricks) < TRICKS:
        problems.add(
            number,
            "tricks",
            _("Nobody has three tricks after %(count)s: enter all five tricks."),
            count=len(tricks),
        )
        return None
    if relative and max(counts) == 2 and counts.count(2) == 1:
        return counts.index(2), None, TRICKS  # two tricks, nobody else more than one
    return None, None, TRICKS


def _judge_jink(tricks: list[int], number: int, problems: Problems):
    """A jink: the first three tricks won, the hand goes on until the jinker loses a trick."""
    jinker = tricks[0]
    if tricks[1] != jinker or tricks[2] != jinker:
        problems.add(number, "jink", _("Only a player who won the first three tricks may jink."))
        return None
    for k in (3, 4):
        if len(tricks) <= k:
            problems.add(number, "tricks", JINK_GOES_ON[k])
            return None
        if tricks[k] != jinker:
            return None, "failed", k + 1
    return jinker, "made", TRICKS


class _Pot:
    """The chips of a sitting: each player's total, the pot, whether the last hand was spoilt."""

    def __init__(self, rules: dict[str, Any], players: tuple[str, ...]):
        self.rules = rules
        self.players = players
        self.size = len(players)
        self.totals = [0] * self.size
        self.pot = 0
        self.spoilt = False

    def by_player(self, values) -> dict[str, int]:
        return dict(zip(self.players, values, strict=True))

    def nothing(self) -> dict[str, Any]:
        """An invalid hand feeds nothing and changes nothing."""
        zero = dict.fromkeys(self.players, 0)
        return {
            "deltas": zero,
            "totals": self.by_player(self.totals),
            "pot": self.pot,
            "pot_winner": None,
            "jink": None,
            "ignored_tricks": [],
            "fed": dict(zero),
            "hand_winners": [],
            "game_winner": None,
        }

    def play(self, dealer: int, winner: int | None, jink_state: str | None, ignored: list[int]) -> dict[str, Any]:
        """Feed the pot, then pay it to the winner (a made jink also takes the stake from each
        other player); with no winner the hand is spoilt and the pot stays. ``ignored``: the
        tricks recorded after the hand stopped."""
        fed = _feed(self.rules, self.size, dealer, self.spoilt)
        deltas = [-f for f in fed]
        self.pot += sum(fed)
        self.spoilt = winner is None
        if winner is not None:
            deltas[winner] += self.pot
            self.pot = 0
            if jink_state == "made":
                stake = self.rules["stake"]
                for seat in range(self.size):
                    if seat != winner:
                        deltas[seat] -= stake
                        deltas[winner] += stake
        for seat in range(self.size):
            self.totals[seat] += deltas[seat]
        name = None if winner is None else self.players[winner]
        return {
            "deltas": self.by_player(deltas),
            "totals": self.by_player(self.totals),
            "pot": self.pot,
            "pot_winner": name,
            "jink": jink_state,
            "ignored_tricks": ignored,
            "fed": self.by_player(fed),
            # scoring.results: the pot winner won the hand, and the game the pot was (a pot
            # carried over spoilt hands is one game); a spoilt hand has no winner.
            "hand_winners": [] if name is None else [name],
            "game_winner": name,
        }


def replay(sitting: Sitting) -> ReplayResult:
    rules = sitting.rules
    players = sitting.players
    size = len(players)
    index = {p: i for i, p in enumerate(players)}
    problems = Problems()
    table = _Pot(rules, players)
    hands = []
    for i, hand in enumerate(sitting.hands):
        number = i + 1
        dealer = i % size
        read = _read(hand, number, problems, index)
        judged = _judge(read[0], read[1], size, rules["relative_majority"], number, problems) if read else None
        result: dict[str, Any] = {"number": number, "dealer": players[dealer], "active": list(players)}
        if judged is None:
            result.update(table.nothing())
        else:
            winner, jink_state, played = judged
            result.update(table.play(dealer, winner, jink_state, list(range(played + 1, len(read[0]) + 1))))
        hands.append(result)
    problems.raise_if_any()
    seat = len(hands) % size
    return {
        "parties": list(players),
        "hands": hands,
        "totals": table.by_player(table.totals),
        "next": {
            "dealer": players[seat],
            "active": list(players),
            "feed": table.by_player(_feed(rules, size, seat, table.spoilt)),
        },
        "pot": table.pot,
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
            out.append({"tricks": _random_jink(rng, players), "jink": True})
        else:
            out.append({"tricks": _random_tricks(rng, players)})
    request = {"game": "spoil_five", "variant": variant, "players": players, "hands": out}
    if overrides:
        request["rules"] = overrides
    return request


def _random_jink(rng: random.Random, players: list[str]) -> list[str]:
    """The first three tricks to one player, who plays on until he loses one."""
    jinker = rng.choice(players)
    tricks = [jinker] * 3
    for _k in range(2):
        tricks.append(jinker if rng.random() < 0.6 else rng.choice(players))
        if tricks[-1] != jinker:
            break
    return tricks


def _random_tricks(rng: random.Random, players: list[str]) -> list[str]:
    """Tricks until someone has three, now and then played on (the extra tricks are ignored)."""
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
    return tricks
