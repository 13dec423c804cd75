"""What a club night's pages show, in the players' words: each table's line (its players in
seat order with the figure the table ranks by, the hands played, whether it ended) and the
night's standings with the method that combined them.

The scores stay exact (``scoring.club_night`` gives Fractions); they are rounded here for
display only: points as integers, points per game to two decimals, placings in halves (½).
"""

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from leagues import games
from leagues.models import Combine
from leagues.table import night_selectors

# What each method does, in a sentence under the standings (docs/decisions.md, "Club nights").
METHOD_WORDS = {
    Combine.POINTS: _("Each player keeps the points his table gave him."),
    Combine.PER_GAME: _(
        "Points per game, counted over the night's average number of games, so that a table playing more games "
        "weighs no more."
    ),
    Combine.PLACINGS: _(
        "A point for each player at one's own table who finished behind, half a point for each one level."
    ),
}


def signed(number) -> str:
    """A figure the sheet's way: +12, 0, −4 (a real minus sign); ``number`` an int or a
    Decimal, shown in the page's language."""
    text = number_format(abs(number)) if isinstance(number, Decimal) else str(abs(number))
    return f"+{text}" if number > 0 else (f"−{text}" if number < 0 else text)


def score_text(score, *, method, race=False) -> str:
    """The combined score as shown: an integer (points), two decimals rounded half up (per
    game) or whole and half points (placings). A race game's figures are games won: no sign."""
    if method == Combine.PER_GAME:
        value = (Decimal(score.numerator) / Decimal(score.denominator)).quantize(Decimal("0.01"), ROUND_HALF_UP)
        return number_format(value, 2) if race else signed(value)
    if method == Combine.PLACINGS:
        whole, half = divmod(int(score * 2), 2)
        return f"{whole or ''}½" if half else str(whole)
    return str(int(score)) if race else signed(int(score))


def season_score_text(score, *, shown_as, race=False) -> str:
    """A season's score (its evenings' combined scores added, ``ranking.EveningScores``) as
    shown: rounded as the night page rounds the way its evenings counted (``shown_as``); a
    season of placings and points as scored may fall below zero: "−3½"."""
    if shown_as == Combine.PLACINGS and score < 0:
        return f"−{score_text(-score, method=shown_as, race=race)}"
    return score_text(score, method=shown_as, race=race)


def bill_score_text(score) -> str:
    """A score the bill was split by, as the bill's table shows it (the sign before a gain is
    the page's): a whole number as it is, halves as "3½", anything else to two decimals."""
    score = Fraction(score)
    if score.denominator == 1:
        return str(int(score))
    sign = "-" if score < 0 else ""
    if score.denominator == 2:
        return f"{sign}{score_text(abs(score), method=Combine.PLACINGS)}"
    return f"{sign}{score_text(abs(score), method=Combine.PER_GAME, race=True)}"


def figure_text(points, *, race) -> str:
    """The figure a table ranks a player by: his total, or in a race game his games won."""
    if race:
        return ngettext("%(games)s game won", "%(games)s games won", points) % {"games": points}
    return signed(points)


def night_context(night, tables) -> dict:
    """Both parts of the members' night page: its tables' lines and its standings. Three
    queries whatever the number of tables: the seats, the results, the hands played."""
    seated = night_selectors.night_seats(tables=tables)
    rows = night_selectors.night_standings(night=night, tables=tables, seated=seated)
    hands = night_selectors.hands_played(tables=tables)
    race = games.is_race_game(night.league.game)
    figures = {(row.meeting_id, row.player_id): row.points for row in rows}
    lines = [
        {
            "meeting": table,
            "number": table.table_number,
            "hands": hands.get(table.pk, 0),
            "closed": table.closed_at is not None,
            "players": [
                (name, figure_text(figures.get((table.pk, player), 0), race=race))
                for player, name in seated.get(table.pk, {}).items()
            ],
        }
        for table in tables
    ]
    return {"table_lines": lines, **standings_context(night, tables, rows=rows)}


def standings_context(night, tables, *, rows=None) -> dict:
    """The night's standings as shown: the method in words and a line a player (place, name,
    table, the score and, where the score is not the table's own figure, that figure and the
    games played); whether every table has ended, and then who won the evening."""
    if rows is None:
        rows = night_selectors.night_standings(night=night, tables=tables)
    race = games.is_race_game(night.league.game)
    method = night.combine
    over = bool(tables) and all(table.closed_at is not None for table in tables)
    return {
        "method": Combine(method).label,
        "method_words": METHOD_WORDS.get(method, ""),
        "night_rows": [
            {
                "place": row.place,
                "name": row.name,
                "table": row.table,
                "score": score_text(row.score, method=method, race=race),
                "figure": None if method == Combine.POINTS else figure_text(row.points, race=race),
                "games": row.games,
            }
            for row in rows
        ],
        "night_over": over,
        "night_winner": rows[0].name if over and rows else None,
    }
