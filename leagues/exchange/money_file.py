"""A league's money in its JSON export and back: the cashbox's ledger (entries and
counter-entries), its counts, and the payments of the evenings' settlements ticked as paid.

Who recorded, counted or ticked is kept as text, as the rest of the history is. The members'
bank accounts stay out: an IBAN is a member's own, shown only to those who owe him, and an
export is read by whoever gets the file. A settlement itself is not in the file: it is
worked out again from the imported evenings.

In the file an entry names its evening by its place in ``meetings`` (1 for the first), its
season by number, its bill by its place in that season's ``bills``, and the entry a
counter-entry undoes by its place in ``cashbox``; a payment names its cashbox entry the same
way. An import reads every value as hostile input (leagues/exchange/import_checks.py) and
keeps the ledger's rules: money in above zero, money out below it and never more than the
cashbox holds by then, a counter-entry the opposite of an earlier entry that nothing undid.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.exchange import import_checks as checks
from leagues.exchange.import_checks import ImportProblem
from leagues.models import (
    MONEY_IN,
    MONEY_OUT,
    CashboxEntry,
    CashCount,
    EntryKind,
    League,
    PaidHow,
    Payment,
    Seat,
)
from scoring.limits import MAX_MONEY_CENTS


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


# --- out -----------------------------------------------------------------------------------


def export_money(league: League, players: dict[int, str], who) -> dict[str, list]:
    """The head's money parts: ``cashbox``, ``cash_counts`` and ``payments``, in the order they
    were recorded. Five queries, whatever the league's size."""
    meetings = {pk: i for i, pk in enumerate(league.meetings.order_by("date", "id").values_list("pk", flat=True), 1)}
    bills = {}
    for season in league.seasons.prefetch_related("bills"):
        ordered = sorted(season.bills.all(), key=lambda b: (b.settled_at, b.pk))
        bills.update({bill.pk: (season.number, j) for j, bill in enumerate(ordered, 1)})
    entries = list(CashboxEntry.objects.filter(league=league).select_related("season").order_by("recorded_at", "id"))
    places = {entry.pk: i for i, entry in enumerate(entries, 1)}
    return {
        "cashbox": [_entry(e, meetings, bills, places, who) for e in entries],
        "cash_counts": [
            {
                "cents": c.cents,
                "counted_on": _iso(c.counted_on),
                "note": c.note,
                "counted_by": who(c.counted_by_id, c.counted_by_name),
                "recorded_at": _iso(c.recorded_at),
            }
            for c in CashCount.objects.filter(league=league).order_by("recorded_at", "id")
        ],
        "payments": [
            {
                "meeting": meetings[p.meeting_id],
                "payer": players.get(p.payer_id),
                "payee": players.get(p.payee_id),
                "cents": p.cents,
                "paid_how": p.paid_how,
                "paid_at": _iso(p.paid_at),
                "ticked_by": who(p.ticked_by_id, p.ticked_by_name),
                "settled": p.settled,
                "cashbox_entry": places.get(p.cashbox_entry_id),
            }
            for p in Payment.objects.filter(league=league).order_by("paid_at", "id")
        ],
    }


def _entry(entry: CashboxEntry, meetings, bills, places, who) -> dict[str, Any]:
    bill = bills.get(entry.bill_id)
    return {
        "kind": entry.kind,
        "cents": entry.cents,
        "note": entry.note,
        "season": entry.season.number if entry.season_id else (bill[0] if bill else None),
        "meeting": meetings.get(entry.meeting_id),
        "bill": bill[1] if bill else None,
        "counters": places.get(entry.counters_id),
        "recorded_by": who(entry.recorded_by_id, entry.recorded_by_name),
        "recorded_at": _iso(entry.recorded_at),
    }


# --- in --------------------------------------------------------------------------------------


