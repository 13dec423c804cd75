"""The cashbox in the API: its ledger for every member, entries in for scorekeepers and
admins, entries out, counter-entries and counts for admins, through the same selectors and
services as the ledger page (leagues/cashbox/)."""

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.api.headers import error as _error
from leagues.api.serializers import (
    CashboxCounterInputSerializer,
    CashboxEntryInputSerializer,
    CashboxEntryOutputSerializer,
    CashboxOutputSerializer,
    CashCountInputSerializer,
    CashCountOutputSerializer,
    ErrorsSerializer,
)
from leagues.cashbox import selectors, services
from leagues.exceptions import InvalidInput
from leagues.models import Role
from leagues.permissions import league_for

ERRORS = {400: ErrorsSerializer, 403: ErrorsSerializer, 404: ErrorsSerializer}


def _euros(cents):
    return None if cents is None else f"{selectors.to_euros(cents):.2f}"


def _entry(entry):
    return {
        "id": entry.pk,
        "kind": entry.kind,
        "amount": _euros(entry.cents),
        "cents": entry.cents,
        "note": entry.note,
        "season": entry.season.number if entry.season_id else None,
        "meeting": entry.meeting_id,
        "counters": entry.counters_id,
        "undone": getattr(entry, "undone", False),
        "recorded_by": entry.recorded_by_name,
        "recorded_at": entry.recorded_at,
    }


def _count(count):
    return {
        "amount": _euros(count.cents),
        "cents": count.cents,
        "counted_on": count.counted_on,
        "note": count.note,
        "counted_by": count.counted_by_name,
        "recorded_at": count.recorded_at,
    }


def _invalid(error):
    return Response({"errors": error.errors}, status=status.HTTP_400_BAD_REQUEST)


class CashboxView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="cashbox_read", responses={200: CashboxOutputSerializer, **ERRORS})
    def get(self, request, slug):
        league, _membership = league_for(user=request.user, slug=slug)
        ledger = selectors.ledger(league=league)
        data = {
            "balance": _euros(ledger.balance),
            "balance_cents": ledger.balance,
            "latest_count": _count(ledger.latest_count) if ledger.latest_count else None,
            "balance_at_count": _euros(ledger.balance_at_count),
            "difference": _euros(ledger.difference),
            "entries": [_entry(e) for e in ledger.entries],
            "entries_total": ledger.count,
        }
        return Response(CashboxOutputSerializer(data).data)


class CashboxEntriesView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="cashbox_entry_add",
        description="Record money in (scorekeepers and admins) or out (admins; never more than the balance).",
        request=CashboxEntryInputSerializer,
        responses={201: CashboxEntryOutputSerializer, **ERRORS},
    )
    def post(self, request, slug):
        league, membership = league_for(user=request.user, slug=slug, role=Role.SCOREKEEPER)
        body = CashboxEntryInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        if not membership.allows(selectors.role_to_record(data["kind"])):
            raise PermissionDenied
        season = meeting = None
        if data.get("season") is not None:
            season = league.seasons.filter(number=data["season"]).first()
            if season is None:
                return _error("season", _("This league has no such season."))
        if data.get("meeting") is not None:
            meeting = league.meetings.filter(pk=data["meeting"]).first()
            if meeting is None:
                return _error("meeting", _("This league has no such evening."))
        try:
            entry = services.record_entry(
                league=league,
                kind=data["kind"],
                cents=data["amount"],
                note=data["note"],
                season=season,
                meeting=meeting,
                user=request.user,
            )
        except InvalidInput as error:
            return _invalid(error)
        return Response(CashboxEntryOutputSerializer(_entry(entry)).data, status=status.HTTP_201_CREATED)


class CashboxCounterView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="cashbox_entry_counter",
        description="Undo an entry by a counter-entry of the opposite amount (admins). Entries are never deleted.",
        request=CashboxCounterInputSerializer,
        responses={201: CashboxEntryOutputSerializer, **ERRORS},
    )
    def post(self, request, slug, pk):
        league, _membership = league_for(user=request.user, slug=slug, role=Role.ADMIN)
        body = CashboxCounterInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if not league.cashbox_entries.filter(pk=pk).exists():
            return _error("entry", _("There is no such entry in this league's cashbox."), status.HTTP_404_NOT_FOUND)
        try:
            entry = services.counter_entry(
                league=league, entry_id=pk, note=body.validated_data["note"], user=request.user
            )
        except InvalidInput as error:
            return _invalid(error)
        return Response(CashboxEntryOutputSerializer(_entry(entry)).data, status=status.HTTP_201_CREATED)


class CashCountsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="cashbox_count_add",
        description="Record the cash counted in the cashbox (admins).",
        request=CashCountInputSerializer,
        responses={201: CashCountOutputSerializer, **ERRORS},
    )
    def post(self, request, slug):
        league, _membership = league_for(user=request.user, slug=slug, role=Role.ADMIN)
        body = CashCountInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        try:
            count = services.record_count(
                league=league, cents=data["amount"], counted_on=data["counted_on"], note=data["note"], user=request.user
            )
        except InvalidInput as error:
            return _invalid(error)
        return Response(CashCountOutputSerializer(_count(count)).data, status=status.HTTP_201_CREATED)
