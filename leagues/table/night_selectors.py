"""Reads of club nights: a night's tables and the evening's standings they make together.

Query counts are fixed whatever the number of tables and hands: the tables in one query, their
seats in one, their stored results (``MeetingResult``) in one, their hands played in one.
"""

from dataclasses import dataclass

from django.db.models import Count

from leagues import games
from leagues.clubs.selectors import league_meetings
from leagues.models import ClubNight, Hand, Meeting, MeetingResult, Seat
from leagues.table import selectors as table_selectors
from scoring import club_night


@dataclass(frozen=True)
class NightRow:
    """One line of a night's standings: a ``scoring.club_night.NightStanding`` with the player's
    id and the table's meeting."""

    place: int
    player_id: int
    name: str
    table: int
    meeting_id: int
    score: object  # Fraction
    points: int
    games: int


def night_of(*, league, pk) -> ClubNight | None:
    """The club night ``pk`` of ``league`` with its season and host, or None."""
    night = ClubNight.objects.select_related("season", "host").filter(league=league, pk=pk).first()
    if night is not None:
        night.league = league
    return night


def public_night(*, token, pk) -> ClubNight | None:
    """The club night ``pk`` of the league whose public link is ``token``, with its league,
    season and host, or None."""
    if not token:
        return None
    return (
        ClubNight.objects.select_related("league", "season", "host").filter(pk=pk, league__public_token=token).first()
    )


def night_tables(*, night) -> list:
    """The night's tables (meetings, as ``league_meetings`` gives them: what a replay of each
    asks) in table order, each with the night's league."""
    tables = list(league_meetings().filter(club_night=night).order_by("table_number"))
    for table in tables:
        table.league = night.league
    return tables


def night_seats(*, tables) -> dict:
    """{meeting id: {player id: name}} of ``tables``, each in seat order."""
    seats = Seat.objects.filter(meeting__in=[table.pk for table in tables]).order_by("meeting", "position")
    seated = {}
    for meeting_id, player_id, name in seats.values_list("meeting_id", "player_id", "player__name"):
        seated.setdefault(meeting_id, {})[player_id] = name
    return seated


def hands_played(*, tables) -> dict:
    """{meeting id: live hands} of ``tables`` (a table without a hand is missing)."""
    hands = Hand.objects.filter(meeting__in=[table.pk for table in tables], deleted_at=None)
    return dict(hands.values("meeting").annotate(count=Count("pk")).order_by().values_list("meeting", "count"))


def night_standings(*, night, tables=None, seated=None) -> list[NightRow]:
    """The evening's standings of ``night``, its tables combined by the night's method, from the
    tables' stored results. The figure a table ranks by is the total, or the games won in a
    race game. ``tables``: the night's meetings, ``seated``: their ``night_seats``, when the
    caller read them already."""
    if tables is None:
        tables = night_tables(night=night)
    by_meeting = {table.pk: table for table in tables}
    if seated is None:
        seated = night_seats(tables=tables)
    race = games.is_race_game(night.league.game)
    figures = {
        (m, p): (won if race else total, count)
        for m, p, total, won, count in MeetingResult.objects.filter(meeting__in=by_meeting).values_list(
            "meeting_id", "player_id", "total", "games_won", "games"
        )
    }
    played, where = [], {}
    for table in tables:
        players = seated.get(table.pk, {})
        played.append(
            {
                name: club_night.Played(*figures.get((table.pk, player_id), (0, 0)))
                for player_id, name in players.items()
            }
        )
        where.update({name: (player_id, table.pk) for player_id, name in players.items()})
    standings = club_night.combine(method=night.combine, tables=played)
    return [
        NightRow(
            place=row.place,
            player_id=where[row.player][0],
            name=row.player,
            table=row.table,
            meeting_id=where[row.player][1],
            score=row.score,
            points=row.points,
            games=row.games,
        )
        for row in standings
    ]


@dataclass(frozen=True)
class LastEvening:
    """The league's last evening: its latest meeting, and the tables it was played at (every
    table of its club night, or that meeting alone), each its player ids in seat order."""

    meeting: Meeting
    tables: list[list[int]]


def last_evening(*, league) -> LastEvening | None:
    """The league's last evening (by date), or None before its first. Two queries, however
    many tables it had."""
    last = Meeting.objects.filter(league=league).order_by("-date", "-id").first()
    if last is None:
        return None
    if last.club_night_id is None:
        seats = Seat.objects.filter(meeting=last)
    else:
        seats = Seat.objects.filter(meeting__club_night_id=last.club_night_id)
    tables: dict[int, list[int]] = {}
    for meeting_id, player_id in seats.order_by("meeting__table_number", "position").values_list(
        "meeting_id", "player_id"
    ):
        tables.setdefault(meeting_id, []).append(player_id)
    return LastEvening(meeting=last, tables=list(tables.values()))


def last_evening_winner(*, league, last: LastEvening | None):
    """Who won the last evening of ``league`` and brings the pennant to the next (league.md):
    its club night's winner once every table has ended (``night_winner`` keeps the mark), or
    its meeting's winner once it is closed; None while it is open or before the first evening.
    One query."""
    if last is None or last.meeting.league_id != league.pk:
        return None
    return table_selectors.meeting_winner(meeting=last.meeting)
