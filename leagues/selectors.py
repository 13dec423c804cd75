"""Reads. Queries for pages and the API live here, with keyword-only arguments, so that views
stay thin and query counts stay fixed whatever the number of hands."""

import datetime
import functools
from collections import namedtuple
from dataclasses import dataclass, field
from fractions import Fraction

from django.contrib.auth import get_user_model
from django.db.models import F, Max, OuterRef, Q, Subquery, Sum
from django.utils.translation import gettext_lazy

from scoring.registry import COMPULSORY_SOLOS, START_TOTALS, get_game
from scoring.sitting import calculate

from . import outbox_choices
from .hand_entry import FORMS, form_module, game_end_line
from .models import (
    Hand,
    HandResult,
    Invite,
    Meeting,
    MeetingResult,
    Membership,
    Player,
    Role,
    Season,
    Seat,
    everyone_hosted,
)


def memberships_of(*, user):
    """``user``'s memberships with their leagues, for the "my leagues" list (one query)."""
    return Membership.objects.filter(user=user).select_related("league").order_by("league__name")


def league_overview(*, league, admin=False, meetings=10):
    """What the league page shows: seasons, members, players, recent meetings and, for
    admins, the open invites. A fixed number of queries whatever the size of the league, each
    reading only the columns the page shows, as plain values: seasons (number, started_on,
    closed_on, locked), memberships (pk, role, role_display, display_name), players (id, name,
    user_id, active) and meetings (id, date, imported_totals, host, season) are dicts."""
    roles = dict(Role.choices)
    seasons = Season.objects.filter(league=league).order_by("-number")
    recent = Meeting.objects.filter(league=league).order_by("-date", "-id")[:meetings]
    data = {
        "seasons": [
            {"number": number, "started_on": started, "closed_on": closed, "locked": locked is not None}
            for number, started, closed, locked in seasons.values_list("number", "started_on", "closed_on", "locked_at")
        ],
        "players": list(
            Player.objects.filter(league=league).order_by("name").values("id", "name", "user_id", "active")
        ),
        "meetings": [
            {"id": pk, "date": date, "imported_totals": imported, "host": host, "season": number}
            for pk, date, imported, host, number in recent.values_list(
                "id", "date", "imported_totals", "host__name", "season__number"
            )
        ],
        "invites": [],
    }
    names = {p["user_id"]: p["name"] for p in data["players"] if p["user_id"]}
    # The members' accounts: their names alone, not their password hashes.
    username = f"user__{get_user_model().USERNAME_FIELD}"
    members = Membership.objects.filter(league=league).order_by(username)
    data["memberships"] = [
        {"pk": pk, "role": role, "role_display": roles.get(role, role), "display_name": names.get(user_id) or name}
        for pk, role, user_id, name in members.values_list("id", "role", "user_id", username)
    ]
    if admin:
        data["invites"] = list(
            Invite.objects.filter(league=league).open().select_related("player").order_by("-created_at")
        )
    return data


def _meetings():
    """Meetings with their season and host (shown with every meeting), and ``opens_season``
    (asked by the replay: the pennant's penalty soli)."""
    return Meeting.objects.select_related("season", "host").with_season_start()


def league_meeting(*, league, pk) -> Meeting | None:
    """The meeting ``pk`` of ``league`` (``_meetings``), or None."""
    meeting = _meetings().filter(league=league, pk=pk).first()
    if meeting is not None:
        meeting.league = league
    return meeting


def meeting_for_entry(*, pk, league=None) -> Meeting | None:
    """The meeting ``pk`` (of ``league``, when given; ``_meetings``) locked until the
    transaction ends, or None: the lock every writer of its hands takes first, so that two
    phones' writes of one evening come one after the other (SQLite locks the whole database
    for a writer instead). Its season and host are read with it, not locked: ``lock_season``
    takes the season's lock before its meetings'."""
    meetings = _meetings().select_for_update(of=("self",)).filter(pk=pk)
    if league is not None:
        meetings = meetings.filter(league=league)
    meeting = meetings.first()
    if meeting is not None and league is not None:
        meeting.league = league
    return meeting


