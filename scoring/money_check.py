"""The facts of an evening that its money is settled from, checked (``scoring/money.py``).

Every problem is collected and raised at once as ``ScoringError``, each on the field of
``settle_evening`` it is about (``players``, ``totals``, ``games``, ``matches``,
``lost_solos``, ``attended``, ``missed_pennant``), as the games report theirs. Names are
players' names as the sheet shows them; winners and losers come out in seat order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import Problems, _
from .limits import MAX_HANDS, MAX_TOTAL

# Ten play at most at one table (the Maw family); a club evening with several tables is
# settled table by table or as one, so leave room.
MAX_PLAYERS = 100


@dataclass(frozen=True)
class Facts:
    players: tuple[str, ...]
    totals: Mapping[str, int]
    games: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]
    matches: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]
    lost_solos: Mapping[str, int]
    attended: tuple[str, ...]
    missed_pennant: str | None


def check_facts(
    *,
    players: Any,
    totals: Any,
    games: Any,
    matches: Any,
    lost_solos: Any,
    attended: Any,
    missed_pennant: Any,
    needs_totals: bool,
) -> Facts:
    """The facts in seat order; raises ScoringError with every problem."""
    problems = Problems()
    seats = _players(players, problems)
    problems.raise_if_any()
    facts = Facts(
        players=seats,
        totals=_totals(totals, seats, needs_totals, problems),
        games=_outcomes("games", games, seats, problems),
        matches=_outcomes("matches", matches, seats, problems),
        lost_solos=_lost_solos(lost_solos, seats, problems),
        attended=_attended(attended, seats, problems),
        missed_pennant=_pennant(missed_pennant, seats, problems),
    )
    problems.raise_if_any()
    return facts


def _players(players: Any, problems: Problems) -> tuple[str, ...]:
    if (
        not isinstance(players, (list, tuple))
        or not 1 <= len(players) <= MAX_PLAYERS
        or not all(isinstance(p, str) and p.strip() for p in players)
        or len(set(players)) != len(players)
    ):
        problems.add(None, "players", _("Name the players in seat order, each once, at most %(max)s."), max=MAX_PLAYERS)
        return ()
    return tuple(players)


def _totals(totals: Any, seats: tuple[str, ...], needed: bool, problems: Problems) -> Mapping[str, int]:
    if totals is None and not needed:
        return {}
    if (
        not isinstance(totals, Mapping)
        or set(totals) != set(seats)
        or not all(type(v) is int and abs(v) <= MAX_TOTAL for v in totals.values())
    ):
        problems.add(
            None,
            "totals",
            _("Give each player's total of the evening, a whole number from %(min)s to %(max)s."),
            min=-MAX_TOTAL,
            max=MAX_TOTAL,
        )
        return {}
    return dict(totals)


def _outcomes(name: str, outcomes: Any, seats: tuple[str, ...], problems: Problems) -> tuple:
    """Each game (or match) as (winners, losers), each in seat order."""
    if not isinstance(outcomes, (list, tuple)) or len(outcomes) > MAX_HANDS:
        problems.add(None, name, _("Give a list of at most %(max)s, each with its winners and losers."), max=MAX_HANDS)
        return ()
    checked = []
    for number, outcome in enumerate(outcomes, start=1):
        sides = _sides(outcome, seats)
        if sides is None:
            problems.add(
                None,
                name,
                _(
                    "Number %(number)s: name its winners and its losers, each a player of the evening, none on both sides."
                ),
                number=number,
            )
        else:
            checked.append(sides)
    return tuple(checked)


def _sides(outcome: Any, seats: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    if not isinstance(outcome, Mapping):
        return None
    winners, losers = outcome.get("winners"), outcome.get("losers")
    if not _names_of(winners, seats) or not _names_of(losers, seats) or set(winners) & set(losers):
        return None
    return _in_seat_order(winners, seats), _in_seat_order(losers, seats)


def _names_of(names: Any, seats: tuple[str, ...]) -> bool:
    """A list of players of the evening, each once (empty is allowed)."""
    return isinstance(names, (list, tuple)) and all(n in seats for n in names) and len(set(names)) == len(names)


def _in_seat_order(names: Sequence[str], seats: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(p for p in seats if p in names)


def _lost_solos(lost: Any, seats: tuple[str, ...], problems: Problems) -> Mapping[str, int]:
    if lost is None:
        return {}
    if not isinstance(lost, Mapping) or not all(
        p in seats and type(n) is int and 0 <= n <= MAX_HANDS for p, n in lost.items()
    ):
        problems.add(
            None,
            "lost_solos",
            _("Give the solos each player lost, a whole number from 0 to %(max)s, naming players of the evening."),
            max=MAX_HANDS,
        )
        return {}
    return dict(lost)


def _attended(attended: Any, seats: tuple[str, ...], problems: Problems) -> tuple[str, ...]:
    if attended is None:
        return seats
    if not _names_of(attended, seats):
        problems.add(None, "attended", _("Name who was there, each once, from the players of the evening."))
        return ()
    return _in_seat_order(attended, seats)


def _pennant(name: Any, seats: tuple[str, ...], problems: Problems) -> str | None:
    if name is not None and name not in seats:
        problems.add(
            None, "missed_pennant", _("Who forgot the pennant must be one of the players of the evening, or nobody.")
        )
        return None
    return name
