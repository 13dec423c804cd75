"""A club night's evening: several tables played at once, made one evening's standings.

Every player sits at one table. A table reports, per player, the figure its own standings rank
by (``points``: the points of the evening, or the games won in a race game) and the games he
played. How the tables are combined is the league's choice (``METHODS``):

- ``points``: the points as each table scored them, added into one list;
- ``per_game``: points per game played, counted over the night's average number of games (a
  player's points per game times the mean games played by the night's players who played a
  game), so that a table that played more games (or a player who sat out more often) weighs no
  more than the others and the score stays in points, as a season adds it to evenings at one
  table; a night where nobody played a game (copied from paper as totals) counts the points as
  scored, having no games to divide by;
- ``placings``: a point for each player at one's own table who finished behind, half a point
  for each one level with (as a chess table counts a draw), so a table's winner scores as many
  points as his table had opponents.

Ties in the combined score are broken by the points as scored; players level in both share a
place. The evening's winner (the pennant) is the first of the list, and among players level at
the top the one at the lowest table number and seat, as an evening at one table gives it to
the first in seat order. Scores are exact (``Fraction``); pages round them for display only.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .errors import Problems, _

METHODS = ("points", "per_game", "placings")


@dataclass(frozen=True)
class Played:
    """One player's evening at his table: the figure the table ranks by and the games played."""

    points: int
    games: int


@dataclass(frozen=True)
class NightStanding:
    place: int  # shared by players level in score and points
    player: Hashable  # a name, or whatever the caller keys its players by
    table: int  # 1-based, as the night numbers its tables
    score: Fraction  # the combined figure the night ranks by
    points: int
    games: int


def combine(*, method: str, tables: Sequence[Mapping[Hashable, Played]]) -> list[NightStanding]:
    """The night's standings: ``tables`` in table order, each mapping its players, in seat
    order, to what they played. Raises ``ScoringError`` for an unknown method or a player at two
    tables."""
    _check(method, tables)
    mean = _mean_games(tables)
    rows = []
    for number, table in enumerate(tables, start=1):
        for seat, (player, played) in enumerate(table.items()):
            score = _score(method, table, played, mean)
            rows.append((score, played.points, number, seat, player, played))
    rows.sort(key=lambda row: (-row[0], -row[1], row[2], row[3]))
    standings, place, before = [], 0, None
    for index, (score, points, number, _seat, player, played) in enumerate(rows, start=1):
        if (score, points) != before:
            place, before = index, (score, points)
        standings.append(
            NightStanding(place=place, player=player, table=number, score=score, points=points, games=played.games)
        )
    return standings


def evening_scores(*, method: str, tables: Sequence[Mapping[Hashable, Played]]) -> dict[Hashable, Fraction]:
    """Each player's combined score of one evening, as ``combine`` ranks by: what a season adds
    up, evening by evening (an evening at one table is a night of one table)."""
    return {row.player: row.score for row in combine(method=method, tables=tables)}


def winner(standings: Sequence[NightStanding]) -> Hashable | None:
    """Who wins the night (and brings the pennant): the first of the standings."""
    return standings[0].player if standings else None


def _mean_games(tables: Sequence[Mapping[Hashable, Played]]) -> Fraction | None:
    """The night's average number of games: the mean over its players who played a game (one
    who played none adds nothing to divide); None when nobody played one."""
    games = [played.games for table in tables for played in table.values() if played.games]
    return Fraction(sum(games), len(games)) if games else None


def _score(method: str, table: Mapping[Hashable, Played], played: Played, mean: Fraction | None) -> Fraction:
    if method == "points" or (method == "per_game" and mean is None):
        return Fraction(played.points)
    if method == "per_game":
        return Fraction(played.points, played.games) * mean if played.games else Fraction(0)
    others = list(table.values())
    behind = sum(1 for theirs in others if theirs.points < played.points)
    level = sum(1 for theirs in others if theirs.points == played.points) - 1  # not himself
    return behind + Fraction(level, 2)


def _check(method: str, tables: Sequence[Mapping[Hashable, Played]]) -> None:
    problems = Problems()
    if method not in METHODS:
        problems.add(None, "method", _("Unknown way to combine tables: %(method)s."), method=method)
    seen: set[Hashable] = set()
    for table in tables:
        for player in table:
            if player in seen:
                problems.add(None, "tables", _("%(player)s sits at two tables."), player=player)
            seen.add(player)
    problems.raise_if_any()
