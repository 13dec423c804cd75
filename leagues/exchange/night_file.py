"""A league's club nights (several tables in one evening) in its JSON export and back.

The file lists the nights under ``club_nights`` (date, host, how the tables are combined, who
opened it), in playing order; each meeting that is a table of one names the night by its place
in that list (1 for the first) and its table number. A meeting of an evening at one table has
neither, and a file without ``club_nights`` has no nights.

An import reads them as strictly as the rest of the file (leagues/exchange/import_checks.py)
and holds them to what ``leagues.table.nights.open_club_night`` makes: two tables or more,
numbered 1, 2, … in the night, all on the night's date and in one season, every player at one
table only, and every table hosted by the night's host (a player of the league: the start page
seats him at a table, a tournament's round may be hosted by someone who does not play).

A tournament's round is a club night: it travels as one, naming its tournament (its place in
the file's ``tournaments``) and its round number, its tables' games as any table's
(leagues/exchange/tournament_file.py). A night's season is that of its tables, so the file
does not say it twice.

Who opened a night is written as the league knows him, as everywhere in the file; a night
keeps no name beside its account, so an imported night names nobody.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from leagues.exchange import import_checks as checks
from leagues.exchange import tournament_file
from leagues.exchange.import_checks import ImportProblem
from leagues.models import ClubNight, Combine, League, Meeting, Player, Season, Tournament

KEY = "club_nights"


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


# --- out -----------------------------------------------------------------------------------


def export_nights(
    league: League, players: dict[int, str], who, tournaments: dict[int, int]
) -> tuple[list[dict[str, Any]], dict[int, int]]:
    """The league's nights as the file has them, and each night's place in that list by its
    id (for its tables); ``tournaments``: each tournament's place in the file, by its id. One
    query."""
    nights = list(ClubNight.objects.filter(league=league).order_by("date", "id"))
    items = [
        {
            "date": _iso(night.date),
            "host": players.get(night.host_id),
            "combine": night.combine,
            "created_by": who(night.created_by_id),
            # A tournament's round: its tournament's place in the file and its number.
            **tournament_file.night_fields(night, tournaments),
        }
        for night in nights
    ]
    return items, {night.pk: i for i, night in enumerate(nights, start=1)}


def meeting_fields(meeting: Meeting, places: dict[int, int]) -> dict[str, int | None]:
    """A meeting's night (its place in ``club_nights``) and table number; both None for an
    evening at one table."""
    return {"club_night": places.get(meeting.club_night_id), "table_number": meeting.table_number}


def league_combine(source: Any) -> str:
    """The league's choice of how a night's tables are combined (``league.combine_tables``;
    missing: the default)."""
    found = checks.value(source, "combine_tables", "league", str, required=False)
    if found is None:
        return Combine.POINTS
    return _combine(found, "league.combine_tables")


def _combine(found: str, where: str) -> str:
    if found not in Combine.values:
        raise ImportProblem(where, _("one of %(methods)s.") % {"methods": ", ".join(Combine.values)})
    return found


# --- in ------------------------------------------------------------------------------------


@dataclass
class _Night:
    """A night of the file as read, and what its tables have said so far."""

    where: str
    date: Any
    host: Player
    combine: str
    tournament: Tournament | None  # a tournament's round, with its number
    round_number: int | None
    row: ClubNight | None = None  # stored with its first table, which gives its season
    numbers: set[int] = field(default_factory=set)
    seated: set[int] = field(default_factory=set)  # player ids at its tables


@dataclass(frozen=True)
class Table:
    """What a meeting of the file is as a table of a night: its night, number and host."""

    night: ClubNight
    number: int
    host: Player


class Nights:
    """The file's club nights: read from its head (``club_nights``), each a round of a
    tournament of ``tournaments`` or a club's own, stored with its first table, checked
    against every table that names it, and whole at the end (``check_complete``)."""

    def __init__(self, head: Any, league: League, player: checks.Players, tournaments: tournament_file.Tournaments):
        self.league = league
        self.tournaments = tournaments
        self.nights = [self._read(item, f"{KEY}[{i}]", player) for i, item in enumerate(checks.items(head, KEY, ""), 1)]
        tournaments.check_complete()

    def _read(self, item: Any, where: str, player: checks.Players) -> _Night:
        combine = checks.value(item, "combine", where, str)
        checks.who(item, "created_by", where)  # a name as any other, though a night keeps none
        date = checks.day(item, "date", where)
        host = player(item.get("host"), f"{where}.host")
        combine = _combine(combine, f"{where}.combine")
        tournament, number = self.tournaments.round_of(item, where)
        return _Night(where=where, date=date, host=host, combine=combine, tournament=tournament, round_number=number)

    def table(self, item: Any, where: str, *, season: Season, date, seats: list[Player]) -> Table | None:
        """The night and table number the meeting ``item`` at ``where`` names (None for an
        evening at one table), checked against the night and its other tables; the night is
        stored with its first table."""
        place = checks.value(item, "club_night", where, int, required=False)
        if place is None:
            if checks.value(item, "table_number", where, None, required=False) is not None:
                raise ImportProblem(f"{where}.table_number", _("a table number without a club night."))
            return None
        if not 1 <= place <= len(self.nights):
            raise ImportProblem(f"{where}.club_night", _("not the place of a club night in club_nights."))
        night = self.nights[place - 1]
        number = checks.whole(item, "table_number", where, model=Meeting, field="table_number", least=1)
        self._check_table(night, where, number=number, season=season, date=date, seats=seats)
        if night.row is None:
            night.row = ClubNight.objects.create(
                league=self.league,
                season=season,
                date=night.date,
                host=night.host,
                combine=night.combine,
                tournament=night.tournament,
                round_number=night.round_number,
            )
        night.numbers.add(number)
        night.seated.update(p.pk for p in seats)
        return Table(night=night.row, number=number, host=night.host)

    @staticmethod
    def _check_table(night: _Night, where: str, *, number: int, season: Season, date, seats: list[Player]) -> None:
        if number in night.numbers:
            message = _("%(night)s has a table %(number)s already.") % {"night": night.where, "number": number}
            raise ImportProblem(f"{where}.table_number", message)
        if date != night.date:
            raise ImportProblem(
                f"{where}.date", _("not the date of its club night (%(night)s).") % {"night": night.where}
            )
        if night.row is not None and season.pk != night.row.season_id:
            message = _("the tables of a club night are in one season (%(night)s).") % {"night": night.where}
            raise ImportProblem(f"{where}.season", message)
        twice = [p.name for p in seats if p.pk in night.seated]
        if twice:
            message = _("%(name)s sits at another table of %(night)s.") % {"name": twice[0], "night": night.where}
            raise ImportProblem(f"{where}.seats", message)

    def check_complete(self) -> None:
        """Every night has two tables or more, numbered 1, 2, …, as a night is opened."""
        for night in self.nights:
            if len(night.numbers) < 2 or night.numbers != set(range(1, len(night.numbers) + 1)):
                raise ImportProblem(night.where, _("a club night has two tables or more, numbered 1, 2, …"))
