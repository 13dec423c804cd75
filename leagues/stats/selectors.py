"""Reads of the standings: a season's evenings, its table, the all-time table and the chart."""

import datetime
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Q, Sum

from leagues.games import has_pennant, is_race_game
from leagues.models import (
    Meeting,
    MeetingResult,
    Player,
    Season,
)
from leagues.ranking import SEASON_FIGURES, TABLE_FIGURES, EveningScores, rank_rows, standing_row
from leagues.seasons.selectors import HostRotation, due_order, players_for_rotation, restaurant_chooser


@dataclass
class MeetingSummary:
    id: int
    date: datetime.date
    host: Player
    season_id: int
    number: int = 0  # 1-based within its season
    winner: Player | None = None
    winner_total: int = 0
    winner_games_won: int = 0
    hands: int = 0
    imported_totals: bool = False  # copied from paper as totals (no hands)
    closed: bool = False  # only a closed evening has a winner (league.md, the pennant)
    # A club night: one evening of several tables, [(table number, meeting id)] in order; its
    # ``id`` is its first table's, ``hands`` all its tables' and ``closed`` every table's.
    tables: list = field(default_factory=list)
    night: int | None = None  # its club night's id
    combine: str = ""  # its club night's way to combine its tables ("": at one table)

    @property
    def meeting_ids(self) -> list[int]:
        """The meetings of the evening: its tables', or its own."""
        return [meeting_id for _number, meeting_id in self.tables] or [self.id]


@dataclass
class Standings:
    league: object
    race: bool
    seasons: list
    season: Season | None
    table: list
    all_time: list
    meetings: list  # MeetingSummary of the season
    chart: dict
    rotation: HostRotation
    choosing_restaurant: Player | None = None
    solos: bool = False  # the game has soloists (a solo column)
    # The season ranks by its evenings' combined score (an evening counted otherwise than by
    # the points as scored), shown rounded as ``shown_as`` says (``EveningScores``).
    by_score: bool = False
    shown_as: str = "points"


def _chart(*, meetings, per_meeting, players):
    """Each player's running total over the season, one point per meeting (race games: games
    won), from the per-meeting results; a player who missed a meeting keeps his total.

    ``meetings``: the season's MeetingSummary in playing order; ``per_meeting``: {meeting id:
    {player id: his figure (race games: games won, else the total; a season ranked by its
    score: the evening's score, exact, its running sum drawn to two decimals)}}. A meeting
    without a hand has no point."""
    labels, series, running = [], {}, {}
    for m in meetings:
        figures = per_meeting.get(m.id)
        if not figures:
            continue
        for player_id, f in figures.items():
            running[player_id] = running.get(player_id, 0) + f
            series.setdefault(player_id, {})[len(labels)] = running[player_id]
        labels.append(f"{m.date:%d.%m.}")
    datasets = []
    for player_id, values in series.items():
        data, last = [], 0
        for i in range(len(labels)):
            last = values.get(i, last)
            data.append(float(round(last, 2)) if isinstance(last, Fraction) else last)
        datasets.append({"label": players[player_id].name, "data": data, "final": last})
    datasets.sort(key=lambda d: (-d["final"], d["label"].casefold()))
    for d in datasets:
        del d["final"]
    return {"labels": labels, "datasets": datasets}


def _summaries(league, season_ids, players):
    """The MeetingSummary of each evening of ``league`` in the seasons ``season_ids``, in
    playing order, a club night's tables in one (its number, hands and winner filled in by
    ``_season_table``)."""
    meetings = Meeting.objects.filter(league=league, season__in=season_ids).order_by("date", "id")
    summaries, nights = [], {}
    for m_id, date, host_id, s_id, imported, closed_at, night_id, number, combine in meetings.values_list(
        "id",
        "date",
        "host_id",
        "season_id",
        "imported_totals",
        "closed_at",
        "club_night_id",
        "table_number",
        "club_night__combine",
    ):
        night = nights.get(night_id)
        if night is not None:
            night.tables.append((number, m_id))
            night.closed = night.closed and closed_at is not None
            continue
        summary = MeetingSummary(
            id=m_id,
            date=date,
            host=players[host_id],
            season_id=s_id,
            imported_totals=imported,
            closed=closed_at is not None,
            night=night_id,
            combine=combine or "",
        )
        if night_id is not None:
            nights[night_id] = summary
            summary.tables.append((number, m_id))
        summaries.append(summary)
    return summaries


