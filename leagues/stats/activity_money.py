"""The league's money on its activity page (leagues/stats/activity.py): cashbox entries
recorded and undone by a counter-entry, the cash counted, and an evening's payments ticked as
paid, each a card in the players' words. One query a source, cut by the page's cursor as
the other sources are.

A payment ticked into or out of the cashbox records its ledger entry at the same instant:
the tick's card says it, so that entry is not shown twice (it still counts where the page
is cut)."""

from decimal import Decimal

from django.db.models import Exists, OuterRef
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from leagues.models import CashboxEntry, CashCount, PaidHow, Payment
from leagues.money import money_text
from leagues.stats.activity import CASHBOX, COUNT, MEETING_RULES, PAYMENT, Event, newest_page

HOW = {PaidHow.CASH: gettext_lazy("in cash"), PaidHow.TRANSFER: gettext_lazy("by transfer")}


def _words(kind_label, cents, note) -> str:
    """ "deposit: 50,00 € · Start": what went in or out, and why."""
    text = f"{kind_label}: {money_text(Decimal(cents) / 100)}"
    return f"{text} · {note}" if note else text


def _entry_events(*, league, cursor, size):
    """Cashbox entries recorded (money in or out) and undone (one query)."""
    entries = (
        CashboxEntry.objects.filter(league=league)
        .select_related("counters", "meeting")
        .defer(*(f"meeting__{name}" for name in MEETING_RULES))
        .annotate(ticked=Exists(Payment.objects.filter(cashbox_entry=OuterRef("pk"))))
    )
    events = []
    for entry in newest_page(entries, cursor=cursor, source=CASHBOX, when="recorded_at", size=size):
        undone = entry.counters
        if undone is not None:
            kind, summary = "cash_undone", _words(undone.get_kind_display(), undone.cents, entry.note)
        else:
            kind = "cash_in" if entry.cents > 0 else "cash_out"
            summary = _words(entry.get_kind_display(), entry.cents, entry.note)
        events.append(
            Event(
                entry.recorded_at,
                CASHBOX,
                entry.pk,
                kind,
                entry.recorded_by_id,
                entry.meeting,
                summary=summary,
                who=entry.recorded_by_name or "",
                title=_("Cashbox"),
                hidden=entry.ticked,
            )
        )
    return events


def _count_events(*, league, cursor, size):
    """The cash counted (one query)."""
    counts = CashCount.objects.filter(league=league)
    events = []
    for count in newest_page(counts, cursor=cursor, source=COUNT, when="recorded_at", size=size):
        summary = _("%(amount)s counted on %(date)s") % {
            "amount": money_text(Decimal(count.cents) / 100),
            "date": date_format(count.counted_on, _("j M Y")),
        }
        events.append(
            Event(
                count.recorded_at,
                COUNT,
                count.pk,
                "cash_counted",
                count.counted_by_id,
                summary=f"{summary} · {count.note}" if count.note else summary,
                who=count.counted_by_name or "",
                title=_("Cashbox"),
            )
        )
    return events


def _payment_events(*, league, cursor, size):
    """Payments of an evening ticked as paid (one query)."""
    payments = (
        Payment.objects.filter(league=league)
        .select_related("payer", "payee", "meeting")
        .defer("settled", *(f"meeting__{name}" for name in MEETING_RULES))
    )
    events = []
    for payment in newest_page(payments, cursor=cursor, source=PAYMENT, when="paid_at", size=size):
        summary = _("%(payer)s to %(payee)s: %(amount)s, %(how)s") % {
            "payer": payment.payer.name if payment.payer else _("the cashbox"),
            "payee": payment.payee.name if payment.payee else _("the cashbox"),
            "amount": money_text(Decimal(payment.cents) / 100),
            "how": str(HOW.get(payment.paid_how, payment.paid_how)),
        }
        events.append(
            Event(
                payment.paid_at,
                PAYMENT,
                payment.pk,
                "payment_ticked",
                payment.ticked_by_id,
                payment.meeting,
                summary=summary,
                who=payment.ticked_by_name or "",
                title=_("Settling up"),
            )
        )
    return events


SOURCES = (_entry_events, _count_events, _payment_events)
