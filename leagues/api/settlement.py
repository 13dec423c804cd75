"""An evening's settlement in the API: read by every member, its payments ticked as paid by
scorekeepers and admins (a refund out of the cashbox by admins), through the same selector
(leagues/cashbox/settlement.py) and service (services.tick_payment_once) as the evening's
"Settling up" card. An IBAN appears only to the payer of an open transfer, and only where
selectors.iban_visible_to allows it."""

from django.core.exceptions import PermissionDenied
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.api.serializers import (
    ErrorsSerializer,
    PaidPaymentSerializer,
    PaymentTickInputSerializer,
    SettlementOutputSerializer,
)
from leagues.cashbox import selectors, services, settlement
from leagues.exceptions import InvalidInput
from leagues.models import Role
from leagues.permissions import meeting_for

ERRORS = {400: ErrorsSerializer, 403: ErrorsSerializer, 404: ErrorsSerializer}


def _euros(cents):
    return None if cents is None else f"{selectors.to_euros(cents):.2f}"


def _ref(player):
    return None if player is None else {"id": player.pk, "name": player.name}


def _paid(payment):
    return {
        "id": payment.pk,
        "payer": _ref(payment.payer),
        "payee": _ref(payment.payee),
        "amount": _euros(payment.cents),
        "cents": payment.cents,
        "paid_how": payment.paid_how,
        "paid_at": payment.paid_at,
        "ticked_by": payment.ticked_by_name,
        "correction": bool(payment.settled.get("correction")),
        "cashbox_entry": payment.cashbox_entry_id,
    }


class _PayTo:
    """The payee's account for the viewer, where he pays the line and may see it; each payee
    looked up once."""

    def __init__(self, viewer, league):
        self.viewer, self.league, self.found = viewer, league, {}

    def __call__(self, line):
        payee = line.payee
        if payee is None or line.payer is None or payee.user_id is None or line.payer.user_id != self.viewer.pk:
            return None
        if payee.pk not in self.found:
            owner = payee.user
            visible = selectors.iban_visible_to(viewer=self.viewer, owner=owner, league=self.league)
            account = selectors.bank_account_of(user=owner, league=self.league) if visible else None
            self.found[payee.pk] = {"holder": account.holder, "iban": account.iban} if account else None
        return self.found[payee.pk]


def _settled(evening, pay_to) -> dict:
    by_name = {p.name: p for p in evening.players}
    nets = evening.settlement.nets
    return {
        "rules": evening.rules,
        "totals": [
            {
                "player": _ref(p),
                "total": evening.totals[p.name],
                "net": _euros(nets.get(p.name, 0)),
                "net_cents": nets.get(p.name, 0),
            }
            for p in evening.players
        ],
        "cashbox": _euros(evening.settlement.cashbox),
        "cashbox_cents": evening.settlement.cashbox,
        "lines": [
            {
                "payer": _ref(by_name.get(line.payer)),
                "payee": _ref(by_name.get(line.payee)),
                "amount": _euros(line.cents),
                "cents": line.cents,
                "reason": line.reason,
                "figures": dict(line.figures),
            }
            for line in evening.settlement.lines
        ],
        "open": [
            {
                "payer": _ref(o.payer),
                "payee": _ref(o.payee),
                "amount": _euros(o.cents),
                "cents": o.cents,
                "correction": o.correction,
                "pay_to": pay_to(o),
            }
            for o in evening.open
        ],
        "paid": [_paid(p) for p in evening.paid],
        "corrected": evening.corrected,
    }


def settlement_data(*, meeting, viewer) -> dict:
    """The settlement of ``meeting`` as the API answers it (empty while it settles nothing)."""
    evening = settlement.evening_settlement(meeting=meeting)
    data = {"meeting": meeting.pk, "date": meeting.date, "closed": meeting.closed_at is not None}
    if evening is None:
        empty = {"rules": None, "totals": [], "cashbox": None, "cashbox_cents": None, "lines": [], "open": []}
        return {**data, **empty, "settles": False, "paid": [], "corrected": False}
    return {**data, "settles": True, **_settled(evening, _PayTo(viewer, meeting.league))}


class SettlementView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="settlement_read", responses={200: SettlementOutputSerializer, **ERRORS})
    def get(self, request, slug, pk):
        meeting, _membership = meeting_for(user=request.user, slug=slug, pk=pk)
        return Response(SettlementOutputSerializer(settlement_data(meeting=meeting, viewer=request.user)).data)


class SettlementPaymentsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="settlement_payment_tick",
        description=(
            "Tick an open payment of the evening as paid (scorekeepers and admins; a refund out of the cashbox: "
            "admins), naming it by payer, payee and amount as the settlement shows it. A payment into or out of "
            "the cashbox is recorded in its ledger too. Sent again for a payment ticked already, it answers that "
            "payment (200) and records nothing twice."
        ),
        request=PaymentTickInputSerializer,
        responses={201: PaidPaymentSerializer, 200: PaidPaymentSerializer, **ERRORS},
    )
    def post(self, request, slug, pk):
        meeting, membership = meeting_for(user=request.user, slug=slug, pk=pk, role=Role.SCOREKEEPER)
        body = PaymentTickInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        if data["payer"] is None and not membership.allows(Role.ADMIN):
            raise PermissionDenied  # money out of the cashbox is an admin's to record
        key = f"{data['payer'] or 'box'}-{data['payee'] or 'box'}-{data['amount']}"
        try:
            ticked = services.tick_payment_once(meeting=meeting, key=key, paid_how=data["paid_how"], user=request.user)
        except InvalidInput as error:
            return Response({"errors": error.errors}, status=status.HTTP_400_BAD_REQUEST)
        answer = status.HTTP_201_CREATED if ticked.new else status.HTTP_200_OK
        return Response(PaidPaymentSerializer(_paid(ticked.payment)).data, status=answer)