def _all_time(league, players, *, race):
    """The ranked table of every season of ``league``, summed by the database (one query)."""
    rows = (
        MeetingResult.objects.filter(league=league)
        .values("player_id")
        .annotate(
            **{f"sum_{name}": Sum(name) for name in TABLE_FIGURES},
            # The totals of evenings copied from paper: rows of no hands (an imported evening's
            # rows hold its totals and no hands; any other evening's rows sum its live hands, at
            # least one; a row of no hands otherwise holds a total of 0).
            imported=Sum("total", filter=Q(hands=0)),
        )
        .order_by()
    )
    table = []
    for row in rows:
        player = players[row.pop("player_id")]
        table.append(standing_row(player, [value or 0 for value in row.values()], race=race))
    return rank_rows(table, race=race)


def _season_table(season_id, season_meetings, players, *, race, method):
    """The season's ranked table, its chart's figures ({evening id: {player id: figure}}) and
    its ``EveningScores``, from its MeetingResult rows (one query, in no order: every sum is
    the same in any order); each of ``season_meetings`` gets its number, its hands and its
    winner (a closed evening's; a club night's hands are its tables' together). Each evening
    counts by its combined score (``EveningScores``; ``method``: the league's way for an
    evening at one table)."""
    evening_of = {meeting_id: m for m in season_meetings for meeting_id in m.meeting_ids}
    per_meeting, sums, hands_in, winners = {}, {}, {}, {}
    scores = EveningScores(race=race, league_method=method)
    figure = 5 if race else 0  # the chart's: games won, else the total
    rows = MeetingResult.objects.filter(season=season_id).order_by()
    for meeting_id, player_id, hands, won_evening, *figures in rows.values_list(
        "meeting_id", "player_id", *SEASON_FIGURES
    ):
        evening = evening_of[meeting_id]
        per_meeting.setdefault(evening.id, {})[player_id] = figures[figure]
        scores.add(
            meeting_id=meeting_id,
            night_id=evening.night,
            night_method=evening.combine,
            player_id=player_id,
            total=figures[0],
            games_won=figures[5],
            games=figures[1],
        )
        figures.append(figures[0] if evening.imported_totals else 0)
        kept = sums.get(player_id)
        sums[player_id] = figures if kept is None else [a + b for a, b in zip(kept, figures, strict=True)]
        hands_in[meeting_id] = hands
        if won_evening and evening.closed:  # an evening still open has no winner yet
            winners[evening.id] = (player_id, figures[0], figures[5])
    table = {player_id: standing_row(players[player_id], figures, race=race) for player_id, figures in sums.items()}
    for number, m in enumerate(season_meetings, 1):
        m.number = number
        winner = winners.get(m.id)
        if winner is not None:
            player_id, m.winner_total, m.winner_games_won = winner
            m.winner = players[player_id]
            table[player_id].evenings_won += 1
        m.hands = (
            sum(hands_in.get(meeting_id, 0) for _number, meeting_id in m.tables) if m.tables else hands_in.get(m.id, 0)
        )
    if scores.by_score:  # the chart follows the score the table ranks by
        per_meeting = _chart_scores(scores, season_meetings)
    return scores.rank(list(table.values())), per_meeting, scores


def _chart_scores(scores, season_meetings):
    """{evening id: {player id: his exact score of the evening}} for the chart."""
    per_evening = scores.per_evening()
    chart = {}
    for m in season_meetings:
        evening = per_evening.get(("night", m.night) if m.night else ("meeting", m.id), {})
        chart[m.id] = dict(evening)
    return chart


