"""Reads of evenings: a meeting as a page, a write or the public link needs it, its seats,
sheet and hands, and what the next evening starts from.

Query counts are fixed whatever the number of hands.
"""

from collections import namedtuple
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy

from leagues.clubs.selectors import league_meetings
from leagues.models import (
    Hand,
    HandResult,
    Meeting,
    MeetingResult,
    Player,
    Seat,
)
from leagues.table import guest_marks, night_winner
from leagues.table.hand_entry import game_end_line


def league_meeting(*, league, pk) -> Meeting | None:
    """The meeting ``pk`` of ``league`` (``league_meetings``), or None."""
    meeting = league_meetings().filter(league=league, pk=pk).first()
    if meeting is not None:
        meeting.league = league
    return meeting


def meeting_for_entry(*, pk, league=None) -> Meeting | None:
    """The meeting ``pk`` (of ``league``, when given; ``league_meetings``) locked until the
    transaction ends, or None: the lock every writer of its hands takes first, so that two
    phones' writes of one evening come one after the other (SQLite locks the whole database
    for a writer instead). Its season and host are read with it, not locked: ``lock_season``
    takes the season's lock before its meetings'."""
    meetings = league_meetings().select_for_update(of=("self",)).filter(pk=pk)
    if league is not None:
        meetings = meetings.filter(league=league)
    meeting = meetings.first()
    if meeting is not None and league is not None:
        meeting.league = league
    return meeting


def public_meeting(*, token, pk) -> Meeting | None:
    """The meeting ``pk`` of the league whose public link is ``token`` (``league_meetings``), with
    its league, or None."""
    if not token:
        return None
    return league_meetings().select_related("league").filter(pk=pk, league__public_token=token).first()


def live_payloads(*, meeting) -> list:
    """The live hands' payloads of ``meeting`` in playing order (what its replay reads)."""
    return list(Hand.objects.filter(meeting=meeting).live().values_list("payload", flat=True))


Seated = namedtuple("Seated", ("pk", "name", "position"))


def seats_of(meeting: Meeting) -> list[Seated]:
    """The meeting's seated players in seat order as (pk, name, position): the names are all
    a replay reads of them. A write reads them once (its replay, the players of its
    HandResult rows, the evening winner's seat order); a page that has them can pass them to
    ``calculate_meeting`` (``players``) instead of a second read."""
    seats = Seat.objects.filter(meeting=meeting).order_by("position")
    return [Seated(*row) for row in seats.values_list("player_id", "player__name", "position")]


# Labels of the kinds of rounds a replay may report (calculate-api.md, Doppelkopf ``round``).
ROUND_LABELS = {
    "bock": gettext_lazy("Bock"),
    "ramsch": gettext_lazy("Ramsch"),
    "pflichtsolo": gettext_lazy("Pflichtsolo"),
    "penalty": gettext_lazy("Penalty solo"),
}


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
    rows, games = _sheet_rows(meeting, players, columns, index)
    _draw_game_ends(rows, games, meeting.teams or {})
    totals = [cell[1] if cell else 0 for cell in rows[-1].cells] if rows else [0] * len(columns)
    return columns, rows, totals


def _sheet_rows(meeting, players, columns, index):
    """The sheet's rows in hand order from HandResult, and {hand number: (the first player
    in a column who won a game there, games won)}."""
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
    return [rows[n] for n in sorted(rows)], games


def _draw_game_ends(rows, games, teams):
    """Draw the line under each hand that won a game, and show the hand after it as what it
    scored (its total: the game after starts from 0)."""
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


def imported_totals(*, meeting):
    """(name, total) in seat order of an evening copied from paper as totals."""
    totals = dict(MeetingResult.objects.filter(meeting=meeting).values_list("player_id", "total"))
    return [(seat.player.name, totals.get(seat.player_id, 0)) for seat in meeting.seats.in_order()]


def meeting_winner(*, meeting):
    """The winner of a closed meeting (league.md, the pennant), by the same rule as the
    standings' evenings won: highest total; ties, first in seat order (decided when its
    results were written, ``services.meeting_result_rows``). None while the evening is open
    (no query then) or when no hand was played. A table of a club night: the night's winner,
    once every table of it is closed (``night_winner``). One query."""
    if meeting.club_night_id is not None:
        return _kept_winner(MeetingResult.objects.filter(meeting__club_night_id=meeting.club_night_id))
    if meeting.closed_at is None:
        return None
    return evening_leader(meeting=meeting)


def evening_leader(*, meeting):
    """Who wins ``meeting`` if it ends as it stands (its winner, once closed): "End the
    evening?" names him before the scorekeeper answers. One query. At a table of a club night
    the night's: nobody while another of its tables is open (ending this one does not end
    the night), the night's leader at its last open table (five queries)."""
    if meeting.club_night_id is None:
        return _kept_winner(MeetingResult.objects.filter(meeting=meeting))
    tables = Meeting.objects.filter(club_night_id=meeting.club_night_id)
    if tables.exclude(pk=meeting.pk).filter(closed_at=None).exists():
        return None
    if meeting.closed_at is not None:
        return meeting_winner(meeting=meeting)
    leader = night_winner.night_leader(night_id=meeting.club_night_id)
    return None if leader is None else Player(pk=leader[0], name=leader[1], league_id=meeting.league_id)


def _kept_winner(results):
    """The player of the row of ``results`` marked as the evening's winner, or None."""
    row = results.filter(won_evening=True).select_related("player").first()
    return row.player if row is not None else None


def suggested_pennant_holder(*, league):
    """The winner of the previous meeting, who must bring the pennant to the next one (None
    while that evening is still open: it has no winner yet)."""
    last = last_meeting(league=league)
    return meeting_winner(meeting=last) if last is not None else None


def last_meeting(*, league):
    """The league's latest meeting (by date), or None; of a club night, its first table still
    open, else its last table."""
    last = Meeting.objects.filter(league=league).order_by("-date", "-id").first()
    if last is None or last.club_night_id is None or last.closed_at is None:
        return last
    still_open = Meeting.objects.filter(club_night_id=last.club_night_id, closed_at=None)
    return still_open.order_by("table_number").first() or last


def meeting_hands(*, meeting, entered_by=True):
    """Every hand of a meeting, deleted ones included, in playing order, in one query; with
    who entered each unless ``entered_by`` is False (the sheet never names him)."""
    hands = meeting.hands.order_by("position")
    if entered_by:
        hands = hands.select_related("entered_by")
    return list(hands)


def meeting_history(*, meeting):
    """Every recorded version of every hand of a meeting, oldest first, in one query."""
    return list(Hand.history.filter(meeting_id=meeting.pk).order_by("history_date", "history_id"))


def entered_by_link(*, link, hand_ids) -> set[int]:
    """Which of the hands ``hand_ids`` the guest's scorer ``link`` entered, in one query: the
    record that entered each names the link (``guest_marks``) and is no older than the link,
    so a hand an imported league's file names with a link of another database is none of his."""
    entered = Hand.history.filter(
        id__in=list(hand_ids),
        meeting_id=link.meeting_id,
        history_type="+",
        history_user=None,
        history_change_reason=guest_marks.reason(link.pk),
        history_date__gte=link.created_at,
    )
    return set(entered.values_list("id", flat=True))