def public_meeting(*, token, pk) -> Meeting | None:
    """The meeting ``pk`` of the league whose public link is ``token`` (``_meetings``), with
    its league and the league's stamp as ``league._stamp`` (read with the league, before
    anything the page shows: leagues/pages.py), or None."""
    if not token:
        return None
    meeting = (
        _meetings()
        .select_related("league")
        .annotate(league_stamp=F("league__stamp__value"))
        .filter(pk=pk, league__public_token=token)
        .first()
    )
    if meeting is not None:
        meeting.league._stamp = meeting.league_stamp
    return meeting


Seated = namedtuple("Seated", ("pk", "name", "position"))


def seats_of(meeting: Meeting) -> list[Seated]:
    """The meeting's seated players in seat order as (pk, name, position): the names are all
    a replay reads of them. A write reads them once (its replay, the players of its
    HandResult rows, the evening winner's seat order); a page that has them can pass them to
    ``calculate_meeting`` (``players``) instead of a second read."""
    seats = Seat.objects.filter(meeting=meeting).order_by("position")
    return [Seated(*row) for row in seats.values_list("player_id", "player__name", "position")]


# --- standings, host rotation and sheets (issue 5, "At the table") ---------------------------
#
# Every figure comes from HandResult (written by replay), summed by the database. Each
# function below runs a fixed number of queries, whatever the number of hands or meetings.


def is_race_game(game):
    """Games played to a target (a Partie): the table ranks by games won, points second.

    Asked of scoring/, not listed here: exactly these games take the scores of a game in
    progress (calculate-api.md, ``start_totals``: "race games")."""
    return START_TOTALS in get_game(game).extra_fields


@functools.cache
def has_host_rounds(game):
    """Whether ``game``'s evenings are played in host rounds, so that the end time finishes
    the round in progress (Doppelkopf; the other games have none): asked of scoring/'s replay
    of an evening without hands, as ``services.has_rounds`` asks it of a real one."""
    spec = get_game(game)
    players = [f"P{number}" for number in range(1, spec.min_players + 1)]
    empty = calculate({"game": game, "variant": spec.default_preset, "players": players, "hands": []})
    return "host_round_games_left" in (empty.get("next") or {})


def has_pennant(game):
    """The pennant and its penalty soli (league.md): games whose engine plays compulsory
    soli (Doppelkopf); the same games have soloists, hence a solo column."""
    return COMPULSORY_SOLOS in get_game(game).extra_fields


# Labels of the kinds of rounds a replay may report (calculate-api.md, Doppelkopf ``round``).
ROUND_LABELS = {
    "bock": gettext_lazy("Bock"),
    "ramsch": gettext_lazy("Ramsch"),
    "pflichtsolo": gettext_lazy("Pflichtsolo"),
    "penalty": gettext_lazy("Penalty solo"),
}


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

    @property
    def solos_lost(self):
        return self.solos - self.solos_won

    def add(self, figures):
        for name in ("total", "games", "wins", "solos", "solos_won", "games_won", "points", "imported_total"):
            setattr(self, name, getattr(self, name) + (figures.get(name) or 0))


def _sort_key(*, race):
    if race:
        return lambda r: (-r.games_won, -r.points, r.player.name.casefold())
    return lambda r: (-r.total, -r.wins, r.player.name.casefold())


def _rank(rows, *, race):
    """Sort best first; equal figures share a place (1, 1, 3)."""
    rows.sort(key=_sort_key(race=race))
    figure = (lambda r: (r.games_won, r.points)) if race else (lambda r: r.total)
    for i, row in enumerate(rows):
        row.rank = rows[i - 1].rank if i and figure(rows[i - 1]) == figure(row) else i + 1
    return rows


def ranked(rows, *, race):
    """``rows`` (StandingRows) sorted and ranked as every table here is."""
    return _rank(rows, race=race)


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


@dataclass
class HostRotation:
    season: Season | None
    complete: bool = False
    hosted: list = field(default_factory=list)  # MeetingSummary of the season, in order
    due: list = field(default_factory=list)  # [(player, last hosted date or None)], next host first
    suggested: Player | None = None


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


