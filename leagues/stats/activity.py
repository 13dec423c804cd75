"""Reads for a league's activity page: who changed what and when, newest first,
from what is already kept:

- hands entered, corrected, deleted and restored: django-simple-history's ``Hand.history``,
  a correction as before → after in the game's words (its hand-entry module's ``describe``);
  a hand from the offline outbox kept, replaced or discarded by its record's change reason;
- evenings closed and reopened: ``Meeting.closed_at``/``closed_by`` and each
  ``MeetingReopening`` (which keeps the closing it undid);
- seasons closed and reopened: ``Season.locked_at``/``locked_by`` and each ``SeasonReopening``
  (which keeps when the season it reopened had been closed, not by whom);
- bills saved: ``SeasonBill.settled_at``/``settled_by`` (a bill replacing an earlier one shows
  what changed);
- house rules changed: ``League.history`` (kept since migration 0010).

Pages are cut by a cursor (the last event shown: its time, its source and its id), not by an
offset: each source is asked for at most one page of events older than the cursor, so a page
costs the same fixed number of queries, and reads the same few rows, however long the league
has played.
"""

import datetime
import re
from dataclasses import dataclass, field

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from leagues.clubs.rulebook import format_value, same_value
from leagues.models import Hand, League, Meeting, MeetingReopening, Player, Season, SeasonBill, SeasonReopening
from leagues.table.hand_entry import FORMS, form_module
from leagues.table.sheet import CHANGING_KINDS, HISTORY_LABELS, describe_payload, history_kind, outbox_note, shown_name
from scoring.registry import get_game

PAGE_SIZE = 50

# The sources, in the order events of the same instant are listed (the later rank first, as a
# bill saved closes its season, which closes its open evenings, all at one instant).
HAND, EVENING_CLOSED, EVENING_CLOSED_BEFORE, EVENING_REOPENED = 0, 1, 2, 3
SEASON_CLOSED, SEASON_CLOSED_BEFORE, SEASON_REOPENED, BILL, RULES = 4, 5, 6, 7, 8

WHAT = {
    "evening_closed": gettext_lazy("evening closed"),
    "evening_reopened": gettext_lazy("evening reopened"),
    "season_closed": gettext_lazy("season closed"),
    "season_reopened": gettext_lazy("season reopened"),
    "bill_saved": gettext_lazy("bill saved"),
    "bill_changed": gettext_lazy("bill changed"),
    "rules_changed": gettext_lazy("house rules changed"),
}


@dataclass(frozen=True)
class Cursor:
    """Where a page ends: events strictly older than (when, source, id) come next."""

    when: datetime.datetime
    source: int
    id: int

    def token(self) -> str:
        # Whole microseconds since the epoch, exactly (a float's timestamp() can be 1 µs off).
        micros = (self.when - EPOCH) // datetime.timedelta(microseconds=1)
        return f"{micros}-{self.source}-{self.id}"


EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
CURSOR = re.compile(r"(\d{1,17})-(\d)-(\d{1,18})")


def parse_cursor(text: str) -> Cursor:
    """The cursor of an "older" link; ValueError for anything else."""
    match = CURSOR.fullmatch(text or "")
    if match is None or int(match[2]) > RULES:
        raise ValueError(text)
    micros, source, pk = (int(g) for g in match.groups())
    return Cursor(EPOCH + datetime.timedelta(microseconds=micros), source, pk)


@dataclass
class Event:
    when: datetime.datetime
    source: int
    id: int
    kind: str  # entered, corrected, deleted, restored, removed, or a key of WHAT
    user: object = None  # who did it (a User), None when not known
    meeting: object = None  # the evening it concerns (a Meeting)
    season: object = None  # the season it concerns (a Season)
    number: int | None = None  # a hand's number on the sheet
    summary: str = ""  # a hand as entered, in the game's words
    changes: list = field(default_factory=list)  # [{"field", "old", "new"}]
    reason: str = ""  # why an evening or a season was reopened
    note: str = ""  # a hand from the offline outbox: what its scorekeeper chose
    late: bool = False  # a hand changed after its evening had been closed
    hidden: bool = False  # not shown, but counted where the page is cut
    # The name the league knows the user by (set by ``activity_page``); where no account is
    # linked, the name an imported league's file gave (leagues/exchange.py).
    who: str = ""

    @property
    def key(self):
        return (self.when, self.source, self.id)

    @property
    def is_hand(self):
        return self.source == HAND

    @property
    def closer_not_kept(self):
        """A season's closing undone by a reopening: who closed it was not recorded."""
        return self.source == SEASON_CLOSED_BEFORE

    @property
    def what(self):
        return HISTORY_LABELS.get(self.kind) or WHAT.get(self.kind, self.kind)


@dataclass
class ActivityPage:
    events: list
    older: str | None  # the cursor token of the next page, None on the last one


