"""Players ranked by their figures: the rows of a table of standings, and an evening's winner.

Shared by the standings, a season's bill and its report. A season counts each evening by its
combined score (``EveningScores``): a club night by the way it combined its tables, an evening
at one table as a night of one table under the league's way. Where every evening counts the
points as scored (the default) that score is the total (a race game: the games won), and the
table ranks as it always did.
"""

from dataclasses import dataclass
from fractions import Fraction

from leagues.models import (
    Player,
)
from scoring import club_night


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
    # The season's figure: each evening's combined score (``EveningScores``), added up.
    score: Fraction = Fraction(0)

    @property
    def average(self) -> Fraction | None:
        """Points per game played here, exact; None without a game (an evening imported as
        totals has no games to share its points: the table shows no average then)."""
        return Fraction(self.total - self.imported_total, self.games) if self.games else None

    def add(self, figures):
        for name in ("total", "games", "wins", "solos", "solos_won", "games_won", "points", "imported_total"):
            setattr(self, name, getattr(self, name) + (figures.get(name) or 0))


def _sort_key(*, race, by_score):
    first = (lambda r: (-r.score,)) if by_score else (lambda r: ())
    if race:
        return lambda r: (*first(r), -r.games_won, -r.points, r.player.name.casefold())
    return lambda r: (*first(r), -r.total, -r.wins, r.player.name.casefold())


def _figure(*, race, by_score):
    first = (lambda r: (r.score,)) if by_score else (lambda r: ())
    if race:
        return lambda r: (*first(r), r.games_won, r.points)
    return lambda r: (*first(r), r.total)


def rank_rows(rows, *, race, by_score=False):
    """Sort best first; equal figures share a place (1, 1, 3). ``by_score``: by the season's
    score first, then as without it."""
    rows.sort(key=_sort_key(race=race, by_score=by_score))
    figure = _figure(race=race, by_score=by_score)
    for i, row in enumerate(rows):
        row.rank = rows[i - 1].rank if i and figure(rows[i - 1]) == figure(row) else i + 1
    return rows


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


def ranks_by_score(methods) -> bool:
    """Whether a season whose evenings count by ``methods`` ranks by its score: when one
    counts otherwise than by the points as scored."""
    return any(method != "points" for method in methods)


class EveningScores:
    """A season's result rows gathered by evening and table (``add``), each evening combined
    by ``scoring.club_night.evening_scores``: a club night by its own method (``night_method``),
    an evening at one table as a night of one table under ``league_method`` (the league's
    current way). A table ranks by its totals, a race game's by the games won."""

    def __init__(self, *, race: bool, league_method: str):
        self.race = race
        self.league_method = league_method
        self._evenings: dict[tuple, tuple[str, dict]] = {}

    def add(self, *, meeting_id, night_id, night_method, player_id, total, games_won, games) -> None:
        """One MeetingResult row's figures."""
        key, method = (("night", night_id), night_method) if night_id else (("meeting", meeting_id), self.league_method)
        _method, tables = self._evenings.setdefault(key, (method, {}))
        figure = games_won if self.race else total
        tables.setdefault(meeting_id, {})[player_id] = club_night.Played(figure, games)

    @property
    def by_score(self) -> bool:
        """Whether an evening counts otherwise than by the points as scored: then the season
        ranks by its score and shows it."""
        return ranks_by_score(method for method, _tables in self._evenings.values())

    @property
    def shown_as(self) -> str:
        """How a season's score is rounded for display: to two decimals where an evening
        counted points per game, in halves where one counted placings, else whole points."""
        methods = {method for method, _tables in self._evenings.values()}
        return next((m for m in ("per_game", "placings") if m in methods), "points")

    def per_evening(self) -> dict[tuple, dict]:
        """{evening key: {player id: his combined score}}; a key is ("night", night id) or
        ("meeting", meeting id)."""
        return {
            key: club_night.evening_scores(method=method, tables=list(tables.values()))
            for key, (method, tables) in self._evenings.items()
        }

    def totals(self) -> dict:
        """{player id: the season's score}, every evening's combined score added."""
        totals: dict = {}
        for scores in self.per_evening().values():
            for player_id, score in scores.items():
                totals[player_id] = totals.get(player_id, Fraction(0)) + score
        return totals

    def rank(self, rows: list[StandingRow], *, by_score: bool | None = None) -> list[StandingRow]:
        """``rows`` with their scores, ranked as the season ranks (``by_score``: whether by the
        score, when the caller knows it from evenings not all gathered here)."""
        totals = self.totals()
        for row in rows:
            row.score = totals.get(row.player.pk, Fraction(0))
        return rank_rows(rows, race=self.race, by_score=self.by_score if by_score is None else by_score)
