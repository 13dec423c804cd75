"""The later evenings a write of an evening reaches: those whose special rounds it carries
into, directly or through others (``carry_special_rounds``), rewritten so that no cached
figure goes stale.

A correction of an early evening may change what is carried into every evening after it, a
season and more. So the evenings it reaches are read together, a fixed number of queries
whatever their number (their rows come in chunks, so that the evenings after the last one
reached cost little), replayed in memory one after the other until one is given what it was
given before, and only then compared with their stored rows: what differs is written in one
statement per table and kind of change.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any

from django.db.models import JSONField, Value
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from leagues.cashbox import open_mark
from leagues.exceptions import InvalidInput, field_error
from leagues.models import Hand, HandResult, Meeting, MeetingCarry, MeetingResult, Seat
from leagues.table.replay import (
    calculate_with_given,
    carries_rounds,
    forgotten_pennants,
    hands_digest,
    meeting_request,
    outgoing_queue,
    played_after,
)
from leagues.table.results import (
    HAND_KEY,
    MEETING_FIGURES,
    MEETING_KEY,
    RESULT_FIGURES,
    compared,
    hand_row_builder,
    meeting_row_builder,
    stored_rows_by_key,
    wanted_hand_rows,
    wanted_meeting_rows,
    write_rows,
)
from leagues.table.selectors import Seated

# Fetched at a time: the evenings, and the rows of their hands and seats (some fifty evenings'
# worth). Beyond the last evening reached, at most this many more are read, however many follow.
EVENINGS_AT_ONCE, ROWS_AT_ONCE = 50, 2000

LiveHand = namedtuple("LiveHand", ("pk", "payload"))
CARRY_FIELDS = ("carried_in", "queue_after", "hands_digest")


@dataclass(frozen=True)
class Reached:
    """A later evening replayed with the rounds ``carried`` into it now: its live ``hands``,
    its ``seated`` players and the ``result``."""

    meeting: Meeting
    hands: list[LiveHand]
    seated: list[Seated]
    carried: tuple[str, ...]
    result: dict[str, Any]


def replay_later_meetings(meeting: Meeting, result: dict[str, Any]) -> None:
    """After ``meeting`` changed (``result``: its replay now): rewrite the results of the
    meetings after it whose special rounds it carried into, directly or through others.

    It stops at the first later meeting that is given the same rounds as its cached results
    were replayed with: from there on nothing changes (a correction of the first evening does
    not rewrite every evening after it). Most writes stop at the next meeting: one query.
    A table of a club night carries nothing on, and locks no other table."""
    if meeting.club_night_id is not None:
        return
    carried = outgoing_queue(result)
    # Its own writers hold this lock while they replace its results; without it, both would
    # write a full set of rows for it. Only its id, its rules and what it was given are read.
    next_one = (
        played_after(meeting).select_for_update(of=("self",)).values_list("id", "rules", "carry__carried_in").first()
    )
    if next_one is None or not next_one[1].get("carry_special_rounds"):
        return  # the chain is broken here: nothing after it depends on ``meeting`` (carries_rounds)
    if next_one[2] is not None and tuple(next_one[2]) == carried:
        return  # given what it was given before: its results (and all after it) stand
    reached, to_the_last = _reached(meeting, carried)
    write_reached(reached)
    if to_the_last:
        # An evening started since they were locked starts from what the last one leaves now.
        replay_later_meetings(reached[-1].meeting, reached[-1].result)


def _reached(meeting: Meeting, carried: tuple[str, ...]) -> tuple[list[Reached], bool]:
    """The later meetings the rounds ``carried`` out of ``meeting`` reach, in playing order,
    each replayed with what it is given now, and whether they reach the last one. Every later
    meeting is locked first, in playing order (the order every writer takes them in, so that
    two writers of one chain never wait for each other in a circle), and only then are their
    hands read."""
    ids = list(played_after(meeting).select_for_update(of=("self",)).values_list("id", flat=True))
    forgotten = forgotten_pennants(league_id=meeting.league_id)
    # Those locked only (an evening started meanwhile is looked at once they are written).
    meetings = (
        Meeting.objects.filter(pk__in=ids)
        .order_by("date", "id")
        .select_related("season", "carry")
        .with_season_start()
        .iterator(chunk_size=EVENINGS_AT_ONCE)
    )
    hands = _ByMeeting(
        Hand.objects.filter(meeting_id__in=ids, deleted_at=None)
        .order_by("meeting__date", "meeting_id", "position")
        .values_list("meeting_id", "pk", "payload")
    )
    seats = _ByMeeting(
        Seat.objects.filter(meeting_id__in=ids)
        .order_by("meeting__date", "meeting_id", "position")
        .values_list("meeting_id", "player_id", "player__name", "position")
    )
    reached, to_the_last = [], True
    try:
        for later_meeting in meetings:
            cached = _carry_of(later_meeting)
            if not carries_rounds(later_meeting) or (cached is not None and tuple(cached.carried_in) == carried):
                to_the_last = False
                break
            one = _replay_reached(
                later_meeting,
                hands=[LiveHand(*row) for row in hands.of(later_meeting.pk)],
                seated=[Seated(*row) for row in seats.of(later_meeting.pk)],
                carried=carried,
                forgotten=forgotten,
            )
            reached.append(one)
            carried = outgoing_queue(one.result)
    finally:
        # Their cursors closed before anything is written (SQLite reads and writes on one).
        meetings.close()
        hands.close()
        seats.close()
    return reached, to_the_last


def _replay_reached(meeting: Meeting, *, hands, seated, carried, forgotten) -> Reached:
    payloads = [hand.payload for hand in hands]
    request = meeting_request(meeting, payloads=payloads, players=seated, forgotten=forgotten)
    try:
        result, _given = calculate_with_given(meeting, request=request, carried=carried)
    except InvalidInput as error:
        message = _(
            "This would change the rounds carried into the evening of %(date)s, which would then no longer add up."
        )
        raise field_error("carried_rounds", message % {"date": date_format(meeting.date)}) from error
    return Reached(meeting, hands, seated, carried, result)


class _ByMeeting:
    """The rows of a query in the playing order of their meetings, the meeting's id first,
    taken meeting by meeting as the replay goes (fetched in chunks)."""

    def __init__(self, rows):
        self._rows = rows.iterator(chunk_size=ROWS_AT_ONCE)
        self._groups = groupby(self._rows, key=itemgetter(0))
        self._next = next(self._groups, None)

    def of(self, meeting_id: int) -> list[tuple]:
        """The rows of meeting ``meeting_id`` without its id (none: it has no rows)."""
        if self._next is None or self._next[0] != meeting_id:
            return []
        rows = [row[1:] for row in self._next[1]]
        self._next = next(self._groups, None)
        return rows

    def close(self) -> None:
        self._rows.close()


def _carry_of(meeting: Meeting) -> MeetingCarry | None:
    try:
        return meeting.carry
    except MeetingCarry.DoesNotExist:
        return None


def write_reached(reached: list[Reached]) -> None:
    """Bring the cached results of the ``reached`` meetings in line with their replays, as
    ``write_results`` does for one meeting: their stored rows read in one query per table,
    and only the rows whose figures changed written, one statement per table and kind of
    change."""
    if not reached:
        return
    ids = [one.meeting.pk for one in reached]
    hand_rows = _stored(HandResult, ids, key=HAND_KEY, figures=RESULT_FIGURES)
    meeting_rows = _stored(MeetingResult, ids, key=MEETING_KEY, figures=MEETING_FIGURES)
    hand_changes, meeting_changes = _Changes(), _Changes()
    for one in reached:
        wanted = wanted_hand_rows(one.hands, one.result, seated=one.seated)
        hand_changes.add(
            hand_rows.get(one.meeting.pk, {}), wanted, figures=RESULT_FIGURES, build=hand_row_builder(one.meeting)
        )
        if not one.meeting.imported_totals:  # those rows are the totals copied from paper, no sums
            meeting_changes.add(
                meeting_rows.get(one.meeting.pk, {}),
                wanted_meeting_rows(one.meeting, wanted, seated=one.seated),
                figures=MEETING_FIGURES,
                build=meeting_row_builder(one.meeting),
            )
    hand_changes.write(HandResult, figures=RESULT_FIGURES)
    meeting_changes.write(MeetingResult, figures=MEETING_FIGURES)
    _write_carries(reached)
    # Closed evenings played for money: what they leave to pay may have changed.
    open_mark.keep_marks([one.meeting for one in reached])


def _stored(model, ids: list[int], *, key, figures) -> dict[int, dict]:
    """{meeting id: {key: (pk, figures)}} of the ``model`` rows of meetings ``ids``: one query."""
    rows = (
        model.objects.filter(meeting_id__in=ids).order_by("meeting_id").values_list("meeting_id", *key, "pk", *figures)
    )
    return {
        meeting_id: stored_rows_by_key((values[1:] for values in group), width=len(key))
        for meeting_id, group in groupby(rows, key=itemgetter(0))
    }


class _Changes:
    """What ``compared`` finds in several meetings, gathered to be written at once."""

    def __init__(self):
        self.created, self.changed, self.fields, self.stale = [], [], set(), []

    def add(self, stored, wanted, *, figures, build) -> None:
        created, changed, fields = compared(stored, wanted, figures=figures, build=build)
        self.created += created
        self.changed += changed
        self.fields |= fields
        # What is left in ``stored``: rows of hands deleted since, or of players no longer in a hand.
        self.stale += [pk for pk, _values in stored.values()]

    def write(self, model, *, figures) -> None:
        fields = [name for name in figures if name in self.fields]
        write_rows(model, created=self.created, changed=self.changed, fields=fields, stale=self.stale)


def _write_carries(reached: list[Reached]) -> None:
    """Each reached meeting's MeetingCarry: what it was given, what it leaves open and the
    digest of its hands; the rows that changed (or are missing) in one upsert of the fields
    that changed, nothing when none did."""
    rows, fields = [], set()
    for one in reached:
        values = {
            "carried_in": list(one.carried),
            "queue_after": list(outgoing_queue(one.result)),
            "hands_digest": hands_digest([hand.payload for hand in one.hands]),
        }
        cached = _carry_of(one.meeting)
        differ = [name for name, value in values.items() if cached is None or getattr(cached, name) != value]
        if differ:
            # As literal values: PostgreSQL's bulk insert of plain values sends each column as
            # one array, and a queue of hundreds of rounds quoted into an array element costs
            # more than the replay of its evening.
            literal = {
                name: Value(value, output_field=JSONField()) for name, value in values.items() if name != "hands_digest"
            }
            rows.append(MeetingCarry(meeting_id=one.meeting.pk, **(values | literal)))
            fields.update(differ)
    if rows:
        # An upsert: one statement, where an update of many rows is a CASE per field and row;
        # it also takes a row a page may have cached a moment ago (carried_rounds_for).
        MeetingCarry.objects.bulk_create(
            rows,
            update_conflicts=True,
            unique_fields=["meeting"],
            update_fields=[f for f in CARRY_FIELDS if f in fields],
        )
