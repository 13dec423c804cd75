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
- house rules changed: ``League.history`` (kept since migration 0010);
- the league's money (leagues/stats/activity_money.py): cashbox entries recorded and undone,
  the cash counted, payments of an evening ticked as paid.

Pages are cut by a cursor (the last event shown: its time, its source and its id), not by an
offset: each source is asked for at most one page of events older than the cursor, so a page
costs the same fixed number of queries, and reads the same few rows, however long the league
has played.
"""

import datetime
import re
from dataclasses import dataclass, field

from django.db.models import Min, OuterRef, Q, Subquery
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from leagues.clubs.rulebook import format_value, same_value
from leagues.models import Combine, Hand, League, Meeting, MeetingReopening, Season, SeasonBill, SeasonReopening
from leagues.table.hand_entry import FORMS, form_module
from leagues.table.hand_history import known_names
from leagues.table.sheet import CHANGING_KINDS, HISTORY_LABELS, VersionLines, history_kind, outbox_note, recorded_name
from scoring.registry import get_game

PAGE_SIZE = 50
# The versions kept by django-simple-history, through their models' own managers: asked as
# ``Hand.history``, it builds its manager's class anew each time.
HAND_VERSIONS = Hand.history.model.objects
LEAGUE_VERSIONS = League.history.model.objects
# What a meeting was started with: the page shows none of it, and its rules are a few kB of
# JSON a row.
MEETING_RULES = ("rules", "teams", "start_totals")

# The sources, in the order events of the same instant are listed (the later rank first, as a
# bill saved closes its season, which closes its open evenings, all at one instant).
HAND, EVENING_CLOSED, EVENING_CLOSED_BEFORE, EVENING_REOPENED = 0, 1, 2, 3
SEASON_CLOSED, SEASON_CLOSED_BEFORE, SEASON_REOPENED, BILL, RULES = 4, 5, 6, 7, 8
# A payment ticked into the cashbox records its entry at the same instant: the tick first.
CASHBOX, COUNT, PAYMENT = 9, 10, 11
MONEY_SOURCES = (CASHBOX, COUNT, PAYMENT)
LAST_SOURCE = PAYMENT

WHAT = {
    "evening_closed": gettext_lazy("evening closed"),
    "evening_reopened": gettext_lazy("evening reopened"),
    "season_closed": gettext_lazy("season closed"),
    "season_reopened": gettext_lazy("season reopened"),
    "bill_saved": gettext_lazy("bill saved"),
    "bill_changed": gettext_lazy("bill changed"),
    "rules_changed": gettext_lazy("house rules changed"),
    "cash_in": gettext_lazy("into the cashbox"),
    "cash_out": gettext_lazy("out of the cashbox"),
    "cash_undone": gettext_lazy("cashbox entry undone"),
    "cash_counted": gettext_lazy("cashbox counted"),
    "payment_ticked": gettext_lazy("ticked as paid"),
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
CURSOR = re.compile(r"(\d{1,17})-(\d{1,2})-(\d{1,18})")


def parse_cursor(text: str) -> Cursor:
    """The cursor of an "older" link; ValueError for anything else."""
    match = CURSOR.fullmatch(text or "")
    if match is None or int(match[2]) > LAST_SOURCE:
        raise ValueError(text)
    micros, source, pk = (int(g) for g in match.groups())
    return Cursor(EPOCH + datetime.timedelta(microseconds=micros), source, pk)


@dataclass
class Event:
    when: datetime.datetime
    source: int
    id: int
    kind: str  # entered, corrected, deleted, restored, removed, or a key of WHAT
    user_id: int | None = None  # who did it (a User's id), None when not known
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
    # linked, the name an imported league's file gave (leagues/exchange/league_file.py).
    who: str = ""
    # A hand's evening: its sheet's address and its words (set by ``activity_page``).
    evening_url: str = ""
    evening: str = ""
    # The card's words (set by ``activity_page``): its badge, a hand's title, who did it,
    # and its time for the ``<time>`` element.
    badge: str = ""
    title: str = ""
    by: str = ""
    when_iso: str = ""

    @property
    def key(self):
        return (self.when, self.source, self.id)

    @property
    def is_hand(self):
        return self.source == HAND

    @property
    def is_money(self):
        return self.source in MONEY_SOURCES

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


def newest_page(queryset, *, cursor, source, when, pk="pk", size):
    return list(queryset.filter(_older_than(cursor, source, when, pk)).order_by(f"-{when}", f"-{pk}")[: size + 1])


def _changes(old_lines, new_lines):
    old, new = dict(old_lines), dict(new_lines)
    labels = list(new) + [label for label in old if label not in new]
    return [{"field": lb, "old": old.get(lb), "new": new.get(lb)} for lb in labels if old.get(lb) != new.get(lb)]


def _versions_before(records):
    """{history id: the version of its hand saved just before it, or None} of hand versions
    ``records`` (a page, newest first). Each hand's versions on a page are its newest ones
    before the page's end, one after the other: only the oldest of them has its predecessor
    elsewhere, read in one query."""
    before, later = {}, {}
    for record in reversed(records):  # oldest first
        if record.id in later:
            before[record.history_id] = later[record.id]
        later[record.id] = record
    firsts = [r for r in records if r.history_id not in before]
    earlier = (
        HAND_VERSIONS.filter(id=OuterRef("id"))
        .filter(
            Q(history_date__lt=OuterRef("history_date"))
            | Q(history_date=OuterRef("history_date"), history_id__lt=OuterRef("history_id"))
        )
        .order_by("-history_date", "-history_id")
        .values("history_id")[:1]
    )
    ids = HAND_VERSIONS.filter(history_id__in=[r.history_id for r in firsts]).annotate(before=Subquery(earlier))
    found = {version.id: version for version in HAND_VERSIONS.filter(history_id__in=ids.values("before"))}
    before.update((r.history_id, found.get(r.id)) for r in firsts)
    return before


def _evenings_of(records):
    """The evenings of hand versions ``records`` by id, each with ``first_closed``: when it
    was first closed, then or now (a reopening keeps the closing it undid), or None. One
    query."""
    meetings = (
        Meeting.objects.filter(pk__in={r.meeting_id for r in records})
        .defer(*MEETING_RULES)
        .annotate(closed_before=Min("reopenings__was_closed_at"))
        .in_bulk()
    )
    for meeting in meetings.values():
        closings = [t for t in (meeting.closed_at, meeting.closed_before) if t is not None]
        meeting.first_closed = min(closings, default=None)
    return meetings


def _hand_events(*, league, cursor, size):
    """Hand versions, newest first (three queries: the versions, the versions before the
    oldest of each hand's, and their evenings)."""
    records = newest_page(
        HAND_VERSIONS.filter(meeting__league=league),
        cursor=cursor,
        source=HAND,
        when="history_date",
        pk="history_id",
        size=size,
    )
    if not records:
        return []
    # The version before each one: it tells a deletion from a correction, and what changed.
    versions_before = _versions_before(records)
    meetings = _evenings_of(records)
    lines_of = VersionLines()
    events = []
    for record in records:
        before = versions_before[record.history_id]
        kind = history_kind(record, before)
        meeting = meetings[record.meeting_id]
        module = form_module(meeting.game) if meeting.game in FORMS else None
        lines = lines_of(record, module=module)
        changes = _changes(lines_of(before, module=module) if before else [], lines) if kind in CHANGING_KINDS else []
        events.append(
            Event(
                when=record.history_date,
                source=HAND,
                id=record.history_id,
                kind=kind,
                user_id=record.history_user_id,
                who=recorded_name(record) or "",
                meeting=meeting,
                number=record.number if record.number is not None else (before.number if before else None),
                summary=" · ".join(str(value) for _label, value in lines),
                changes=changes,
                note=outbox_note(record),
                # A hand changed once its evening had been closed (after a reopening).
                late=meeting.first_closed is not None and meeting.first_closed < record.history_date,
                # A save that changed nothing a player can see is not shown (it still counts
                # for the page's cut).
                hidden=kind == "corrected" and not changes,
            )
        )
    return events


def _evening_events(*, league, cursor, size):
    """Evenings closed (now, and before a reopening) and reopened: three queries."""
    events = []
    closed = Meeting.objects.filter(league=league).select_related("season").defer(*MEETING_RULES)
    for m in newest_page(closed, cursor=cursor, source=EVENING_CLOSED, when="closed_at", size=size):
        events.append(
            Event(
                m.closed_at,
                EVENING_CLOSED,
                m.pk,
                "evening_closed",
                m.closed_by_id,
                m,
                m.season,
                who=m.closed_by_name or "",
            )
        )
    reopenings = (
        MeetingReopening.objects.filter(meeting__league=league)
        .select_related("meeting")
        .defer(*(f"meeting__{name}" for name in MEETING_RULES))
    )
    for r in newest_page(reopenings, cursor=cursor, source=EVENING_CLOSED_BEFORE, when="was_closed_at", size=size):
        events.append(
            Event(
                r.was_closed_at,
                EVENING_CLOSED_BEFORE,
                r.pk,
                "evening_closed",
                r.was_closed_by_id,
                r.meeting,
                who=r.was_closed_by_name or "",
            )
        )
    for r in newest_page(reopenings, cursor=cursor, source=EVENING_REOPENED, when="reopened_at", size=size):
        events.append(
            Event(
                r.reopened_at,
                EVENING_REOPENED,
                r.pk,
                "evening_reopened",
                r.reopened_by_id,
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
    seasons = Season.objects.filter(league=league)
    for s in newest_page(seasons, cursor=cursor, source=SEASON_CLOSED, when="locked_at", size=size):
        events.append(
            Event(
                s.locked_at, SEASON_CLOSED, s.pk, "season_closed", s.locked_by_id, season=s, who=s.locked_by_name or ""
            )
        )
    reopenings = SeasonReopening.objects.filter(season__league=league).select_related("season")
    for r in newest_page(reopenings, cursor=cursor, source=SEASON_CLOSED_BEFORE, when="was_locked_at", size=size):
        events.append(Event(r.was_locked_at, SEASON_CLOSED_BEFORE, r.pk, "season_closed", None, season=r.season))
    for r in newest_page(reopenings, cursor=cursor, source=SEASON_REOPENED, when="reopened_at", size=size):
        events.append(
            Event(
                r.reopened_at,
                SEASON_REOPENED,
                r.pk,
                "season_reopened",
                r.reopened_by_id,
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
    bills = newest_page(
        SeasonBill.objects.filter(season__league=league).select_related("season"),
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
                bill.settled_by_id,
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
    if before.combine_tables != after.combine_tables:
        methods = dict(Combine.choices)
        changes.append(
            {
                "field": _("Tables combined by"),
                "old": methods.get(before.combine_tables, before.combine_tables),
                "new": methods.get(after.combine_tables, after.combine_tables),
            }
        )
    return changes


def _rule_events(*, league, cursor, size):
    """House rules changed: the league's saved versions that changed a rule (two queries)."""
    records = newest_page(
        LEAGUE_VERSIONS.filter(id=league.pk),
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
        LEAGUE_VERSIONS.filter(id=league.pk)
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
                record.history_user_id,
                changes=changes,
                # The league's creation, and saves that changed no rule (its name), are not shown.
                hidden=not changes,
            )
        )
    return events


def _name_people(events, *, league):
    """Who did each of ``events``, as the league knows him (one query)."""
    names = known_names(league=league, user_ids={e.user_id for e in events if e.user_id is not None})
    for event in events:
        if event.user_id in names:
            event.who = names[event.user_id]


def _name_evenings(events, *, league):
    """Each hand event's evening, its sheet's address and its words ("evening of 9 Jan
    2026", at a club night "evening of 9 Jan 2026, table 2"), made once an evening for the many events of one evening: the address and the
    date's words cost as much again as the rest of an event's card."""
    named = {}
    for event in events:
        if event.meeting is None or not (event.is_hand or event.is_money):
            continue
        meeting = event.meeting
        if meeting.pk not in named:
            url = reverse("meeting", kwargs={"slug": league.slug, "pk": meeting.pk})
            day = date_format(meeting.date, _("j M Y"))
            if meeting.table_number is None:
                named[meeting.pk] = url, _("evening of %(date)s") % {"date": day}
            else:  # a table of a club night
                words = _("evening of %(date)s, table %(number)s")
                named[meeting.pk] = url, words % {"date": day, "number": meeting.table_number}
        event.evening_url, event.evening = named[meeting.pk]


def _card_words(events):
    """Each event's card words that repeat down a page: its badge (``what``), a hand's title
    ("Hand 12"), who did it ("by Anna") and its time as the ``<time>`` element's machine
    value, each made once a page for the events that share it, as for the evenings."""
    made = {}

    def once(key, make):
        if key not in made:
            made[key] = make()
        return made[key]

    for event in events:
        event.badge = once(("what", event.kind), lambda e=event: str(e.what))
        if event.is_hand and event.number:
            event.title = once(("hand", event.number), lambda e=event: _("Hand %(number)s") % {"number": e.number})
        if event.who:
            event.by = once(("by", event.who), lambda e=event: _("by %(who)s") % {"who": e.who})
        event.when_iso = localtime(event.when).isoformat()


def activity_page(*, league, cursor=None, size=PAGE_SIZE):
    """One page of the league's activity, newest first, and the cursor of the next page. A
    fixed number of queries (at most 17), whatever the league's size and the page."""
    # Imported here: the money's sources build on this module's events and cursor.
    from leagues.stats import activity_money

    events = []
    sources = (_hand_events, _evening_events, _season_events, _bill_events, _rule_events, *activity_money.SOURCES)
    for source in sources:
        events += source(league=league, cursor=cursor, size=size)
    events.sort(key=lambda e: e.key, reverse=True)
    page, more = events[:size], len(events) > size
    shown = [e for e in page if not e.hidden]
    _name_people(shown, league=league)
    _name_evenings(shown, league=league)
    _card_words(shown)
    older = Cursor(*page[-1].key).token() if more and page else None
    return ActivityPage(events=shown, older=older)
