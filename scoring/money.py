"""What an evening costs: the payments its money rules call for, worked out from its facts.

Pure Python, exact money: every amount is whole cents; a rate with decimals (``Decimal``) makes
exact fractions of a cent (``Fraction``) until they are rounded. The rules are the dict of
``scoring/money_rules.py``; the rules in words are in ``docs/rules/money.en.md``.

``settle_evening`` takes the evening's facts as plain data and returns a ``Settlement``:

- ``lines``: every amount owed and why (``reason`` one of REASONS), with the figures that led
  to it (``figures``: the totals, the best total, the rate, the stake, the fee …). A line's
  payer or payee is a player's name, or None for the league's cashbox.
- ``payments``: what actually changes hands, to be ticked as paid: the players' debts to each
  other netted and settled with the fewest transfers, and one payment per player into (or,
  in a correction, out of) the cashbox.
- ``nets``: each player's balance (received − paid), in seat order; ``cashbox``: its total in.

``difference(old=…, new=…)`` is the correction of an evening already settled: the lines (reason
"correction") that, paid on top of the old settlement, leave everyone where the new one would
have; the old lines stay as they were paid.

Decisions the rules leave open (``docs/rules/money.en.md`` says them in words):

- ``between_players``: each player gets ``rate`` × (own total − the evening's mean total), so
  the nets sum to zero whatever the game. Doppelkopf's totals sum to zero already, so there it
  is simply total × rate; for 1000 and 56 the mean stands for the table.
- Fractions of a cent: shares that must add up (the points between players, a pot split
  among winners) by the largest remainder, ties to the first in seat order; a payment into
  the cashbox (rate × points) half up to the cent, each on its own.
- Fees always go into the cashbox. A game or match without winners or without losers costs
  nothing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from .errors import _
from .money_check import Facts, check_facts
from .money_rules import BETWEEN_PLAYERS, CASHBOX_DIFFERENCE, CASHBOX_MINUS, TO_CASHBOX, rate_text, resolve_money_rules

# The API the app calls (and the reasons it shows).
__all__ = ["REASONS", "Line", "Payment", "Settlement", "difference", "settle_evening", "settlement_of"]

POINTS = "points"
GAME = "game"
MATCH = "match"
EVENING_FEE = "evening fee"
LOST_SOLO = "lost solo"
MISSED_PENNANT = "missed pennant"
CORRECTION = "correction"
REASONS = {
    POINTS: _("points"),
    GAME: _("game"),
    MATCH: _("match"),
    EVENING_FEE: _("evening fee"),
    LOST_SOLO: _("lost solo"),
    MISSED_PENNANT: _("missed pennant"),
    CORRECTION: _("correction"),
}

Figures = Mapping[str, "int | str"]


@dataclass(frozen=True)
class Line:
    """``payer`` owes ``payee`` ``cents`` (> 0) for ``reason``; None on either side is the cashbox."""

    payer: str | None
    payee: str | None
    cents: int
    reason: str
    figures: Figures = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Payment:
    """Money that changes hands: ``payer`` gives ``payee`` ``cents`` (> 0); None is the cashbox."""

    payer: str | None
    payee: str | None
    cents: int


@dataclass(frozen=True)
class Settlement:
    """An evening's money: lines (why), payments (what to pay), nets and the cashbox's total in."""

    players: tuple[str, ...]
    lines: tuple[Line, ...]
    payments: tuple[Payment, ...]
    nets: Mapping[str, int]
    cashbox: int


def settle_evening(
    *,
    rules: Any,
    players: Sequence[str],
    totals: Mapping[str, int] | None = None,
    games: Sequence[Mapping[str, Sequence[str]]] = (),
    matches: Sequence[Mapping[str, Sequence[str]]] = (),
    lost_solos: Mapping[str, int] | None = None,
    attended: Sequence[str] | None = None,
    missed_pennant: str | None = None,
) -> Settlement:
    """The settlement of one evening; raises ScoringError with every problem of the rules or facts.

    ``players`` in seat order; ``totals`` each player's evening total (needed when money per
    point is on); ``games`` and ``matches`` the finished ones in order, each
    ``{"winners": [...], "losers": [...]}`` naming players (a team's members; whoever sat out
    is in neither); ``lost_solos`` how many solos each lost; ``attended`` who pays the evening
    fee (everyone in ``players`` when None); ``missed_pennant`` who forgot the pennant, or None.
    """
    money = resolve_money_rules(rules)
    facts = check_facts(
        players=players,
        totals=totals,
        games=games,
        matches=matches,
        lost_solos=lost_solos,
        attended=attended,
        missed_pennant=missed_pennant,
        needs_totals=money["per_point"] != "off",
    )
    rate = Decimal(money["rate"])
    lines = [
        *_points(money["per_point"], rate, facts),
        *_stakes(GAME, money["per_game"], money["per_game_to"], facts.games, facts.players),
        *_stakes(MATCH, money["per_match"], money["per_match_to"], facts.matches, facts.players),
        *_fees(money, facts),
    ]
    return settlement_of(facts.players, lines)


def difference(*, old: Settlement, new: Settlement) -> Settlement:
    """The correction lines that bring a paid ``old`` settlement to ``new``: each player's change
    of what he owes the cashbox as one line to (or from) it, and the change of the players'
    debts to each other settled with the fewest transfers."""
    players = new.players + tuple(p for p in old.players if p not in new.nets)
    old_box, new_box = _cashbox_flows(old), _cashbox_flows(new)
    lines = []
    for player in players:
        was, now = old_box.get(player, 0), new_box.get(player, 0)
        if now != was:
            figures = _frozen({"was": was, "now": now})
            payer, payee = (player, None) if now > was else (None, player)
            lines.append(Line(payer, payee, abs(now - was), CORRECTION, figures))
    changes = [new.nets.get(p, 0) + new_box.get(p, 0) - old.nets.get(p, 0) - old_box.get(p, 0) for p in players]
    for payer, payee, cents in fewest_transfers(changes, players):
        figures = {
            "payer_was": old.nets.get(payer, 0),
            "payer_now": new.nets.get(payer, 0),
            "payee_was": old.nets.get(payee, 0),
            "payee_now": new.nets.get(payee, 0),
        }
        lines.append(Line(payer, payee, cents, CORRECTION, _frozen(figures)))
    return settlement_of(players, lines)


def settlement_of(players: Sequence[str], lines: list[Line]) -> Settlement:
    """Nets, the cashbox's total and the payments of ``lines``."""
    nets = dict.fromkeys(players, 0)
    cashbox = 0
    for line in lines:
        if line.payer is None:
            cashbox -= line.cents
        else:
            nets[line.payer] -= line.cents
        if line.payee is None:
            cashbox += line.cents
        else:
            nets[line.payee] += line.cents
    box = _box_flows(players, lines)
    owed = [nets[p] + box[p] for p in players]  # what each gets from the other players
    payments = [Payment(payer, payee, cents) for payer, payee, cents in fewest_transfers(owed, players)]
    for player in players:
        if box[player] > 0:
            payments.append(Payment(player, None, box[player]))
        elif box[player] < 0:
            payments.append(Payment(None, player, -box[player]))
    return Settlement(tuple(players), tuple(lines), tuple(payments), MappingProxyType(nets), cashbox)