def standings(*, league, season_number=None):
    """Everything the standings page shows, in a fixed number of queries (5), reading the
    per-meeting results (MeetingResult): the cost grows with meetings, never with hands.

    The queries: the seasons; the players, each with the date he last hosted and his seat at
    the league's last meeting (the host rotation's order and its ties); the meetings of the
    season shown and of the current one; the season's results per meeting and player (the
    table, each evening's winner and the chart at once); the all-time sums per player.

    ``season_number`` None means the latest season; an unknown number raises Season.DoesNotExist.
    """
    race = is_race_game(league.game)
    seasons = list(Season.objects.filter(league=league).order_by("number"))
    season = _season_shown(seasons, season_number)
    current = seasons[-1] if seasons else None
    season_id = season.id if season else None
    current_id = current.id if current else None
    players = {p.id: p for p in players_for_rotation(league=league)}
    meetings = _summaries(league, [season_id, current_id], players)
    season_meetings = [m for m in meetings if m.season_id == season_id]
    table, per_meeting, scores = _season_table(
        season_id, season_meetings, players, race=race, method=league.combine_tables
    )
    all_time = _all_time(league, players, race=race)
    rotation = _rotation(players, [m for m in meetings if m.season_id == current_id], current)
    chart = _chart(meetings=season_meetings, per_meeting=per_meeting, players=players)
    return Standings(
        league=league,
        race=race,
        seasons=seasons,
        season=season,
        table=table,
        all_time=all_time,
        meetings=season_meetings,
        chart=chart,
        rotation=rotation,
        choosing_restaurant=restaurant_chooser(table=table, race=race),
        solos=has_pennant(league.game),
        by_score=scores.by_score,
        shown_as=scores.shown_as,
    )


def _season_shown(seasons, season_number):
    """The season asked for (None: the latest); Season.DoesNotExist for an unknown number."""
    if season_number is None:
        return seasons[-1] if seasons else None
    season = next((s for s in seasons if s.number == season_number), None)
    if season is None:
        raise Season.DoesNotExist
    return season


def _rotation(players, hosted, current):
    """Who has hosted the current season and who is due next, in the rotation's order."""
    complete, due = due_order(
        players=players,
        last_hosted={p.id: p.last_hosted for p in players.values() if p.last_hosted is not None},
        hosted_this_season={m.host.id for m in hosted},
        season=current,
        seats_of_last={p.id: p.seat_at_last for p in players.values() if p.seat_at_last is not None},
    )
    return HostRotation(
        season=current,
        complete=complete,
        hosted=hosted if current else [],
        due=due,
        suggested=due[0][0] if due else None,
    )


@dataclass
class SeasonStandings:
    """One season's table, evenings and chart, as ``standings`` has them, without the
    all-time table and the host rotation (the season report's)."""

    season: Season
    race: bool
    solos: bool
    table: list
    meetings: list  # MeetingSummary of the season
    chart: dict
    by_score: bool = False  # as Standings
    shown_as: str = "points"


def season_standings(*, league, number):
    """Season ``number`` of ``league`` as SeasonStandings, read from that season's rows alone
    (four queries); Season.DoesNotExist when the league has no such season."""
    season = Season.objects.get(league=league, number=number)
    race = is_race_game(league.game)
    players = Player.objects.filter(league=league).order_by().in_bulk()
    meetings = _summaries(league, [season.id], players)
    table, per_meeting, scores = _season_table(season.id, meetings, players, race=race, method=league.combine_tables)
    return SeasonStandings(
        season=season,
        race=race,
        solos=has_pennant(league.game),
        table=table,
        meetings=meetings,
        chart=_chart(meetings=meetings, per_meeting=per_meeting, players=players),
        by_score=scores.by_score,
        shown_as=scores.shown_as,
    )