def _older_than(cursor: Cursor | None, source: int, when: str, pk: str = "pk") -> Q:
    """Rows of ``source`` that come after ``cursor`` in the newest-first order (time, source,
    id), for its time field ``when``."""
    if cursor is None:
        return Q(**{f"{when}__isnull": False})
    if source < cursor.source:
        return Q(**{f"{when}__lte": cursor.when})
    if source > cursor.source:
        return Q(**{f"{when}__lt": cursor.when})
    return Q(**{f"{when}__lt": cursor.when}) | Q(**{when: cursor.when, f"{pk}__lt": cursor.id})


def _newest(queryset, *, cursor, source, when, pk="pk", size):
    return list(queryset.filter(_older_than(cursor, source, when, pk)).order_by(f"-{when}", f"-{pk}")[: size + 1])


def _changes(old_lines, new_lines):
    old, new = dict(old_lines), dict(new_lines)
    labels = list(new) + [label for label in old if label not in new]
    return [{"field": lb, "old": old.get(lb), "new": new.get(lb)} for lb in labels if old.get(lb) != new.get(lb)]


def _hand_events(*, league, cursor, size):
    """Hand versions, newest first (three queries: the versions, every version of their hands
    up to them, and the closings of their evenings)."""
    records = _newest(
        Hand.history.filter(meeting__league=league).select_related("meeting", "history_user"),
        cursor=cursor,
        source=HAND,
        when="history_date",
        pk="history_id",
        size=size,
    )
    if not records:
        return []
    # The version before each one: it tells a deletion from a correction, and what changed.
    versions = Hand.history.filter(
        id__in={r.id for r in records}, history_date__lte=max(r.history_date for r in records)
    ).order_by("history_date", "history_id")
    before_of, last = {}, {}
    for version in versions:
        before_of[version.history_id] = last.get(version.id)
        last[version.id] = version
    # When each evening was closed, then and now (a reopening keeps the closing it undid).
    closings = {}
    reopenings = MeetingReopening.objects.filter(meeting_id__in={r.meeting_id for r in records})
    for meeting_id, closed_at in reopenings.values_list("meeting_id", "was_closed_at"):
        closings.setdefault(meeting_id, []).append(closed_at)
    events = []
    for record in records:
        before = before_of.get(record.history_id)
        kind = history_kind(record, before)
        meeting = record.meeting
        module = form_module(meeting.game) if meeting.game in FORMS else None
        lines = describe_payload(module=module, payload=record.payload or {})
        changes = []
        if kind in CHANGING_KINDS:
            changes = _changes(describe_payload(module=module, payload=before.payload if before else {}), lines)
        closed = closings.get(meeting.id, []) + ([meeting.closed_at] if meeting.closed_at else [])
        events.append(
            Event(
                when=record.history_date,
                source=HAND,
                id=record.history_id,
                kind=kind,
                user=record.history_user,
                who=record.history_user_name or "",
                meeting=meeting,
                number=record.number if record.number is not None else (before.number if before else None),
                summary=" · ".join(str(value) for _label, value in lines),
                changes=changes,
                note=outbox_note(record),
                # A hand changed once its evening had been closed (after a reopening).
                late=any(t < record.history_date for t in closed),
                # A save that changed nothing a player can see is not shown (it still counts
                # for the page's cut).
                hidden=kind == "corrected" and not changes,
            )
        )
    return events


def _evening_events(*, league, cursor, size):
    """Evenings closed (now, and before a reopening) and reopened: three queries."""
    events = []
    closed = Meeting.objects.filter(league=league).select_related("closed_by", "season")
    for m in _newest(closed, cursor=cursor, source=EVENING_CLOSED, when="closed_at", size=size):
        events.append(
            Event(
                m.closed_at,
                EVENING_CLOSED,
                m.pk,
                "evening_closed",
                m.closed_by,
                m,
                m.season,
                who=m.closed_by_name or "",
            )
        )
    reopenings = MeetingReopening.objects.filter(meeting__league=league).select_related(
        "meeting", "meeting__season", "reopened_by", "was_closed_by"
    )
    for r in _newest(reopenings, cursor=cursor, source=EVENING_CLOSED_BEFORE, when="was_closed_at", size=size):
        events.append(
            Event(
                r.was_closed_at,
                EVENING_CLOSED_BEFORE,
                r.pk,
                "evening_closed",
                r.was_closed_by,
                r.meeting,
                who=r.was_closed_by_name or "",
            )
        )
    for r in _newest(reopenings, cursor=cursor, source=EVENING_REOPENED, when="reopened_at", size=size):
        events.append(
            Event(
                r.reopened_at,
                EVENING_REOPENED,
                r.pk,
                "evening_reopened",
                r.reopened_by,
                r.meeting,
                reason=r.reason,
                who=r.reopened_by_name or "",
            )
        )
    return events


