"""The season report's money: what the season cost and paid, for a season whose evenings were
played for money (or whose league plays for money now).

Per player, over the season's closed evenings played for money, each worked out by its own
settlement (``cashbox.settlement``, under the money rules it was played under): what he won or
lost (every line but the fees: points, stakes, corrections), the fees he owed the cashbox (per
evening, per lost solo, a forgotten pennant) and what he still has to pay of them. The
cashbox's side: the ledger entries of the season or of its evenings, in and out, and the part
of the season's dinner the cashbox paid (the stored bill's ``from_cashbox``).

A fixed number of queries whatever the season's size: its evenings played for money, the
settlements' few reads, and the ledger's two sums. Members only: the public report never asks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Q, Sum

from leagues.cashbox import settlement
from leagues.models import CashboxEntry, Meeting
from scoring import money

FEES = (money.EVENING_FEE, money.LOST_SOLO, money.MISSED_PENNANT)


@dataclass
class PlayerMoney:
    name: str
    won_cents: int = 0  # won (above 0) or lost at the table, fees left out
    fee_cents: int = 0  # the fees owed to the cashbox
    open_cents: int = 0  # what he still has to pay of the season's evenings

    @property
    def won(self) -> Decimal:
        return Decimal(self.won_cents) / 100

    @property
    def fees(self) -> Decimal:
        return Decimal(self.fee_cents) / 100

    @property
    def still_open(self) -> Decimal:
        return Decimal(self.open_cents) / 100


@dataclass
class SeasonMoney:
    players: list[PlayerMoney] = field(default_factory=list)
    evenings: int = 0  # the closed evenings played for money
    into_cashbox: Decimal = Decimal(0)  # the season's ledger entries in
    out_of_cashbox: Decimal = Decimal(0)  # and out (as a positive amount)
    dinner: Decimal = Decimal(0)  # the part of the dinner the cashbox paid (the stored bill's)


def season_money(*, season, league, standings_order: list[str], bill=None) -> SeasonMoney | None:
    """The money of ``season``; None when neither its evenings nor its league play for money.
    ``standings_order``: the players' names as the standings list them (the rows' order)."""
    meetings = list(
        Meeting.objects.filter(season=season, closed_at__isnull=False, money_rules__isnull=False)
        .select_related("league")
        .order_by("date", "pk")
    )
    if not meetings and not league.money_rules:
        return None
    found = settlement.settlements(meetings=meetings)
    by_name: dict[str, PlayerMoney] = {}
    for evening in found.values():
        for line in evening.settlement.lines:
            _book(by_name, line)
        for line in evening.open:
            if line.payer is not None:
                _row(by_name, line.payer.name).open_cents += line.cents
    order = {name: i for i, name in enumerate(standings_order)}
    players = sorted(by_name.values(), key=lambda p: (order.get(p.name, len(order)), p.name))
    entries = CashboxEntry.objects.filter(Q(season=season) | Q(meeting__season=season), league=league)
    sums = entries.aggregate(into=Sum("cents", filter=Q(cents__gt=0)), out=Sum("cents", filter=Q(cents__lt=0)))
    into, out = sums["into"] or 0, sums["out"] or 0
    return SeasonMoney(
        players=players,
        evenings=len(found),
        into_cashbox=Decimal(into) / 100,
        out_of_cashbox=Decimal(-out) / 100,
        dinner=bill.from_cashbox if bill is not None else Decimal(0),
    )


def _row(rows: dict[str, PlayerMoney], name: str) -> PlayerMoney:
    if name not in rows:
        rows[name] = PlayerMoney(name)
    return rows[name]


def _book(rows: dict[str, PlayerMoney], line: money.Line) -> None:
    """A settlement line on its players' rows: a fee on the payer's fees, anything else on the
    won or lost of both sides (the cashbox's side is the ledger's)."""
    if line.reason in FEES:
        if line.payer is not None:
            _row(rows, line.payer).fee_cents += line.cents
        return
    if line.payer is not None:
        _row(rows, line.payer).won_cents -= line.cents
    if line.payee is not None:
        _row(rows, line.payee).won_cents += line.cents
