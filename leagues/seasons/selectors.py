"""Reads of a season: its table, scores, the host rotation and who chooses the restaurant."""

import datetime
from dataclasses import dataclass, field

from django.db.models import F, Max, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from leagues.games import is_race_game
from leagues.models import (
    Meeting,
    MeetingResult,
    Player,
    Season,
    Seat,
    everyone_hosted,
)
from leagues.ranking import TABLE_FIGURES, EveningScores, StandingRow
from leagues.table import night_selectors


@dataclass
class HostRotation:
    season: Season | None
    complete: bool = False
    hosted: list = field(default_factory=list)  # MeetingSummary of the season, in order
    due: list = field(default_factory=list)  # [(player, last hosted date or None)], next host first
    suggested: Player | None = None


def due_order(*, players, last_hosted, hosted_this_season, season, seats_of_last):
    """Active players who have not hosted in ``season`` yet, the one waited longest first.

    ``last_hosted``: {player id: the date he last hosted}; ``hosted_this_season``: the ids
    of those who hosted in ``season``. Waited longest: the oldest last turn as host, never
    hosted before anyone; ties go by the seat order of the last meeting (those who were not
    there after, by name). A club night is one evening: every table names its host, so it
    counts once in ``last_hosted`` and ``hosted_this_season``; its seats are its tables' in
    table order.
    """
    complete = season is not None and (
        season.closed_on is not None
        or everyone_hosted(players=(p.id for p in players.values() if p.active), hosts=hosted_this_season)
    )
    if complete:
        hosted_this_season = set()  # the next meeting opens a new season: everyone may host
    candidates = [p for p in players.values() if p.active and p.id not in hosted_this_season]
    candidates.sort(
        key=lambda p: (
            last_hosted.get(p.id, datetime.date.min),
            seats_of_last.get(p.id, 999),
            p.name.casefold(),
        )
    )
    return complete, [(p, last_hosted.get(p.id)) for p in candidates]


def _last_hosted(*, league):
    """{player id: the last date he hosted}, summed up by the database (one query)."""
    rows = Meeting.objects.filter(league=league).values("host_id").annotate(last=Max("date")).order_by()
    return {row["host_id"]: row["last"] for row in rows}


def players_for_rotation(*, league):
    """The league's players, each with ``last_hosted`` (the date he last hosted, or None)
    and ``seat_at_last`` (his seat at the league's last meeting, or None): the host
    rotation's order and its ties. One query."""
    last = Meeting.objects.filter(league=league).order_by("-date", "-id")
    # After a club night: the seats of all its tables, table after table.
    at_last = Q(meeting=Subquery(last.values("id")[:1])) | Q(
        meeting__club_night=Subquery(last.values("club_night")[:1])
    )
    seat = (
        Seat.objects.filter(at_last, player=OuterRef("pk"))
        .annotate(rank=Coalesce("meeting__table_number", 0) * 100 + F("position"))
        .values("rank")[:1]
    )
    return Player.objects.filter(league=league).annotate(
        last_hosted=Max("hosted_meetings__date"), seat_at_last=Subquery(seat)
    )


# --- meetings ------------------------------------------------------


def suggested_host(*, league):
    """Who should host the next meeting (league.md, host rotation): the first of the
    standings' rotation (``due_order``), so the start page and the standings always agree.
    None when the league has no active player. Five queries, whatever the league's size."""
    players = {p.id: p for p in Player.objects.filter(league=league)}
    season = Season.objects.filter(league=league).order_by("-number").first()
    hosted = set()
    if season is not None:
        hosted = set(Meeting.objects.filter(season=season).values_list("host_id", flat=True))
    last = night_selectors.last_evening(league=league)  # a club night's tables one after the other
    tables = last.tables if last is not None else []
    seats_of_last = {player_id: i for i, player_id in enumerate(p for table in tables for p in table)}
    _complete, due = due_order(
        players=players,
        last_hosted=_last_hosted(league=league),
        hosted_this_season=hosted,
        season=season,
        seats_of_last=seats_of_last,
    )
    return due[0][0] if due else None


def season_table(*, season):
    """The season's table alone (for the bill): ranked StandingRows with their scores (each
    evening counted by its combined score, ``EveningScores``), in two queries."""
    league = season.league
    race = is_race_game(league.game)
    players = {p.id: p for p in Player.objects.filter(league_id=season.league_id)}
    scores = EveningScores(race=race, league_method=league.combine_tables)
    table = {}
    rows = MeetingResult.objects.filter(season=season).order_by()
    for meeting_id, night_id, method, imported, player_id, *figures in rows.values_list(
        "meeting_id",
        "meeting__club_night_id",
        "meeting__club_night__combine",
        "meeting__imported_totals",
        "player_id",
        *TABLE_FIGURES,
    ):
        sums = dict(zip(TABLE_FIGURES, figures, strict=True))
        scores.add(
            meeting_id=meeting_id,
            night_id=night_id,
            night_method=method,
            player_id=player_id,
            total=sums["total"],
            games_won=sums["games_won"],
            games=sums["games"],
        )
        sums["imported_total"] = sums["total"] if imported else 0
        if not race:
            sums["points"] = 0
        table.setdefault(player_id, StandingRow(player=players[player_id])).add(sums)
    return scores.rank(list(table.values()))


def plain_score(score):
    """A season's score as the bill takes it: an int when whole, else the exact Fraction."""
    return int(score) if score.denominator == 1 else score


def bill_scores(*, table, race) -> dict:
    """The figure a season's bill is split by, by player name in standings order: the season's
    score (league.md, "End of a season"; the total points, or games won in race games, where
    every evening counts the points as scored), an int when whole, else an exact Fraction."""
    return {row.player.name: plain_score(row.score) for row in table}


def restaurant_chooser(*, table, race):
    """Who chooses the restaurant (league.md): the worst season figure; tied, the first of
    them in the standings' order, as scoring.bill's ``chooses_restaurant`` says for the bill."""
    if not table:
        return None
    scores = bill_scores(table=table, race=race)
    worst = min(scores.values())
    return next(row.player for row in table if scores[row.player.name] == worst)


def season_scores(*, season) -> dict:
    return bill_scores(table=season_table(season=season), race=is_race_game(season.league.game))


def not_hosted_yet(*, season):
    """Active players of the league who have not hosted in ``season``, by name."""
    hosts = Meeting.objects.filter(season=season).values("host_id")
    return list(Player.objects.filter(league_id=season.league_id, active=True).exclude(id__in=hosts).order_by("name"))
