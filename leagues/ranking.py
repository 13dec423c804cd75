"""Players ranked by their figures: the rows of a table of standings, and an evening's winner.

Shared by the standings, a season's bill and its report.
"""

from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Q, Sum

from leagues.models import (
    Player,
)


@dataclass
class StandingRow:
    player: Player
    total: int = 0  # sum of deltas (56: the team's deltas, each member gets them)
    games: int = 0  # hands in which the player was active
    wins: int = 0
    solos: int = 0
    solos_won: int = 0
    games_won: int = 0  # race games: Partien won
    points: int = 0  # race games: points scored in all hands, resets undone
    evenings_won: int = 0
    rank: int = 0
    # The part of ``total`` copied from paper as evenings' totals (no games behind it).
    imported_total: int = 0

    @property
    def average(self) -> Fraction | None:
        """Points per game played here, exact; None without a game (an evening imported as
        totals has no games to share its points: the table shows no average then)."""
        return Fraction(self.total - self.imported_total, self.games) if self.games else None

    def add(self, figures):
        for name in ("total", "games", "wins", "solos", "solos_won", "games_won", "points", "imported_total"):
            setattr(self, name, getattr(self, name) + (figures.get(name) or 0))


def _sort_key(*, race):
    if race:
        return lambda r: (-r.games_won, -r.points, r.player.name.casefold())
    return lambda r: (-r.total, -r.wins, r.player.name.casefold())


def rank_rows(rows, *, race):
    """Sort best first; equal figures share a place (1, 1, 3)."""
    rows.sort(key=_sort_key(race=race))
    figure = (lambda r: (r.games_won, r.points)) if race else (lambda r: r.total)
    for i, row in enumerate(rows):
        row.rank = rows[i - 1].rank if i and figure(rows[i - 1]) == figure(row) else i + 1
    return rows


def ranked(rows, *, race):
    """``rows`` (StandingRows) sorted and ranked as every table here is."""
    return rank_rows(rows, race=race)


def evening_winner(figures_by_player, seat_order, *, race):
    """The winner of one meeting: highest total (race games: most games won, then points);
    ties go to the first of them in that meeting's seat order."""
    if not figures_by_player:
        return None

    def key(player_id):
        f = figures_by_player[player_id]
        best = (f["games_won"], f.get("points", 0)) if race else (f["total"],)
        return tuple(-x for x in best) + (seat_order.get(player_id, 999),)

    return min(figures_by_player, key=key)


# The figures a MeetingResult row holds for a StandingRow.
TABLE_FIGURES = ("total", "games", "wins", "solos", "solos_won", "games_won", "points")
# The totals of evenings copied from paper (Meeting.imported_totals), for StandingRow.average.
IMPORTED_TOTAL = Sum("total", filter=Q(meeting__imported_totals=True))


def standing_row(player, figures, *, race):
    """A StandingRow of ``figures`` (TABLE_FIGURES then imported_total, in that order)."""
    total, games, wins, solos, solos_won, games_won, points, imported_total = figures
    return StandingRow(
        player=player,
        total=total,
        games=games,
        wins=wins,
        solos=solos,
        solos_won=solos_won,
        games_won=games_won,
        points=points if race else 0,
        imported_total=imported_total,
    )


# The figures of a season's MeetingResult rows the standings read, after its meeting and player.
SEASON_FIGURES = ("hands", "won_evening", *TABLE_FIGURES)