def _due_order(*, players, last_hosted, hosted_this_season, season, seats_of_last):
    """Active players who have not hosted in ``season`` yet, the one waited longest first.

    ``last_hosted``: {player id: the date he last hosted}; ``hosted_this_season``: the ids
    of those who hosted in ``season``. Waited longest: the oldest last turn as host, never
    hosted before anyone; ties go by the seat order of the last meeting (those who were not
    there after, by name).
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


def _chart(*, meetings, per_meeting, players):
    """Each player's running total over the season, one point per meeting (race games: games
    won), from the per-meeting results; a player who missed a meeting keeps his total.

    ``meetings``: the season's MeetingSummary in playing order; ``per_meeting``: {meeting id:
    {player id: his figure (race games: games won, else the total)}}. A meeting without a
    hand has no point."""
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
            data.append(last)
        datasets.append({"label": players[player_id].name, "data": data, "final": last})
    datasets.sort(key=lambda d: (-d["final"], d["label"].casefold()))
    for d in datasets:
        del d["final"]
    return {"labels": labels, "datasets": datasets}


# The figures a MeetingResult row holds for a StandingRow.
_TABLE_FIGURES = ("total", "games", "wins", "solos", "solos_won", "games_won", "points")
# The totals of evenings copied from paper (Meeting.imported_totals), for StandingRow.average.
IMPORTED_TOTAL = Sum("total", filter=Q(meeting__imported_totals=True))


def _standing_row(player, figures, *, race):
    """A StandingRow of ``figures`` (_TABLE_FIGURES then imported_total, in that order)."""
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
_SEASON_FIGURES = ("hands", "won_evening", *_TABLE_FIGURES)


def _players_for_rotation(*, league):
    """The league's players, each with ``last_hosted`` (the date he last hosted, or None)
    and ``seat_at_last`` (his seat at the league's last meeting, or None): the host
    rotation's order and its ties. One query."""
    last = Meeting.objects.filter(league=league).order_by("-date", "-id").values("id")[:1]
    seat = Seat.objects.filter(player=OuterRef("pk"), meeting=Subquery(last)).values("position")[:1]
    return Player.objects.filter(league=league).annotate(
        last_hosted=Max("hosted_meetings__date"), seat_at_last=Subquery(seat)
    )


def _summaries(league, season_ids, players):
    """The MeetingSummary of each meeting of ``league`` in the seasons ``season_ids``, in
    playing order (its number, hands and winner filled in by ``_season_table``)."""
    meetings = Meeting.objects.filter(league=league, season__in=season_ids).order_by("date", "id")
    return [
        MeetingSummary(
            id=m_id,
            date=date,
            host=players[host_id],
            season_id=s_id,
            imported_totals=imported,
            closed=closed_at is not None,
        )
        for m_id, date, host_id, s_id, imported, closed_at in meetings.values_list(
            "id", "date", "host_id", "season_id", "imported_totals", "closed_at"
        )
    ]


def _all_time(league, players, *, race):
    """The ranked table of every season of ``league``, summed by the database (one query)."""
    rows = (
        MeetingResult.objects.filter(league=league)
        .values("player_id")
        .annotate(
            **{f"sum_{name}": Sum(name) for name in _TABLE_FIGURES},
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
        table.append(_standing_row(player, [value or 0 for value in row.values()], race=race))
    return _rank(table, race=race)


def _season_table(season_id, season_meetings, players, *, race):
    """The season's ranked table and its chart's figures ({meeting id: {player id: figure}}),
    from its MeetingResult rows (one query, in no order: every sum is the same in any order);
    each of ``season_meetings`` gets its number, its hands and its winner (a closed evening's)."""
    imported = {m.id for m in season_meetings if m.imported_totals}
    closed = {m.id for m in season_meetings if m.closed}
    per_meeting, sums, hands_in, winners = {}, {}, {}, {}
    figure = 5 if race else 0  # the chart's: games won, else the total
    rows = MeetingResult.objects.filter(season=season_id).order_by()
    for meeting_id, player_id, hands, won_evening, *figures in rows.values_list(
        "meeting_id", "player_id", *_SEASON_FIGURES
    ):
        per_meeting.setdefault(meeting_id, {})[player_id] = figures[figure]
        figures.append(figures[0] if meeting_id in imported else 0)
        kept = sums.get(player_id)
        sums[player_id] = figures if kept is None else [a + b for a, b in zip(kept, figures, strict=True)]
        hands_in[meeting_id] = hands
        if won_evening and meeting_id in closed:  # an evening still open has no winner yet
            winners[meeting_id] = (player_id, figures[0], figures[5])
    table = {player_id: _standing_row(players[player_id], figures, race=race) for player_id, figures in sums.items()}
    for number, m in enumerate(season_meetings, 1):
        m.number = number
        winner = winners.get(m.id)
        if winner is not None:
            player_id, m.winner_total, m.winner_games_won = winner
            m.winner = players[player_id]
            table[player_id].evenings_won += 1
        m.hands = hands_in.get(m.id, 0)
    return _rank(list(table.values()), race=race), per_meeting


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
    if season_number is None:
        season = seasons[-1] if seasons else None
    else:
        season = next((s for s in seasons if s.number == season_number), None)
        if season is None:
            raise Season.DoesNotExist
    current = seasons[-1] if seasons else None
    season_id = season.id if season else None
    current_id = current.id if current else None
    players = {p.id: p for p in _players_for_rotation(league=league)}
    last_hosted = {p.id: p.last_hosted for p in players.values() if p.last_hosted is not None}
    seats_of_last = {p.id: p.seat_at_last for p in players.values() if p.seat_at_last is not None}
    meetings = _summaries(league, [season_id, current_id], players)
    season_meetings = [m for m in meetings if m.season_id == season_id]
    table, per_meeting = _season_table(season_id, season_meetings, players, race=race)
    all_time = _all_time(league, players, race=race)

    hosted = [m for m in meetings if m.season_id == current_id]
    complete, due = _due_order(
        players=players,
        last_hosted=last_hosted,
        hosted_this_season={m.host.id for m in hosted},
        season=current,
        seats_of_last=seats_of_last,
    )
    rotation = HostRotation(
        season=current,
        complete=complete,
        hosted=hosted if current else [],
        due=due,
        suggested=due[0][0] if due else None,
    )
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
    )


@dataclass
class SheetRow:
    number: int
    cells: list  # [(figure, total, active)] in seat order; figure: what the hand itself scored
    round: str = ""  # Doppelkopf: normal, bock, ramsch, pflichtsolo, penalty; blank otherwise
    game_end: list = field(default_factory=list)  # lines across the sheet under this row

    @property
    def round_label(self):
        return ROUND_LABELS.get(self.round, "")


def meeting_sheet(*, meeting):
    """A meeting's rows from HandResult, for the read-only sheet: (columns, rows, totals); the
    columns (each with a ``name``) are those of the members' sheet (``_sheet_columns``).

    Race games read like the meeting page's sheet: a hand at which a party won a game (its
    cached ``games_won``) carries the line across the sheet, and the hand after it shows what
    it scored, which is its total, since the replay starts every game from 0 (docs/decisions.md, "Race
    games"); its cached delta also holds the reset of the finished game.
    """
    players = seats_of(meeting)  # (pk, name, position): the sheet shows their names
    columns, index = _sheet_columns(meeting, players)
    name_of = {p.pk: p.name for p in players}
    rows, games = {}, {}
    results = HandResult.objects.filter(meeting=meeting)
    fields = ("number", "player_id", "delta", "total", "active", "round", "games_won")
    for number, player_id, delta, total, active, round_kind, games_won in results.values_list(*fields):
        row = rows.setdefault(number, SheetRow(number=number, cells=[None] * len(columns), round=round_kind))
        if player_id in index:
            row.cells[index[player_id]] = (delta, total, active)
            if games_won:
                games.setdefault(number, (name_of[player_id], games_won))
    rows = [rows[n] for n in sorted(rows)]
    teams = meeting.teams or {}
    team_of = {name: team for team, names in teams.items() for name in names}
    finished = 0
    for i, row in enumerate(rows):
        if i and rows[i - 1].number in games:
            row.cells = [(cell[1], cell[1], cell[2]) if cell else None for cell in row.cells]
        if row.number in games:
            name, won = games[row.number]
            finished += 1
            row.game_end = [
                game_end_line(kind="game", winner=team_of.get(name, name), number=finished, games=won, members=teams)
            ]
    totals = [cell[1] if cell else 0 for cell in rows[-1].cells] if rows else [0] * len(columns)
    return columns, rows, totals


SheetColumn = namedtuple("SheetColumn", ("name",))


def _sheet_columns(meeting, players):
    """The read-only sheet's columns, as the members' sheet has them (its replay's parties):
    each team of a meeting played in teams, in the meeting's order of them, else each player
    in seat order; and ``{player id: column}`` of the players whose figures a column shows
    (a team's first member: its members' figures are the team's)."""
    if not meeting.teams:
        return players, {p.pk: i for i, p in enumerate(players)}
    seat_of = {p.name: p.pk for p in players}
    columns, index = [], {}
    for i, (team, names) in enumerate(meeting.teams.items()):
        columns.append(SheetColumn(team))
        if names and names[0] in seat_of:
            index[seat_of[names[0]]] = i
    return columns, index


# --- meetings (issue 5, "At the table") ------------------------------------------------------


def suggested_host(*, league):
    """Who should host the next meeting (league.md, host rotation): the first of the
    standings' rotation (``_due_order``), so the start page and the standings always agree.
    None when the league has no active player. Five queries, whatever the league's size."""
    players = {p.id: p for p in Player.objects.filter(league=league)}
    season = Season.objects.filter(league=league).order_by("-number").first()
    hosted = set()
    if season is not None:
        hosted = set(Meeting.objects.filter(season=season).values_list("host_id", flat=True))
    last = Meeting.objects.filter(league=league).order_by("-date", "-id").values_list("id", flat=True).first()
    seats_of_last = {}
    if last is not None:
        seats_of_last = dict(Seat.objects.filter(meeting_id=last).values_list("player_id", "position"))
    _complete, due = _due_order(
        players=players,
        last_hosted=_last_hosted(league=league),
        hosted_this_season=hosted,
        season=season,
        seats_of_last=seats_of_last,
    )
    return due[0][0] if due else None


def imported_totals(*, meeting):
    """(name, total) in seat order of an evening copied from paper as totals."""
    totals = dict(MeetingResult.objects.filter(meeting=meeting).values_list("player_id", "total"))
    return [(seat.player.name, totals.get(seat.player_id, 0)) for seat in meeting.seats.in_order()]


def meeting_winner(*, meeting):
    """The winner of a closed meeting (league.md, the pennant), by the same rule as the
    standings' evenings won: highest total; ties, first in seat order (decided when its
    results were written, ``services.meeting_result_rows``). None while the evening is open
    (no query then) or when no hand was played. One query."""
    if meeting.closed_at is None:
        return None
    return evening_leader(meeting=meeting)


def evening_leader(*, meeting):
    """Who wins ``meeting`` if it ends as it stands (its winner, once closed): "End the
    evening?" names him before the scorekeeper answers. One query."""
    row = MeetingResult.objects.filter(meeting=meeting, won_evening=True).select_related("player").first()
    return row.player if row is not None else None


def suggested_pennant_holder(*, league):
    """The winner of the previous meeting, who must bring the pennant to the next one (None
    while that evening is still open: it has no winner yet)."""
    last = last_meeting(league=league)
    return meeting_winner(meeting=last) if last is not None else None


def last_meeting(*, league):
    """The league's latest meeting (by date), or None."""
    return Meeting.objects.filter(league=league).order_by("-date", "-id").first()


def last_seat_order(*, league):
    """Player ids in the seat order of the league's last meeting (to list players that way)."""
    from .models import Meeting, Seat

    last = Meeting.objects.filter(league=league).order_by("-date", "-id").first()
    if last is None:
        return []
    return list(Seat.objects.filter(meeting=last).order_by("position").values_list("player_id", flat=True))


def meeting_hands(*, meeting, entered_by=True):
    """Every hand of a meeting, deleted ones included, in playing order, in one query; with
    who entered each unless ``entered_by`` is False (the sheet never names him)."""
    hands = meeting.hands.order_by("position")
    if entered_by:
        hands = hands.select_related("entered_by")
    return list(hands)


def meeting_history(*, meeting):
    """Every recorded version of every hand of a meeting, oldest first, in one query."""
    return list(
        Hand.history.filter(meeting_id=meeting.pk).select_related("history_user").order_by("history_date", "history_id")
    )


def season_table(*, season):
    """The season's table alone (for the bill): ranked StandingRows, in two queries."""
    race = is_race_game(season.league.game)
    players = {p.id: p for p in Player.objects.filter(league_id=season.league_id)}
    table = []
    sums = {f"f_{name}": Sum(name) for name in _TABLE_FIGURES}
    sums["f_imported_total"] = IMPORTED_TOTAL
    for row in MeetingResult.objects.filter(season=season).values("player_id").annotate(**sums).order_by():
        figures = {name: row[f"f_{name}"] or 0 for name in (*_TABLE_FIGURES, "imported_total")}
        if not race:
            figures["points"] = 0
        table.append(StandingRow(player=players[row["player_id"]]))
        table[-1].add(figures)
    return _rank(table, race=race)


def bill_scores(*, table, race) -> dict[str, int]:
    """The figure a season's bill is split by, by player name in standings order: total
    points, or games won in race games (league.md, "End of a season")."""
    return {row.player.name: (row.games_won if race else row.total) for row in table}


def restaurant_chooser(*, table, race):
    """Who chooses the restaurant (league.md): the worst season figure; tied, the first of
    them in the standings' order, as scoring.bill's ``chooses_restaurant`` says for the bill."""
    if not table:
        return None
    scores = bill_scores(table=table, race=race)
    worst = min(scores.values())
    return next(row.player for row in table if scores[row.player.name] == worst)


def season_scores(*, season) -> dict[str, int]:
    return bill_scores(table=season_table(season=season), race=is_race_game(season.league.game))


def not_hosted_yet(*, season):
    """Active players of the league who have not hosted in ``season``, by name."""
    hosts = Meeting.objects.filter(season=season).values("host_id")
    return list(Player.objects.filter(league_id=season.league_id, active=True).exclude(id__in=hosts).order_by("name"))


# --- the evening's sheet and its history, shaped for the pages ----------------------------


def sheet_rows(*, result, live_hands):
    """One row per live hand like the paper sheet: each party's figure for the hand and its
    running total.

    The cell's ``delta`` is what the hand itself scored: in race games the replay's per-hand
    ``scored``, not the change of the shown totals (which includes the reset to 0 after a
    won game), so that a winner's cell never reads "−30". A hand that ended a game or a match
    carries ``game_end``, the lines drawn across the sheet under it ("Aoife wins game 2");
    the totals of the next hand start from 0 as the replay gives them. ``breakdown`` is the
    game module's figures for the why dialog (None for a game without one). Both come from
    the game's hand-entry module, which reads its engine's fields: no rule is decided here.
    """
    parties = result["parties"]
    members = result.get("team_members")
    by_player = not members
    module = form_module(result["game"]) if result.get("game") in FORMS else None
    game_end = getattr(module, "game_end", None)
    breakdown = getattr(module, "breakdown", None)
    numbers = {"game": 0, "match": 0}
    rows = []
    for hand, figures in zip(live_hands, result["hands"], strict=True):
        active = set(figures.get("active", parties))
        round_kind = figures.get("round") or "normal"
        shown = figures.get("scored") or figures["deltas"]
        ends = []
        for kind, winner, games in game_end(figures, result) if game_end else ():
            numbers[kind] += 1
            ends.append(game_end_line(kind=kind, winner=winner, number=numbers[kind], games=games, members=members))
        rows.append(
            {
                "hand": hand,
                "number": figures["number"],
                "dealer": figures.get("dealer"),
                "round": round_kind,
                "round_label": ROUND_LABELS.get(round_kind, ""),
                "multiplier": figures.get("multiplier"),
                "triggers": figures.get("triggers") or [],
                "game_end": ends,
                "breakdown": breakdown(figures, hand.payload, result) if breakdown else None,
                "cells": [
                    {
                        "party": party,
                        "delta": shown[party],
                        "total": figures["totals"][party],
                        "out": by_player and party not in active,
                        "solo": figures.get("soloist") == party,
                    }
                    for party in parties
                ],
            }
        )
    return rows


def describe_payload(*, module, payload):
    """The hand as entered, as (label, value) lines: the module's own words if it has them.

    A hand's past versions are kept as they were stored and never replayed, so one may be of
    a shape the game no longer reads (or never did, from an imported file): that one is shown
    as it is stored, field by field, rather than not at all."""
    describe = getattr(module, "describe", None)
    if describe is not None:
        try:
            return describe(payload)
        except (AttributeError, KeyError, IndexError, TypeError, ValueError):
            pass
    if not isinstance(payload, dict):
        return [("", str(payload))] if payload is not None else []
    lines = []
    for key, value in payload.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k}: {v}" for k, v in value.items())
        elif isinstance(value, list):
            value = ", ".join(
                " ".join(str(v) for v in item.values()) if isinstance(item, dict) else str(item) for item in value
            )
        lines.append((key, value))
    return lines


def shown_name(user, names):
    """How a page names ``user``, who entered or changed something: the player he plays as
    (``names``: {user id: player name}), else the name he gave for the sheet, else his
    username."""
    return names.get(user.pk) or user.get_short_name() or user.get_username()


HISTORY_LABELS = {
    "entered": gettext_lazy("entered"),
    "corrected": gettext_lazy("corrected"),
    "deleted": gettext_lazy("deleted"),
    "restored": gettext_lazy("restored"),
    "removed": gettext_lazy("removed for good"),
    # A hand entered offline whose number another phone took meanwhile.
    "kept": gettext_lazy("kept as the next hand"),
    "replaced": gettext_lazy("replaced"),
    "discarded": gettext_lazy("discarded"),
}
# What the history says of the scorekeeper's choice for a hand from the offline outbox.
OUTBOX_NOTES = {
    "kept": gettext_lazy(
        "Entered offline as hand %(number)s, which another phone had entered meanwhile: kept as the next hand."
    ),
    "replaced": gettext_lazy(
        "Replaced by the hand entered offline as hand %(number)s, in place of the one another phone had entered."
    ),
    "discarded": gettext_lazy(
        "Entered offline as hand %(number)s, which another phone had entered meanwhile: discarded, not on the sheet."
    ),
}
# Kinds whose record shows what changed, before and after.
CHANGING_KINDS = ("corrected", "replaced")


def outbox_note(record):
    """The history's words for the outbox choice ``record`` made (keep, replace, discard),
    "" for any other record."""
    choice = outbox_choices.parse(record.history_change_reason)
    return OUTBOX_NOTES[choice.kind] % {"number": choice.entered_as} if choice is not None else ""


def history_kind(record, before):
    """What a historical record of a hand did, given the record before it: entered,
    corrected, deleted, restored or removed (for good); or, for a hand from the offline
    outbox whose number was taken, kept, replaced or discarded (its change reason says so)."""
    choice = outbox_choices.parse(getattr(record, "history_change_reason", None))
    if choice is not None:
        return choice.kind
    if record.history_type == "+":
        return "entered"
    if record.history_type == "-":
        return "removed"
    was_deleted = before is not None and before.deleted_at is not None
    if not was_deleted and record.deleted_at is not None:
        return "deleted"
    if was_deleted and record.deleted_at is None:
        return "restored"
    return "corrected"


def history_entries(*, records, live_numbers, module, names=None):
    """Who changed what and when, newest first, from the hands' historical records (oldest
    first), in the game's words. A save that changed nothing a player can see is left out.

    ``number`` is a live hand's number now; ``former`` a deleted hand's number when it was
    last on the sheet. ``by``: who did it, as the league knows him (``names``:
    hand_history.member_names), or the name an imported league's file gave; None for the
    system."""
    names = names or {}
    previous = {}
    entries = []
    last_number = {record.id: record.number for record in records if record.number is not None}
    for record in records:
        before = previous.get(record.id)
        kind = history_kind(record, before)
        lines = describe_payload(module=module, payload=record.payload or {})
        changes = []
        if kind in CHANGING_KINDS:
            old = dict(describe_payload(module=module, payload=before.payload if before is not None else {}))
            new = dict(lines)
            labels = list(new) + [label for label in old if label not in new]
            changes = [
                {"field": label, "old": old.get(label), "new": new.get(label)}
                for label in labels
                if old.get(label) != new.get(label)
            ]
        if kind != "corrected" or changes:
            entries.append(
                {
                    "when": record.history_date,
                    "who": record.history_user,
                    "who_name": record.history_user_name,  # an imported league's, as text
                    "by": (
                        shown_name(record.history_user, names)
                        if record.history_user is not None
                        else record.history_user_name
                    ),
                    "kind": kind,
                    "what": HISTORY_LABELS[kind],
                    "hand_id": record.id,
                    "version": record.version,
                    "number": live_numbers.get(record.id),
                    "former": None if record.id in live_numbers else last_number.get(record.id),
                    "note": outbox_note(record),
                    "changes": changes,
                    "summary": " · ".join(str(value) for _label, value in lines),
                    "is_latest": False,
                }
            )
        previous[record.id] = record
    seen = set()
    for entry in reversed(entries):
        entry["is_latest"] = entry["hand_id"] not in seen
        seen.add(entry["hand_id"])
    entries.reverse()
    return entries