def _box_flows(players: Sequence[str], lines: Sequence[Line]) -> dict[str, int]:
    """What each player pays into the cashbox (less what it pays him)."""
    box = dict.fromkeys(players, 0)
    for line in lines:
        if line.payee is None and line.payer is not None:
            box[line.payer] += line.cents
        elif line.payer is None and line.payee is not None:
            box[line.payee] -= line.cents
    return box


def _cashbox_flows(settlement: Settlement) -> dict[str, int]:
    return _box_flows(settlement.players, settlement.lines)


def _points(mode: str, rate: Decimal, facts: Facts) -> list[Line]:
    """The lines of money per point: between the players, or into the cashbox."""
    totals = facts.totals
    if mode == BETWEEN_PLAYERS:
        return _points_between(rate, facts.players, totals)
    if mode not in (CASHBOX_DIFFERENCE, CASHBOX_MINUS):
        return []
    best = max(totals.values())
    lines = []
    for player in facts.players:
        total = totals[player]
        if mode == CASHBOX_DIFFERENCE:
            points, figures = best - total, {"total": total, "best": best, "rate": rate_text(rate)}
        else:
            points, figures = max(0, -total), {"total": total, "rate": rate_text(rate)}
        cents = int((points * rate).quantize(Decimal(1), rounding=ROUND_HALF_UP))
        if cents:
            lines.append(Line(player, None, cents, POINTS, _frozen(figures)))
    return lines


def _points_between(rate: Decimal, players: Sequence[str], totals: Mapping[str, int]) -> list[Line]:
    """Each player's points above or below the mean at ``rate``, rounded so that they sum to
    zero, then settled with the fewest transfers."""
    mean = Fraction(sum(totals.values()), len(players))
    exact = [Fraction(rate) * (totals[p] - mean) for p in players]
    nets = largest_remainder(exact, 0)
    lines = []
    for payer, payee, cents in fewest_transfers(nets, players):
        figures = {
            "payer_total": totals[payer],
            "payee_total": totals[payee],
            "mean": _two_places(mean),
            "rate": rate_text(rate),
        }
        lines.append(Line(payer, payee, cents, POINTS, _frozen(figures)))
    return lines


