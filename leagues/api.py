"""The JSON API. The calculate and bill-split endpoints are stateless and need no login; their
shapes are fixed by shared/spec/calculate-api.md."""

import random

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from scoring.errors import ScoringError
from scoring.registry import example_request, game_names, get_game
from scoring.sitting import calculate

from . import selectors, services
from .models import Hand, Meeting, Role
from .permissions import league_for
from .serializers import (
    BillSplitInputSerializer,
    BillSplitOutputSerializer,
    CalculateInputSerializer,
    CalculateOutputSerializer,
    ErrorsSerializer,
    HandInputSerializer,
    LeagueOutputSerializer,
    MeetingOutputSerializer,
)
from .services import problems_as_errors


def exception_handler(exc, context):
    """Every API error in the one shape the spec gives: {"errors": [{hand, field, message}]}."""
    if isinstance(exc, exceptions.ParseError):
        return Response(
            {"errors": [{"hand": None, "field": None, "message": _("The request body is not valid JSON.")}]},
            status=status.HTTP_400_BAD_REQUEST,
        )
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(exc, exceptions.ValidationError):
        response.data = {"errors": _flatten(exc.detail)}
    elif response is not None and isinstance(response.data, dict) and "detail" in response.data:
        response.data = {"errors": [{"hand": None, "field": None, "message": str(response.data["detail"])}]}
    return response


def _flatten(detail, field=None):
    if isinstance(detail, dict):
        return [e for key, value in detail.items() for e in _flatten(value, None if key == "non_field_errors" else key)]
    if isinstance(detail, list):
        return [e for item in detail for e in _flatten(item, field)]
    return [{"hand": None, "field": field, "message": str(detail)}]


class StatelessView(APIView):
    # No login and no session: outside clients call these without a CSRF token.
    authentication_classes = []
    permission_classes = [AllowAny]

    def run(self, function, data):
        try:
            return Response(function(data))
        except ScoringError as error:
            return Response({"errors": problems_as_errors(error)}, status=status.HTTP_400_BAD_REQUEST)


def calculate_examples():
    """A request for every game in the schema, made by the game's own example generator
    with a fixed seed (so the docs show hands that really replay)."""
    examples = []
    for name in game_names():
        request = example_request(name, random.Random(3), 3)
        examples.append(OpenApiExample(get_game(name).key, request_only=True, value=request))
    return examples


class CalculateView(StatelessView):
    @extend_schema(
        operation_id="calculate",
        summary="Replay one sitting and return every derived figure",
        request=CalculateInputSerializer,
        responses={200: CalculateOutputSerializer, 400: ErrorsSerializer},
        examples=calculate_examples(),
    )
    def post(self, request):
        # scoring/ checks the body strictly (a bool is not a number, "5" is not 5), so the
        # raw JSON goes there rather than through the serializer's coercing fields.
        return self.run(calculate, request.data)


class BillSplitView(StatelessView):
    @extend_schema(
        operation_id="bill_split",
        summary="Split the restaurant bill by the season's standings",
        request=BillSplitInputSerializer,
        responses={200: BillSplitOutputSerializer, 400: ErrorsSerializer},
    )
    def post(self, request):
        from scoring.bill import split_bill

        return self.run(split_bill, request.data)


class PingOutputSerializer(serializers.Serializer):
    ok = serializers.BooleanField()


class PingView(StatelessView):
    """A trivial JSON endpoint: the benchmark's yardstick for the server's own overhead."""

    serializer_class = PingOutputSerializer

    @extend_schema(operation_id="ping", responses={200: PingOutputSerializer})
    def post(self, request):
        return Response({"ok": True})


# --- the stateful API: the same services as the HTML pages ---------------------------------


class LeagueListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="leagues_list", responses={200: LeagueOutputSerializer(many=True)})
    def get(self, request):
        rows = [
            {
                "slug": m.league.slug,
                "name": m.league.name,
                "game": m.league.game,
                "variant": m.league.variant,
                "role": m.role,
            }
            for m in selectors.memberships_of(user=request.user)
        ]
        return Response(LeagueOutputSerializer(rows, many=True).data)


