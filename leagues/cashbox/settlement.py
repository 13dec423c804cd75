"""Reads of an evening's money: its settlement, derived from the evening's stored results
under the money rules it was played under, and what of it is still open.

Nothing of a settlement is stored: it is worked out from the evening's ``MeetingResult`` and
``HandResult`` rows whenever it is read, so a correction of the evening changes it by itself.
Only the payments ticked as paid are kept (``Payment``). What is open is the difference
(``scoring.money.difference``) between what was paid, taken as a settlement of its own, and
what the evening now asks: before anything is paid that is the settlement's own payments;
after a correction of a paid evening it is the correction's lines, and a paid payment is
never rewritten.

The queries are fixed whatever the number of evenings asked about: seats, results, the race
games' winning hands (only where a stake per game or match is on) and the payments, one each.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType

from django.db.models import Q

from leagues.models import HandResult, Meeting, MeetingResult, Payment, Player, Seat
from scoring import money
from scoring.money import Line, Settlement, difference, settle_evening


@dataclass(frozen=True)
class Open:
    """A payment still to be made: ``payer`` to ``payee`` (None: the cashbox), ``cents``;
    ``correction`` when it comes from a change of an evening already paid."""

    meeting: Meeting
    payer: Player | None
    payee: Player | None
    cents: int
    correction: bool = False

    @property
    def euros(self) -> Decimal:
        return Decimal(self.cents) / 100

    @property
    def key(self) -> str:
        """What the tick button posts: the payment as the page showed it."""
        return f"{_pk(self.payer)}-{_pk(self.payee)}-{self.cents}"


@dataclass
class EveningMoney:
    """One evening's money: its rules, the figures, the settlement, the paid and the open."""

    meeting: Meeting
    rules: dict
    players: list[Player]
    totals: dict[str, int]
    settlement: Settlement
    paid: list[Payment] = field(default_factory=list)
    open: list[Open] = field(default_factory=list)

    @property
    def corrected(self) -> bool:
        """Whether the evening changed after a payment of it was ticked."""
        return any(p.settled.get("totals") != self.totals for p in self.paid)


def _pk(player: Player | None) -> str:
    return "box" if player is None else str(player.pk)


def evening_settlement(*, meeting: Meeting) -> EveningMoney | None:
    """The settlement of ``meeting`` once it is closed and played for money; else None."""
    if meeting.closed_at is None or not meeting.money_rules:
        return None
    return settlements(meetings=[meeting]).get(meeting.pk)


def settlements(*, meetings: Iterable[Meeting]) -> dict[int, EveningMoney]:
    """Each closed evening of ``meetings`` played for money, by its id, with what is open."""
    meetings = [m for m in meetings if m.closed_at is not None and m.money_rules]
    if not meetings:
        return {}
    ids = [m.pk for m in meetings]
    seats = defaultdict(list)
    for seat in Seat.objects.filter(meeting_id__in=ids).select_related("player").order_by("meeting_id", "position"):
        seats[seat.meeting_id].append(seat.player)
    results = defaultdict(dict)
    for row in MeetingResult.objects.filter(meeting_id__in=ids):
        results[row.meeting_id][row.player_id] = row
    outcomes = _outcomes(m for m in meetings if m.money_rules.get("per_game") or m.money_rules.get("per_match"))
    paid = defaultdict(list)
    for payment in (
        Payment.objects.filter(meeting_id__in=ids).select_related("payer", "payee").order_by("paid_at", "id")
    ):
        paid[payment.meeting_id].append(payment)
    found = {}
    for meeting in meetings:
        evening = _evening(meeting, seats[meeting.pk], results[meeting.pk], outcomes.get(meeting.pk, ((), ())))
        evening.paid = paid[meeting.pk]
        evening.open = open_lines(evening)
        found[meeting.pk] = evening
    return found


def _evening(meeting: Meeting, players: list[Player], results: dict, outcomes) -> EveningMoney:
    """The settlement of one evening from its seats and results (in seat order)."""
    names = [p.name for p in players]
    totals = {p.name: results[p.pk].total if p.pk in results else 0 for p in players}
    lost = {p.name: results[p.pk].solos - results[p.pk].solos_won for p in players if p.pk in results}
    holder = meeting.pennant_holder_id
    missed = next((p.name for p in players if p.pk == holder), None) if meeting.pennant_forgotten else None
    by_id = {p.pk: p.name for p in players}
    games, matches = (
        [{"winners": _names(won, by_id), "losers": _names(lost_by, by_id)} for won, lost_by in kind]
        for kind in outcomes
    )
    settlement = settle_evening(
        rules=meeting.money_rules,
        players=names,
        totals=totals,
        games=games,
        matches=matches,
        lost_solos={name: n for name, n in lost.items() if n},
        missed_pennant=missed,
    )
    return EveningMoney(meeting, dict(meeting.money_rules), players, totals, settlement)