class Places:
    """What the money parts of a file name by place: the imported league's evenings (by their
    place in ``meetings``), seasons (by number) and bills (by season and place)."""

    def __init__(self, *, meetings: dict[int, int], seasons: dict, bills: dict, player):
        self.meetings = meetings  # place -> meeting id
        self.seasons = seasons  # number -> Season
        self.bills = bills  # (season number, place) -> SeasonBill
        self.player = player

    def meeting(self, item, where, *, required) -> int | None:
        place = checks.value(item, "meeting", where, int, required=required)
        if place is not None and place not in self.meetings:
            raise ImportProblem(f"{where}.meeting", _("not the place of an evening in meetings."))
        return None if place is None else self.meetings[place]


def import_money(head, league: League, places: Places) -> None:
    """The file's cashbox, counts and payments into ``league`` (its evenings and bills are in
    already). ImportProblem naming the place of the first value that does not fit."""
    entries = _import_entries(head, league, places)
    for i, item in enumerate(checks.items(head, "cash_counts", ""), start=1):
        _import_count(item, f"cash_counts[{i}]", league)
    seats: dict[int, set[int]] = {}
    for seat in Seat.objects.filter(meeting__league=league).values("meeting_id", "player_id"):
        seats.setdefault(seat["meeting_id"], set()).add(seat["player_id"])
    taken: set[int] = set()
    for i, item in enumerate(checks.items(head, "payments", ""), start=1):
        _import_payment(item, f"payments[{i}]", league, places, entries, seats, taken)


def _import_entries(head, league: League, places: Places) -> dict[int, CashboxEntry]:
    entries: dict[int, CashboxEntry] = {}
    balance = 0
    for i, item in enumerate(checks.items(head, "cashbox", ""), start=1):
        entry = _read_entry(item, f"cashbox[{i}]", league, places, entries)
        if entry.kind in MONEY_OUT and balance + entry.cents < 0:
            raise ImportProblem(f"cashbox[{i}].cents", _("more than the cashbox holds by then."))
        balance += entry.cents
        entry.save()
        entries[i] = entry
    return entries


def _read_entry(item, where, league, places: Places, entries) -> CashboxEntry:
    kind = checks.value(item, "kind", where, str)
    if kind not in EntryKind.values:
        raise ImportProblem(f"{where}.kind", _("not a kind of cashbox entry."))
    cents = checks.whole(item, "cents", where, model=CashboxEntry, field="cents")
    wrong_way = kind != EntryKind.COUNTER and (kind in MONEY_IN) != (cents > 0)
    if not 1 <= abs(cents) <= MAX_MONEY_CENTS or wrong_way:
        raise ImportProblem(
            f"{where}.cents", _("whole cents, money in above 0 and money out below 0, at most 100000000 either way.")
        )
    counters = _countered(item, where, kind, cents, entries)
    season = places.seasons.get(checks.value(item, "season", where, int, required=False))
    if item.get("season") is not None and season is None:
        raise ImportProblem(f"{where}.season", _("not the number of a season in seasons."))
    bill = None
    if item.get("bill") is not None:
        bill = places.bills.get((season.number if season else None, checks.value(item, "bill", where, int)))
        if bill is None:
            raise ImportProblem(f"{where}.bill", _("not the place of a bill in its season's bills."))
    return CashboxEntry(
        league=league,
        kind=kind,
        cents=cents,
        note=checks.text(item, "note", where, model=CashboxEntry, field="note", required=False) or "",
        season=season,
        meeting_id=places.meeting(item, where, required=False),
        bill=bill,
        counters=counters,
        recorded_by_name=checks.who(item, "recorded_by", where),
        recorded_at=checks.moment(item, "recorded_at", where),
    )