def _season_events(*, league, cursor, size):
    """Seasons closed (now, and before a reopening: who closed it then is not kept) and
    reopened: three queries."""
    events = []
    seasons = Season.objects.filter(league=league).select_related("locked_by")
    for s in _newest(seasons, cursor=cursor, source=SEASON_CLOSED, when="locked_at", size=size):
        events.append(
            Event(s.locked_at, SEASON_CLOSED, s.pk, "season_closed", s.locked_by, season=s, who=s.locked_by_name or "")
        )
    reopenings = SeasonReopening.objects.filter(season__league=league).select_related("season", "reopened_by")
    for r in _newest(reopenings, cursor=cursor, source=SEASON_CLOSED_BEFORE, when="was_locked_at", size=size):
        events.append(Event(r.was_locked_at, SEASON_CLOSED_BEFORE, r.pk, "season_closed", None, season=r.season))
    for r in _newest(reopenings, cursor=cursor, source=SEASON_REOPENED, when="reopened_at", size=size):
        events.append(
            Event(
                r.reopened_at,
                SEASON_REOPENED,
                r.pk,
                "season_reopened",
                r.reopened_by,
                season=r.season,
                reason=r.reason,
                who=r.reopened_by_name or "",
            )
        )
    return events


def _bill_lines(bill):
    """A stored bill as (label, value) lines, to show what a new bill changed."""
    lines = [(_("Total"), f"{bill.total_with_tip} €")]
    lines += [(name, f"{share} €") for name, share in bill.shares.items()]
    return lines


def _bill_events(*, league, cursor, size):
    """Bills saved; one that replaced an earlier bill shows what changed (two queries)."""
    bills = _newest(
        SeasonBill.objects.filter(season__league=league).select_related("season", "settled_by"),
        cursor=cursor,
        source=BILL,
        when="settled_at",
        size=size,
    )
    if not bills:
        return []
    # The bill each one replaced: the one of its season replaced at the moment it was saved.
    replaced = {
        (b.season_id, b.replaced_at): b
        for b in SeasonBill.objects.filter(
            season_id__in={b.season_id for b in bills}, replaced_at__in={b.settled_at for b in bills}
        )
    }
    events = []
    for bill in bills:
        before = replaced.get((bill.season_id, bill.settled_at))
        changes = _changes(_bill_lines(before), _bill_lines(bill)) if before else []
        events.append(
            Event(
                bill.settled_at,
                BILL,
                bill.pk,
                "bill_changed" if before else "bill_saved",
                bill.settled_by,
                season=bill.season,
                summary=f"{bill.total_with_tip} €",
                changes=changes,
                who=bill.settled_by_name or "",
            )
        )
    return events


def _rules(game, record):
    spec = get_game(game)
    rules = dict(spec.presets.get(record.variant, {}))
    rules.update(record.rule_overrides or {})
    return spec, rules


def _rule_changes(game, before, after):
    """What a change of the house rules changed, option by option, as the rules page says it."""
    spec, old = _rules(game, before)
    _spec, new = _rules(game, after)
    changes = []
    if before.variant != after.variant:
        labels = spec.preset_labels
        changes.append(
            {
                "field": _("Rule set"),
                "old": _(labels.get(before.variant, before.variant)),
                "new": _(labels.get(after.variant, after.variant)),
            }
        )
    for option in spec.options:
        a, b = old.get(option.name), new.get(option.name)
        if not same_value(a, b):
            changes.append({"field": _(option.label), "old": format_value(option, a), "new": format_value(option, b)})
    return changes


def _rule_events(*, league, cursor, size):
    """House rules changed: the league's saved versions that changed a rule (two queries)."""
    records = _newest(
        League.history.filter(id=league.pk).select_related("history_user"),
        cursor=cursor,
        source=RULES,
        when="history_date",
        pk="history_id",
        size=size,
    )
    if not records:
        return []
    oldest = records[-1]
    first = (
        League.history.filter(id=league.pk)
        .filter(
            Q(history_date__lt=oldest.history_date)
            | Q(history_date=oldest.history_date, history_id__lt=oldest.history_id)
        )
        .order_by("-history_date", "-history_id")
        .first()
    )
    events = []
    chain = list(reversed(records))
    for i, record in enumerate(chain):
        before = chain[i - 1] if i else first
        changes = _rule_changes(league.game, before, record) if before is not None else []
        events.append(
            Event(
                record.history_date,
                RULES,
                record.history_id,
                "rules_changed",
                record.history_user,
                changes=changes,
                # The league's creation, and saves that changed no rule (its name), are not shown.
                hidden=not changes,
            )
        )
    return events


def activity_page(*, league, cursor=None, size=PAGE_SIZE):
    """One page of the league's activity, newest first, and the cursor of the next page. A
    fixed number of queries (at most 14), whatever the league's size and the page."""
    events = []
    for source in (_hand_events, _evening_events, _season_events, _bill_events, _rule_events):
        events += source(league=league, cursor=cursor, size=size)
    events.sort(key=lambda e: e.key, reverse=True)
    page, more = events[:size], len(events) > size
    shown = [e for e in page if not e.hidden]
    names = dict(
        Player.objects.filter(league=league, user_id__in={e.user.pk for e in shown if e.user}).values_list(
            "user_id", "name"
        )
    )
    for event in shown:
        if event.user is not None:
            event.who = shown_name(event.user, names)
    older = Cursor(*page[-1].key).token() if more and page else None
    return ActivityPage(events=shown, older=older)