def _stakes(reason: str, stake: int, to: str, outcomes: Sequence[Any], players: Sequence[str]) -> list[Line]:
    """Each loser of each game (or match) pays ``stake``: into the cashbox, or to the winners,
    the pot split among them by the largest remainder (extra cents to the first in seat order)."""
    lines: list[Line] = []
    if not stake:
        return lines
    for number, (winners, losers) in enumerate(outcomes, start=1):
        if not winners or not losers:
            continue
        figures = _frozen({"number": number, "stake": stake, "winners": len(winners), "losers": len(losers)})
        if to == TO_CASHBOX:
            lines.extend(Line(loser, None, stake, reason, figures) for loser in losers)
            continue
        pot = stake * len(losers)
        shares = largest_remainder([Fraction(pot, len(winners))] * len(winners), pot)
        for payer, payee, cents in _pour([stake] * len(losers), losers, shares, winners):
            lines.append(Line(payer, payee, cents, reason, figures))
    return lines


def _pour(owes: list[int], payers: Sequence[str], dues: list[int], payees: Sequence[str]) -> list[tuple]:
    """Payers (in order) fill payees (in order) as water fills glasses: at most
    len(payers) + len(payees) − 1 lines; ``owes`` and ``dues`` sum to the same."""
    lines = []
    owes, dues = list(owes), list(dues)
    i = j = 0
    while i < len(owes) and j < len(dues):
        cents = min(owes[i], dues[j])
        if cents:
            lines.append((payers[i], payees[j], cents))
        owes[i] -= cents
        dues[j] -= cents
        i += owes[i] == 0
        j += dues[j] == 0
    return lines


def _fees(money: Mapping[str, Any], facts: Facts) -> list[Line]:
    """The evening fee of each player present, the fee per lost solo, the forgotten pennant's."""
    lines = []
    fee = money["per_evening"]
    if fee:
        lines.extend(Line(p, None, fee, EVENING_FEE, _frozen({"fee": fee})) for p in facts.attended)
    fee = money["per_lost_solo"]
    for player in facts.players:
        solos = facts.lost_solos.get(player, 0)
        if fee and solos:
            lines.append(Line(player, None, fee * solos, LOST_SOLO, _frozen({"solos": solos, "fee": fee})))
    fee = money["per_missed_pennant"]
    if fee and facts.missed_pennant is not None:
        lines.append(Line(facts.missed_pennant, None, fee, MISSED_PENNANT, _frozen({"fee": fee})))
    return lines


def largest_remainder(exact: Sequence[Fraction], total: int) -> list[int]:
    """``exact`` (summing to ``total``) in whole cents that sum to ``total``: each rounded down,
    the cents left over to the largest remainders, ties to the earlier."""
    floors = [math.floor(share) for share in exact]
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in order[: total - sum(floors)]:
        floors[i] += 1
    return floors


def fewest_transfers(balances: Sequence[int], names: Sequence[str]) -> list[tuple[str, str, int]]:
    """(payer, payee, cents) that bring every balance (summing to 0; below 0 owes) to 0.

    A debtor and a creditor with equal balances settle each other first (one transfer clears
    two people); otherwise the largest debtor pays the largest creditor, ties to the earlier
    in ``names``. Every transfer clears at least one balance, so there are at most n − 1.
    """
    left = dict(zip(names, balances, strict=True))
    transfers = []
    while True:
        debtors = [n for n in names if left[n] < 0]
        creditors = [n for n in names if left[n] > 0]
        if not debtors or not creditors:
            return transfers
        pair = _equal_pair(debtors, creditors, left)
        if pair is None:
            pair = (min(debtors, key=lambda n: left[n]), max(creditors, key=lambda n: left[n]))
        payer, payee = pair
        cents = min(-left[payer], left[payee])
        transfers.append((payer, payee, cents))
        left[payer] += cents
        left[payee] -= cents


def _equal_pair(debtors: list[str], creditors: list[str], left: dict[str, int]) -> tuple[str, str] | None:
    """The first debtor (in seat order) owing exactly what a creditor is owed, and that creditor."""
    owed_to = {}
    for name in reversed(creditors):
        owed_to[left[name]] = name  # the earliest creditor of each amount wins
    for name in debtors:
        if -left[name] in owed_to:
            return name, owed_to[-left[name]]
    return None


def _two_places(number: Fraction) -> str:
    """A figure shown to two decimals, half up ("12.33"); exact when it has fewer."""
    hundredths = math.floor(number * 100 + Fraction(1, 2))
    sign = "-" if hundredths < 0 else ""
    whole, rest = divmod(abs(hundredths), 100)
    return f"{sign}{whole}" if rest == 0 else f"{sign}{whole}.{rest:02d}".rstrip("0")


def _frozen(figures: dict[str, int | str]) -> Figures:
    return MappingProxyType(figures)