def _countered(item, where, kind, cents, entries) -> CashboxEntry | None:
    """The earlier entry a counter-entry undoes (the opposite amount, undone once only)."""
    place = checks.value(item, "counters", where, int, required=kind == EntryKind.COUNTER)
    if kind != EntryKind.COUNTER:
        if place is not None:
            raise ImportProblem(f"{where}.counters", _("only a counter-entry undoes an entry."))
        return None
    undone = entries.get(place)
    if undone is None or undone.kind == EntryKind.COUNTER or getattr(undone, "_undone", False):
        raise ImportProblem(f"{where}.counters", _("not the place of an earlier entry that nothing undid."))
    if undone.cents != -cents:
        raise ImportProblem(f"{where}.cents", _("not the opposite of the entry it undoes."))
    undone._undone = True
    return undone


def _import_count(item, where, league) -> None:
    cents = checks.whole(item, "cents", where, model=CashCount, field="cents")
    if not 0 <= cents <= MAX_MONEY_CENTS:
        raise ImportProblem(f"{where}.cents", _("whole cents from 0 to 100000000."))
    counted_on = checks.day(item, "counted_on", where)
    if counted_on > timezone.localdate():
        raise ImportProblem(f"{where}.counted_on", _("a day from 1900 to today."))
    CashCount.objects.create(
        league=league,
        cents=cents,
        counted_on=counted_on,
        note=checks.text(item, "note", where, model=CashCount, field="note", required=False) or "",
        counted_by_name=checks.who(item, "counted_by", where),
        recorded_at=checks.moment(item, "recorded_at", where),
    )


def _import_payment(item, where, league, places: Places, entries, seats, taken: set[int]) -> None:
    meeting_id = places.meeting(item, where, required=True)
    payer = places.player(item.get("payer"), f"{where}.payer", required=False)
    payee = places.player(item.get("payee"), f"{where}.payee", required=False)
    for key, player in (("payer", payer), ("payee", payee)):
        if player is not None and player.pk not in seats.get(meeting_id, ()):
            raise ImportProblem(f"{where}.{key}", _("not seated at that evening."))
    if payer is None and payee is None:
        raise ImportProblem(f"{where}.payer", _("a payment is between a player and someone."))
    cents = checks.whole(item, "cents", where, model=Payment, field="cents")
    if not 1 <= cents <= MAX_MONEY_CENTS:
        raise ImportProblem(f"{where}.cents", _("whole cents from 1 to 100000000."))
    paid_how = checks.value(item, "paid_how", where, str)
    if paid_how not in PaidHow.values:
        raise ImportProblem(f"{where}.paid_how", _("cash or transfer."))
    entry = _payment_entry(item, where, entries, taken, meeting_id, (payer, payee, cents))
    Payment.objects.create(
        league=league,
        meeting_id=meeting_id,
        payer=payer,
        payee=payee,
        cents=cents,
        paid_how=paid_how,
        paid_at=checks.moment(item, "paid_at", where),
        ticked_by_name=checks.who(item, "ticked_by", where),
        settled=checks.value(item, "settled", where, dict, required=False) or {},
        cashbox_entry=entry,
    )


def _payment_entry(item, where, entries, taken: set[int], meeting_id, line) -> CashboxEntry | None:
    """The ledger's entry of a payment into or out of the cashbox: of its evening, its amount
    in the payment's direction, one payment's only."""
    payer, payee, cents = line
    place = checks.value(item, "cashbox_entry", where, int, required=False)
    if place is None:
        if payer is None or payee is None:
            raise ImportProblem(f"{where}.cashbox_entry", _("missing: the cashbox's entry of this payment."))
        return None
    entry = entries.get(place)
    kind, signed = (EntryKind.PAYOUT, -cents) if payer is None else (EntryKind.EVENING, cents)
    fits = entry is not None and (entry.kind, entry.cents, entry.meeting_id) == (kind, signed, meeting_id)
    if not fits or place in taken or (payer is not None and payee is not None):
        raise ImportProblem(f"{where}.cashbox_entry", _("not the place of this payment's entry in cashbox."))
    taken.add(place)
    return entry