def _meeting(request, slug, pk, role=Role.MEMBER):
    league, _membership = league_for(user=request.user, slug=slug, role=role)
    return get_object_or_404(Meeting, league=league, pk=pk)


def _meeting_data(meeting):
    result = services.calculate_meeting(meeting)
    hands, number = [], 0
    for hand in selectors.meeting_hands(meeting=meeting):
        if hand.deleted_at is None:
            number += 1
        hands.append(
            {
                "id": hand.pk,
                "number": None if hand.deleted_at else number,
                "payload": hand.payload,
                "deleted": hand.deleted_at is not None,
            }
        )
    data = {
        "id": meeting.pk,
        "date": meeting.date,
        "season": meeting.season.number,
        "players": [p.name for p in services.seated_players(meeting)],
        "hands": hands,
        "result": result,
    }
    return MeetingOutputSerializer(data).data


def _invalid(error):
    return Response({"errors": error.errors}, status=status.HTTP_400_BAD_REQUEST)


def _meeting_response(meeting, *, status_code=status.HTTP_200_OK):
    """The meeting as the API shows it; a 400 with the replay's problems when its stored
    hands no longer replay (an engine or a player's name changed since), never a 500."""
    try:
        data = _meeting_data(meeting)
    except services.InvalidInput as error:
        return _invalid(error)
    return Response(data, status=status_code)


def _conflict(error):
    message = _("Someone just entered hand %(number)s. The sheet has been refreshed; check it before you enter.") % {
        "number": error.number
    }
    return Response(
        {"errors": [{"hand": None, "field": "number", "message": message}]}, status=status.HTTP_409_CONFLICT
    )


class MeetingView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="meeting_read", responses={200: MeetingOutputSerializer, 400: ErrorsSerializer})
    def get(self, request, slug, pk):
        return _meeting_response(_meeting(request, slug, pk))


class MeetingHandsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="meeting_hand_add",
        request=HandInputSerializer,
        responses={201: MeetingOutputSerializer, 400: ErrorsSerializer, 409: ErrorsSerializer},
    )
    def post(self, request, slug, pk):
        meeting = _meeting(request, slug, pk, role=Role.SCOREKEEPER)
        serializer = HandInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            services.add_hand(
                meeting=meeting,
                payload=serializer.validated_data["payload"],
                user=request.user,
                number=serializer.validated_data.get("number"),
            )
        except services.HandConflict as error:
            return _conflict(error)
        except services.InvalidInput as error:
            return _invalid(error)
        return _meeting_response(meeting, status_code=status.HTTP_201_CREATED)


class MeetingHandView(APIView):
    permission_classes = [IsAuthenticated]

    def _hand(self, request, slug, pk, hand_pk):
        meeting = _meeting(request, slug, pk, role=Role.SCOREKEEPER)
        return meeting, get_object_or_404(Hand, meeting=meeting, pk=hand_pk)

    @extend_schema(
        operation_id="meeting_hand_change",
        request=HandInputSerializer,
        responses={200: MeetingOutputSerializer, 400: ErrorsSerializer},
    )
    def put(self, request, slug, pk, hand_pk):
        meeting, hand = self._hand(request, slug, pk, hand_pk)
        serializer = HandInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            if hand.deleted_at is not None:
                raise services.InvalidInput(
                    [{"hand": None, "field": "payload", "message": _("Restore this hand before correcting it.")}]
                )
            services.change_hand(hand=hand, payload=serializer.validated_data["payload"], user=request.user)
        except services.InvalidInput as error:
            return _invalid(error)
        return _meeting_response(meeting)

    @extend_schema(operation_id="meeting_hand_delete", responses={200: MeetingOutputSerializer, 400: ErrorsSerializer})
    def delete(self, request, slug, pk, hand_pk):
        meeting, hand = self._hand(request, slug, pk, hand_pk)
        if hand.deleted_at is None:
            try:
                services.delete_hand(hand=hand, user=request.user)
            except services.InvalidInput as error:
                return _invalid(error)
        return _meeting_response(meeting)
