"""Reads of a league's cashbox (its ledger, balance and counts) and of the bank accounts its
members are paid to, with the one rule for who may see an IBAN."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Q, Sum

from leagues.cashbox import settlement
from leagues.models import (
    MONEY_IN,
    MONEY_OUT,
    BankAccount,
    CashboxEntry,
    CashCount,
    EntryKind,
    League,
    Membership,
    Player,
    Role,
    SeasonBill,
)

# The ledger page lists this many entries, newest first; the balance counts them all.
LEDGER_ROWS = 200


def role_to_record(kind: str) -> str:
    """The least role that records an entry of ``kind``: money in a scorekeeper's, money out
    and counter-entries an admin's (as counts are)."""
    return Role.SCOREKEEPER if kind in MONEY_IN else Role.ADMIN


def kinds_for(membership) -> list[str]:
    """The kinds of entry ``membership`` may record, in the order the form offers them."""
    return [kind for kind in (*MONEY_IN, *MONEY_OUT) if membership.allows(role_to_record(kind))]


def to_euros(cents: int) -> Decimal:
    return Decimal(cents) / 100


def balance(*, league: League, until=None) -> int:
    """The computed balance ("Soll") in cents: the sum of every entry (recorded up to
    ``until`` if given)."""
    entries = CashboxEntry.objects.filter(league=league)
    if until is not None:
        entries = entries.filter(recorded_at__lte=until)
    return entries.aggregate(total=Sum("cents"))["total"] or 0


@dataclass(frozen=True)
class Ledger:
    """What the ledger page and the API show: the entries (newest first, at most
    LEDGER_ROWS), how many there are, the computed balance, and the latest count with the
    balance the ledger had when it was recorded and the difference (counted − computed)."""

    entries: list[CashboxEntry]
    count: int
    balance: int
    latest_count: CashCount | None
    balance_at_count: int | None

    @property
    def difference(self) -> int | None:
        if self.latest_count is None:
            return None
        return self.latest_count.cents - self.balance_at_count

    @property
    def older(self) -> int:
        return self.count - len(self.entries)

    @property
    def balance_euros(self) -> Decimal:
        return to_euros(self.balance)

    @property
    def balance_at_count_euros(self) -> Decimal | None:
        return None if self.balance_at_count is None else to_euros(self.balance_at_count)

    @property
    def difference_euros(self) -> Decimal | None:
        return None if self.difference is None else to_euros(self.difference)


def ledger(*, league: League, rows: int = LEDGER_ROWS) -> Ledger:
    """The ledger of ``league``: five queries, whatever its length."""
    entries = list(
        CashboxEntry.objects.filter(league=league)
        .select_related("season", "meeting", "counters", "payment")
        .prefetch_related("countered_by")
        .order_by("-recorded_at", "-id")[:rows]
    )
    for entry in entries:
        entry.undone = countered(entry)
        entry.ticked = ticked(entry)
    totals = CashboxEntry.objects.filter(league=league).aggregate(total=Sum("cents"))
    latest = CashCount.objects.filter(league=league).order_by("-counted_on", "-recorded_at", "-id").first()
    return Ledger(
        entries=entries,
        count=CashboxEntry.objects.filter(league=league).count() if len(entries) == rows else len(entries),
        balance=totals["total"] or 0,
        latest_count=latest,
        balance_at_count=balance(league=league, until=latest.recorded_at) if latest else None,
    )


def countered(entry: CashboxEntry) -> bool:
    """Whether a counter-entry undoes ``entry`` (read from the ledger's prefetch)."""
    try:
        return entry.countered_by is not None
    except CashboxEntry.DoesNotExist:
        return False


def ticked(entry: CashboxEntry) -> bool:
    """Whether a tick of an evening's payment wrote ``entry`` (read from the ledger's join):
    such an entry is not countered, since the payment would stay ticked."""
    try:
        return entry.payment is not None
    except CashboxEntry.payment.RelatedObjectDoesNotExist:
        return False


def available_for_bill(*, season) -> int:
    """What the cashbox can pay of ``season``'s bill, in cents: its balance, plus the share of
    the stored bill that a new one replaces (that share is paid back first). One query."""
    share_in_force = Q(bill__season=season, bill__replaced_at=None, kind=EntryKind.DINNER, countered_by=None)
    sums = CashboxEntry.objects.filter(league_id=season.league_id).aggregate(
        total=Sum("cents"), share=Sum("cents", filter=share_in_force)
    )
    return (sums["total"] or 0) - (sums["share"] or 0)


# --- bank accounts ---------------------------------------------------------------------------


def iban_visible_to(*, viewer, owner, league: League) -> bool:
    """Whether ``viewer`` may see the IBAN that ``owner`` (a user) stored in ``league``.

    The owner himself; the league's admins (who keep its money); and a member who owes the
    owner money on an open line of some evening's settlement, or a transfer of a season's
    bill in force, so that he can pay him by scan. Never anyone else, never anyone outside the league, never an anonymous visitor
    (the public link, an export's public parts)."""
    if viewer is None or owner is None or not viewer.is_authenticated:
        return False
    if viewer.pk == owner.pk:
        return True
    members = {m.user_id: m for m in Membership.objects.filter(league=league, user_id__in=[viewer.pk, owner.pk])}
    if len(members) != 2:
        return False
    if members[viewer.pk].allows(Role.ADMIN):
        return True
    players = {p.user_id: p for p in Player.objects.filter(league=league, user_id__in=[viewer.pk, owner.pk])}
    if len(players) != 2:
        return False
    payer, payee = players[viewer.pk], players[owner.pk]
    return settlement.owes(payer=payer, payee=payee) or _owes_on_a_bill(payer=payer, payee=payee, league=league)


def _owes_on_a_bill(*, payer: Player, payee: Player, league: League) -> bool:
    """Whether a season's bill in force has ``payer`` transfer money to ``payee`` (the bill
    names players as it shows them; one bill a season)."""
    bills = SeasonBill.objects.current().filter(season__league=league).values_list("transfers", flat=True)
    return any(
        t.get("from") == payer.name and t.get("to") == payee.name
        for transfers in bills
        for t in transfers or ()
        if isinstance(t, dict)
    )


def bank_account_of(*, user, league: League) -> BankAccount | None:
    """The account ``user`` stored in ``league``, whoever asks (check iban_visible_to first)."""
    if user is None:
        return None
    return BankAccount.objects.filter(membership__league=league, membership__user=user).first()


def player_name_of(*, user, league: League) -> str:
    """The name ``user`` plays under in ``league`` ("" when he plays under none): the first
    guess at the holder of the account he is paid to."""
    return Player.objects.filter(league=league, user=user).values_list("name", flat=True).first() or ""
