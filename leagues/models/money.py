"""A league's cashbox (its ledger and the counts of the cash in it) and the bank accounts its
members are paid to.

Amounts are whole cents. An entry is never changed or deleted: a mistake is undone by a
counter-entry, so the ledger keeps everything that was ever recorded and its sum is the
balance the cashbox should hold ("Soll"); a count is what was found in it ("Ist").
"""

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .league import League, Membership
from .meeting import Meeting
from .season import Season, SeasonBill


class EntryKind(models.TextChoices):
    EVENING = "evening", _("payments of an evening")
    FEE = "fee", _("fee")
    DEPOSIT = "deposit", _("deposit")
    DINNER = "dinner", _("the season's dinner")
    PURCHASE = "purchase", _("purchase")
    PAYOUT = "payout", _("payout")
    COUNTER = "counter", _("counter-entry")


# Money in is recorded by scorekeepers and admins, money out by admins only.
MONEY_IN = (EntryKind.EVENING, EntryKind.FEE, EntryKind.DEPOSIT)
MONEY_OUT = (EntryKind.DINNER, EntryKind.PURCHASE, EntryKind.PAYOUT)

# Who recorded it, as the league knew him then: kept when the account is gone.
WHO_LENGTH = 150


class CashboxEntry(models.Model):
    """One amount into (``cents`` above 0) or out of (below 0) a league's cashbox."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="cashbox_entries")
    kind = models.CharField(_("kind"), max_length=20, choices=EntryKind.choices)
    cents = models.IntegerField(_("amount (cents)"))
    note = models.CharField(_("why"), max_length=200, blank=True)
    season = models.ForeignKey(Season, on_delete=models.SET_NULL, null=True, blank=True, related_name="cashbox_entries")
    # The evening whose payments went in (the evening's settlement records them).
    meeting = models.ForeignKey(
        Meeting, on_delete=models.SET_NULL, null=True, blank=True, related_name="cashbox_entries"
    )
    # The stored bill the cashbox paid part of: countered when that bill is replaced.
    bill = models.ForeignKey(
        SeasonBill, on_delete=models.SET_NULL, null=True, blank=True, related_name="cashbox_entries"
    )
    counters = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="countered_by"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    recorded_by_name = models.CharField(_("recorded by"), max_length=WHO_LENGTH, blank=True)
    recorded_at = models.DateTimeField(_("recorded at"))

    class Meta:
        ordering = ["league", "recorded_at", "id"]
        verbose_name_plural = _("cashbox entries")
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind__in=MONEY_IN) & Q(cents__gt=0))
                | (Q(kind__in=MONEY_OUT) & Q(cents__lt=0))
                | (Q(kind=EntryKind.COUNTER) & ~Q(cents=0) & Q(counters__isnull=False)),
                name="cashbox_entry_direction",
            ),
        ]

    def __str__(self):
        return f"{self.league}: {self.kind} {self.cents}"

    @property
    def euros(self) -> Decimal:
        return Decimal(self.cents) / 100


class CashCount(models.Model):
    """The cash found in a league's cashbox on a day, counted by an admin."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="cash_counts")
    cents = models.IntegerField(_("counted (cents)"))
    counted_on = models.DateField(_("counted on"))
    note = models.CharField(_("note"), max_length=200, blank=True)
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    counted_by_name = models.CharField(_("counted by"), max_length=WHO_LENGTH, blank=True)
    recorded_at = models.DateTimeField(_("recorded at"))

    class Meta:
        ordering = ["league", "counted_on", "recorded_at", "id"]
        constraints = [models.CheckConstraint(condition=Q(cents__gte=0), name="cash_count_not_negative")]

    def __str__(self):
        return f"{self.league}: {self.cents} on {self.counted_on}"

    @property
    def euros(self) -> Decimal:
        return Decimal(self.cents) / 100


class BankAccount(models.Model):
    """The account a member is paid to in one league, entered by himself. Shown only where
    ``leagues.cashbox.selectors.iban_visible_to`` allows it: never on the public pages, in
    the export or the admin's lists."""

    membership = models.OneToOneField(Membership, on_delete=models.CASCADE, related_name="bank_account")
    iban = models.CharField(_("IBAN"), max_length=34)
    holder = models.CharField(_("account holder"), max_length=70)
    updated_at = models.DateTimeField(_("updated at"))

    def __str__(self):
        return f"{self.membership}"


class PaidHow(models.TextChoices):
    CASH = "cash", _("cash")
    TRANSFER = "transfer", _("transfer")


class Payment(models.Model):
    """A payment of an evening's settlement, ticked as paid. The settlement itself is derived
    from the evening's results (``leagues.cashbox.settlement``); only what was paid is kept,
    and never changed: a correction of the evening shows what is left as new open lines.

    ``payer`` or ``payee`` empty is the league's cashbox (a refund out of it has no payer)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="payments")
    meeting = models.ForeignKey(Meeting, on_delete=models.CASCADE, related_name="payments")
    payer = models.ForeignKey(
        "leagues.Player", on_delete=models.RESTRICT, null=True, blank=True, related_name="payments_made"
    )
    payee = models.ForeignKey(
        "leagues.Player", on_delete=models.RESTRICT, null=True, blank=True, related_name="payments_received"
    )
    cents = models.BigIntegerField(_("amount (cents)"))
    paid_at = models.DateTimeField(_("paid at"))
    paid_how = models.CharField(_("paid how"), max_length=10, choices=PaidHow.choices)
    ticked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    ticked_by_name = models.CharField(_("ticked by"), max_length=WHO_LENGTH, blank=True)
    # What was settled: the evening's totals and the money rules the payment was worked out
    # from, so a later correction can be told apart from the evening as it was paid.
    settled = models.JSONField(default=dict, blank=True)
    cashbox_entry = models.OneToOneField(
        CashboxEntry, on_delete=models.SET_NULL, null=True, blank=True, related_name="payment"
    )

    class Meta:
        ordering = ["meeting", "paid_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(cents__gt=0), name="payment_above_zero"),
            models.CheckConstraint(
                condition=Q(payer__isnull=False) | Q(payee__isnull=False), name="payment_between_someone"
            ),
        ]

    def __str__(self):
        return f"{self.meeting}: {self.payer} -> {self.payee or 'cashbox'} {self.cents}"

    @property
    def euros(self) -> Decimal:
        return Decimal(self.cents) / 100