def _names(ids: list[int], by_id: dict[int, str]) -> list[str]:
    """The names of the players ``ids``, in seat order (the pot's odd cent goes to the first)."""
    return [name for pk, name in by_id.items() if pk in ids]


def _outcomes(meetings: Iterable[Meeting]) -> dict[int, tuple[list, list]]:
    """The games and matches finished at each evening (race games), as (winners, losers)
    lists of player ids, from the stored results: at a hand where a party won a game, its
    players are the winners and the others who played the hand its losers. A double game is
    two games. A match (robber) ends at the game that brings a party to the rules'
    ``match_games``; the next game starts a new one, and a match still open costs nothing."""
    meetings = list(meetings)
    ids = [m.pk for m in meetings]
    if not ids:
        return {}
    ended = HandResult.objects.filter(meeting_id__in=ids, games_won__gt=0).values("number")
    rows = HandResult.objects.filter(
        Q(meeting_id__in=ids), Q(active=True) | Q(games_won__gt=0), Q(number__in=ended)
    ).values_list("meeting_id", "number", "player_id", "games_won")
    hands = defaultdict(lambda: ([], [], 0))
    for meeting_id, number, player_id, won in rows.order_by("meeting_id", "number", "player_id"):
        winners, losers, games = hands[(meeting_id, number)]
        (winners if won else losers).append(player_id)
        hands[(meeting_id, number)] = (winners, losers, max(games, won))
    match_games = {m.pk: m.rules.get("match_games") for m in meetings}
    found: dict[int, tuple[list, list]] = {m.pk: ([], []) for m in meetings}
    counts: dict[int, dict[tuple[int, ...], int]] = defaultdict(lambda: defaultdict(int))
    for (meeting_id, _number), (winners, losers, games) in sorted(hands.items()):
        if not winners:
            continue
        found[meeting_id][0].extend([(winners, losers)] * games)
        party = counts[meeting_id]
        party[tuple(winners)] += games
        if match_games[meeting_id] and party[tuple(winners)] >= match_games[meeting_id]:
            found[meeting_id][1].append((winners, losers))
            party.clear()
    return found


def paid_settlement(evening: EveningMoney) -> Settlement:
    """What was paid of ``evening``, as a settlement of its own (payments as lines)."""
    names = tuple(p.name for p in evening.players)
    lines = [
        Line(p.payer.name if p.payer else None, p.payee.name if p.payee else None, p.cents, "paid")
        for p in evening.paid
    ]
    if not lines:
        return Settlement(names, (), (), MappingProxyType(dict.fromkeys(names, 0)), 0)
    return money.settlement_of(names, lines)


def open_lines(evening: EveningMoney) -> list[Open]:
    """The payments still to make: what was paid brought to what the evening asks now."""
    rest = difference(old=paid_settlement(evening), new=evening.settlement)
    by_name = {p.name: p for p in evening.players}
    corrected = evening.corrected
    return [
        Open(evening.meeting, by_name.get(p.payer), by_name.get(p.payee), p.cents, corrected) for p in rest.payments
    ]


def _may_be_open(league_id: int):
    """The league's closed evenings played for money whose settlement may still be open
    (``Meeting.money_open``): the evenings long settled are not read at all."""
    return Meeting.objects.filter(
        league_id=league_id, closed_at__isnull=False, money_rules__isnull=False, money_open=True
    )


def _earlier(meeting: Meeting):
    return _may_be_open(meeting.league_id).filter(Q(date__lt=meeting.date) | Q(date=meeting.date, pk__lt=meeting.pk))


def evening_and_before(*, meeting: Meeting) -> tuple[EveningMoney | None, list[Open]]:
    """``evening_settlement`` of ``meeting`` and what is still open of the league's closed
    evenings before it, in one read (the evening page)."""
    meetings = list(_earlier(meeting).select_related("league").order_by("date", "pk"))
    found = settlements(meetings=[*meetings, meeting])
    evening = found.pop(meeting.pk, None)
    return evening, [line for earlier in found.values() for line in earlier.open]


def open_for(*, player: Player) -> list[Open]:
    """What is still open of ``player``'s closed evenings, as payer or payee, oldest first."""
    return _open_of(_may_be_open(player.league_id).filter(seats__player=player), player)


def owes(*, payer: Player, payee: Player) -> bool:
    """Whether ``payer`` owes ``payee`` money on an open line of an evening they both sat at."""
    both = _may_be_open(payee.league_id).filter(seats__player=payer).filter(seats__player=payee)
    return any(_id(o.payer) == payer.pk and _id(o.payee) == payee.pk for o in _open_of(both, payee))


def _open_of(meetings, player: Player | None) -> list[Open]:
    found = settlements(meetings=meetings.select_related("league").order_by("date", "pk"))
    lines = [line for evening in found.values() for line in evening.open]
    if player is None:
        return lines
    return [o for o in lines if player.pk in (_id(o.payer), _id(o.payee))]


def _id(player: Player | None) -> int | None:
    return None if player is None else player.pk
