"""Writes of a league's cashbox: entries in and out, counter-entries, counts, the bill's share,
and a member's own bank account. Each takes the league's lock first (lock order: league,
season, meeting), so that the balance it checks is the balance it changes."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

import schwifty
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from schwifty import exceptions

from leagues.cashbox import open_mark, selectors, settlement
from leagues.exceptions import field_error
from leagues.locks import lock_league
from leagues.models import (
    MONEY_IN,
    MONEY_OUT,
    BankAccount,
    CashboxEntry,
    CashCount,
    EntryKind,
    League,
    Meeting,
    Membership,
    PaidHow,
    Payment,
    Season,
    SeasonBill,
)
from leagues.money import money_text
from leagues.table.hand_history import plays_as
from scoring.limits import MAX_MONEY_CENTS

NOTE_MAX = 200
EARLIEST_COUNT = datetime.date(1900, 1, 1)
HOLDER_MAX = 70


def cents_of(amount: Decimal) -> int:
    """An amount in euros with at most two decimals as whole cents (exact)."""
    cents = Decimal(amount) * 100
    if cents != cents.to_integral_value():
        raise field_error("amount", _("At most two decimals (cents)."))
    return int(cents)


def _note(note: str, *, required: bool) -> str:
    note = (note or "").strip()
    if required and not note:
        raise field_error("note", _("Say why: the note is kept with the entry."))
    if len(note) > NOTE_MAX:
        raise field_error("note", _("At most %(max)s characters.") % {"max": NOTE_MAX})
    return note


def _check_cents(cents: int, field: str = "amount") -> None:
    if not 1 <= cents <= MAX_MONEY_CENTS:
        raise field_error(
            field, _("The amount must be from 0.01 to %(max)s.") % {"max": money_text(Decimal(MAX_MONEY_CENTS) / 100)}
        )


def _refuse_overdraw(league: League, cents_out: int, field: str = "amount") -> None:
    """The cashbox cannot pay more than it holds by its ledger."""
    balance = selectors.balance(league=league)
    if cents_out > balance:
        raise field_error(
            field,
            _("The cashbox holds only %(balance)s by its ledger.") % {"balance": money_text(Decimal(balance) / 100)},
        )


@transaction.atomic
def record_entry(
    *,
    league: League,
    kind: str,
    cents: int,
    note: str,
    user,
    season: Season | None = None,
    meeting: Meeting | None = None,
    now=None,
) -> CashboxEntry:
    """Record ``cents`` (above 0) going into the cashbox (a kind of MONEY_IN) or out of it (a
    kind of MONEY_OUT; never more than the ledger's balance). Who may record which kind is
    the caller's check (selectors.role_to_record)."""
    league = lock_league(league)
    if kind not in MONEY_IN and kind not in MONEY_OUT:
        raise field_error(
            "kind", _("Choose money in or out: an evening, a fee, a deposit, the dinner, a purchase, a payout.")
        )
    _check_cents(cents)
    note = _note(note, required=True)
    if season is not None and season.league_id != league.pk:
        raise field_error("season", _("That season is not one of this league's."))
    if meeting is not None and meeting.league_id != league.pk:
        raise field_error("meeting", _("That evening is not one of this league's."))
    if kind in MONEY_OUT:
        _refuse_overdraw(league, cents)
    return CashboxEntry.objects.create(
        league=league,
        kind=kind,
        cents=cents if kind in MONEY_IN else -cents,
        note=note,
        season=season,
        meeting=meeting,
        recorded_by=user,
        recorded_by_name=plays_as(user, league),
        recorded_at=now or timezone.now(),
    )


@transaction.atomic
def counter_entry(*, league: League, entry_id: int, note: str, user, now=None) -> CashboxEntry:
    """Undo the entry ``entry_id`` by a counter-entry of the opposite amount (entries are
    never changed or deleted). A counter-entry is not countered in turn, and an entry only
    once; a counter is never refused for the balance, since it mends the record. An entry a
    tick wrote (``Payment.cashbox_entry``) is not countered either: the payment would stay
    ticked paid while the ledger says the money never came."""
    league = lock_league(league)
    entry = CashboxEntry.objects.filter(league=league, pk=entry_id).first()
    if entry is None:
        raise field_error("entry", _("There is no such entry in this league's cashbox."))
    if entry.kind == EntryKind.COUNTER:
        raise field_error("entry", _("A counter-entry is not undone: record a new entry instead."))
    ticked = Payment.objects.filter(cashbox_entry=entry).select_related("meeting").first()
    if ticked is not None:
        raise field_error(
            "entry",
            _(
                "This entry comes from the settlement of the evening of %(date)s, where its payment is "
                "ticked paid: it is not undone here, or the ledger and the tick would disagree."
            )
            % {"date": date_format(ticked.meeting.date)},
        )
    if CashboxEntry.objects.filter(counters=entry).exists():
        raise field_error("entry", _("This entry is undone already."))
    return _counter(entry, note=_note(note, required=True), user=user, now=now or timezone.now())


def _counter(entry: CashboxEntry, *, note: str, user, now) -> CashboxEntry:
    return CashboxEntry.objects.create(
        league_id=entry.league_id,
        kind=EntryKind.COUNTER,
        cents=-entry.cents,
        note=note,
        season_id=entry.season_id,
        meeting_id=entry.meeting_id,
        bill_id=entry.bill_id,
        counters=entry,
        recorded_by=user,
        recorded_by_name=plays_as(user, entry.league) if user is not None else "",
        recorded_at=now,
    )


@transaction.atomic
def record_count(*, league: League, cents: int, counted_on, note: str, user, now=None) -> CashCount:
    """Record the cash counted in the cashbox on ``counted_on`` (the "Ist")."""
    league = lock_league(league)
    if not EARLIEST_COUNT <= counted_on <= timezone.localdate():
        raise field_error("counted_on", _("Counted on: a day from 1900 to today."))
    if not 0 <= cents <= MAX_MONEY_CENTS:
        raise field_error(
            "amount", _("The amount must be from 0 to %(max)s.") % {"max": money_text(Decimal(MAX_MONEY_CENTS) / 100)}
        )
    return CashCount.objects.create(
        league=league,
        cents=cents,
        counted_on=counted_on,
        note=_note(note, required=False),
        counted_by=user,
        counted_by_name=plays_as(user, league),
        recorded_at=now or timezone.now(),
    )


# --- the season's bill ---------------------------------------------------------------------
# Called by leagues.seasons.services.settle_bill inside its transaction, with the league's
# lock held: the bill and its entry are stored together or not at all.


def pay_bill_share(*, bill: SeasonBill, user, now) -> CashboxEntry | None:
    """The cashbox's side of storing ``bill``: the shares of the season's bills it replaces
    are countered (paid back), then its own share (``bill.from_cashbox``) goes out as the
    season's dinner. A share above what the cashbox then holds is refused on the field
    ``from_cashbox``."""
    season = bill.season
    earlier = CashboxEntry.objects.filter(bill__season=season, kind=EntryKind.DINNER, countered_by=None)
    for entry in earlier.exclude(bill=bill).select_related("league"):
        _counter(entry, note=_("The bill of %(season)s was replaced.") % {"season": season}, user=user, now=now)
    cents = cents_of(bill.from_cashbox)
    if not cents:
        return None
    _refuse_overdraw(season.league, cents, field="from_cashbox")
    return CashboxEntry.objects.create(
        league_id=season.league_id,
        kind=EntryKind.DINNER,
        cents=-cents,
        note=_("The bill of %(season)s") % {"season": season},
        season=season,
        bill=bill,
        recorded_by=user,
        recorded_by_name=plays_as(user, season.league) if user is not None else "",
        recorded_at=now,
    )


# --- a member's bank account -----------------------------------------------------------------


def read_iban(text: str) -> str:
    """The IBAN typed (spaces allowed), checked by schwifty: country, length, check digits
    and the country's own format; its compact form."""
    text = (text or "").strip()
    if not text:
        raise field_error("iban", _("Enter your IBAN, for example DE89 3704 0044 0532 0130 00."))
    try:
        return str(schwifty.IBAN(text).compact)
    except exceptions.InvalidChecksumDigits:
        message = _("IBAN: the check digits do not match. Is one of the characters mistyped?")
    except exceptions.InvalidLength:
        message = _("IBAN: the length is wrong for its country (a German IBAN has 22 characters).")
    except exceptions.InvalidCountryCode:
        message = _("IBAN: it must start with a country code, such as DE.")
    except ValueError:  # every other SchwiftyException: the country's own format
        message = _("IBAN: this is not a valid IBAN. Check it against your bank card or statement.")
    raise field_error("iban", message)


@transaction.atomic
def save_bank_account(*, membership: Membership, iban: str, holder: str, now=None) -> BankAccount:
    """A member stores (or changes) the account he is paid to in this league."""
    holder = (holder or "").strip()
    if not holder:
        raise field_error("holder", _("Account holder: enter the name the account is in, as your bank writes it."))
    if len(holder) > HOLDER_MAX:
        raise field_error("holder", _("Account holder: at most %(max)s characters.") % {"max": HOLDER_MAX})
    account, _created = BankAccount.objects.update_or_create(
        membership=membership,
        defaults={"iban": read_iban(iban), "holder": holder, "updated_at": now or timezone.now()},
    )
    return account


@transaction.atomic
def remove_bank_account(*, membership: Membership) -> None:
    BankAccount.objects.filter(membership=membership).delete()


# --- an evening's settlement ----------------------------------------------------------------


@transaction.atomic
def tick_payment(*, meeting: Meeting, key: str, paid_how: str, user, now=None) -> Payment:
    """Tick the open payment ``key`` (as settlement.Open.key shows it) of ``meeting`` as paid,
    in cash or by transfer. A payment into the cashbox is recorded in its ledger as the
    evening's money, one out of it (a correction's refund) as a payout, in this same
    transaction. Refused when the payment is no longer open (the evening changed, or another
    phone ticked it first): the league's lock makes two ticks of one payment one."""
    league = lock_league(meeting.league)
    meeting = _lock_evening(meeting)
    _check_paid_how(paid_how)
    evening = settlement.evening_settlement(meeting=meeting)
    line = next((o for o in evening.open if o.key == key), None) if evening else None
    if line is None:
        raise _no_longer_open()
    return _tick(league, meeting, evening, line, paid_how=paid_how, user=user, now=now or timezone.now())


def _lock_evening(meeting: Meeting) -> Meeting:
    """The evening, locked after its league (the order of leagues.locks): a correction carried
    into it waits for the tick, or the tick for the correction, so a tick never reads results
    that a correction is rewriting."""
    return Meeting.objects.select_for_update(of=("self",)).select_related("season").get(pk=meeting.pk)


@dataclass(frozen=True)
class Ticked:
    """What ``tick_payment_once`` answers: the payment, and whether this call ticked it."""

    payment: Payment
    new: bool


@transaction.atomic
def tick_payment_once(*, meeting: Meeting, key: str, paid_how: str, user, now=None) -> Ticked:
    """``tick_payment``, safe to send again (the API's tick): when ``key`` is no longer open
    but a payment of ``meeting`` with the same payer, payee and amount is ticked already,
    that payment is the answer and nothing is recorded twice (a retry after a lost answer,
    or two phones ticking at once: the league's lock orders them)."""
    league = lock_league(meeting.league)
    meeting = _lock_evening(meeting)
    _check_paid_how(paid_how)
    evening = settlement.evening_settlement(meeting=meeting)
    if evening is None:
        raise field_error("meeting", _("This evening settles nothing: it is still open, or played for no money."))
    line = next((o for o in evening.open if o.key == key), None)
    if line is not None:
        now = now or timezone.now()
        return Ticked(_tick(league, meeting, evening, line, paid_how=paid_how, user=user, now=now), True)
    ticked = next((p for p in reversed(evening.paid) if _key_of(p) == key), None)
    if ticked is None:
        raise _no_longer_open()
    return Ticked(ticked, False)


def _key_of(payment: Payment) -> str:
    return f"{payment.payer_id or 'box'}-{payment.payee_id or 'box'}-{payment.cents}"


def _check_paid_how(paid_how: str) -> None:
    if paid_how not in PaidHow.values:
        raise field_error("paid_how", _("Say how it was paid: in cash or by transfer."))


def _no_longer_open():
    return field_error("payment", _("This payment is no longer open: the evening's settlement changed. Look again."))


def _tick(league, meeting, evening, line, *, paid_how: str, user, now) -> Payment:
    """Store the open ``line`` of ``evening`` as paid (and its cashbox entry, if the cashbox
    is one side of it)."""
    entry = None
    if line.payer is None or line.payee is None:
        entry = record_entry(
            league=league,
            kind=EntryKind.PAYOUT if line.payer is None else EntryKind.EVENING,
            cents=line.cents,
            note=_("%(who)s, the evening of %(date)s")
            % {"who": (line.payer or line.payee).name, "date": date_format(meeting.date)},
            user=user,
            season=meeting.season,
            meeting=meeting,
            now=now,
        )
    payment = Payment.objects.create(
        league=league,
        meeting=meeting,
        payer=line.payer,
        payee=line.payee,
        cents=line.cents,
        paid_at=now,
        paid_how=paid_how,
        ticked_by=user,
        ticked_by_name=plays_as(user, league),
        settled={"totals": evening.totals, "rules": evening.rules, "correction": line.correction},
        cashbox_entry=entry,
    )
    evening.paid.append(payment)
    evening.open = settlement.open_lines(evening)
    open_mark.keep_mark(meeting, evening=evening)
    return payment
