"""The JSON API. The calculate and bill-split endpoints are stateless and need no login; their
shapes are fixed by shared/spec/calculate-api.md."""

import importlib
import random

from django.db import IntegrityError, transaction
from django.http import Http404, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from leagues import exceptions as leagues_exceptions
from leagues.api.headers import ETAG, IDEMPOTENCY_KEY, IF_MATCH, IF_MATCH_REQUIRED, NEW_ETAG, Invalid
from leagues.api.headers import entry_key as _entry_key
from leagues.api.headers import error as _error
from leagues.api.headers import idempotency_key as _idempotency_key
from leagues.api.headers import version_seen as _version
from leagues.api.serializers import (
    BillSplitInputSerializer,
    BillSplitOutputSerializer,
    CalculateInputSerializer,
    CalculateOutputSerializer,
    CurrentHandOutputSerializer,
    ErrorsSerializer,
    HandChangeInputSerializer,
    HandInputSerializer,
    HandReplaceInputSerializer,
    HandVersionInputSerializer,
    LeagueOutputSerializer,
    MeetingHandOutputSerializer,
    MeetingOutputSerializer,
    StoredHandOutputSerializer,
)
from leagues.clubs import selectors as clubs_selectors
from leagues.exceptions import problems_as_errors
from leagues.exchange import league_file as exchange
from leagues.models import Hand, Role
from leagues.permissions import league_for, meeting_for
from leagues.table import replay, services
from leagues.table import selectors as table_selectors
from scoring.errors import ScoringError
from scoring.registry import GAME_MODULES, example_request, game_names, get_game
from scoring.sitting import calculate


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
    """Each problem under the field it belongs to; a list's item (a key that is its index)
    belongs to the list's field."""
    if isinstance(detail, dict):
        return [e for key, value in detail.items() for e in _flatten(value, _field_of(key, field))]
    if isinstance(detail, list):
        return [e for item in detail for e in _flatten(item, field)]
    return [{"hand": None, "field": field, "message": str(detail)}]


def _field_of(key, parent):
    if isinstance(key, int) and parent is not None:
        return parent
    return None if key == "non_field_errors" else key


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
        # A game module may show its house rules with requests of its own: ``API_EXAMPLES``,
        # {game name: [(title, request), ...]}.
        module = importlib.import_module(GAME_MODULES[name][0])
        for title, value in getattr(module, "API_EXAMPLES", {}).get(name, ()):
            examples.append(OpenApiExample(f"{name}: {title}", request_only=True, value=value))
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

    @extend_schema(operation_id="ping", request=None, responses={200: PingOutputSerializer})
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
            for m in clubs_selectors.memberships_of(user=request.user)
        ]
        return Response(LeagueOutputSerializer(rows, many=True).data)


class LeagueExportView(APIView):
    """A league's data as entered (leagues/exchange/league_file.py): the JSON the league page downloads."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="league_export",
        responses={200: OpenApiTypes.OBJECT},
        description=(
            "Everything of the league as it was entered: players, seasons, club nights, meetings with "
            "their rules, seats and hands (deleted ones too, with their history), reopenings and stored "
            "bills; no derived figure. Members of the league only."
        ),
    )
    def get(self, request, slug):
        league, _membership = league_for(user=request.user, slug=slug)
        # Streamed as the page's file is (leagues/exchange/league_file.py), compact as the API's JSON.
        return StreamingHttpResponse(exchange.export_json(league=league, compact=True), content_type="application/json")


def _meeting(request, slug, pk, role=Role.MEMBER):
    # The meeting with its season (shown with every meeting) and whether it opens its season
    # (asked by the replay: the pennant's penalty soli), after the league and the membership
    # (permissions.meeting_for).
    meeting, _membership = meeting_for(user=request.user, slug=slug, pk=pk, role=role)
    return meeting


def _hand_data(hand):
    return {
        "id": hand.pk,
        "number": hand.number,
        "version": hand.version,
        "payload": hand.payload,
        "deleted": hand.deleted_at is not None,
        "idempotency_key": hand.idempotency_key,
    }


def _etag(hand):
    return f'"{hand.version}"'


def _meeting_data(meeting, result=None, *, seats=None, hands=None, hand=None):
    """``result``: the replay a write just made of the meeting as it is now (None: replayed
    here); ``seats`` and ``hands`` (``selectors.seats_of``, ``selectors.meeting_hands``): what
    that write read under the meeting's lock, with what it added (None: read here). ``hand``:
    the hand just written, shown beside the meeting (MeetingHandOutputSerializer)."""
    if seats is None:
        seats = table_selectors.seats_of(meeting)
    if result is None:
        result = replay.calculate_meeting(meeting, players=seats)
    if hands is None:
        # Who entered a hand is not shown: the sheet's columns, no join of the users.
        hands = table_selectors.meeting_hands(meeting=meeting, entered_by=False)
    data = {
        "id": meeting.pk,
        "date": meeting.date,
        "season": meeting.season.number,
        "players": [seat.name for seat in seats],
        "hands": [_hand_data(hand) for hand in hands],
        "result": result,
        "closed_at": meeting.closed_at,
        "club_night": meeting.club_night_id,
        "table_number": meeting.table_number,
    }
    if hand is None:
        return MeetingOutputSerializer(data).data
    # Serialized once, with the hand.
    return MeetingHandOutputSerializer({**data, "hand": _hand_data(hand)}).data


def _invalid(error):
    return Response({"errors": error.errors}, status=status.HTTP_400_BAD_REQUEST)


def _meeting_response(meeting, *, status_code=status.HTTP_200_OK, hand=None, result=None, seats=None, hands=None):
    """The meeting as the API shows it (with ``hand``, the one just written, and its ETag);
    a 400 with the replay's problems when its stored hands no longer replay (an engine or a
    player's name changed since), never a 500. ``result``: the write's own replay, so that
    the answer does not replay the meeting a second time."""
    try:
        data = _meeting_data(meeting, result, seats=seats, hands=hands, hand=hand)
    except leagues_exceptions.InvalidInput as error:
        return _invalid(error)
    if hand is None:
        return Response(data, status=status_code)
    return Response(data, status=status_code, headers={"ETag": _etag(hand)})


def _conflict(error):
    message = _("Someone just entered hand %(number)s. The sheet has been refreshed; check it before you enter.") % {
        "number": error.number
    }
    return _error("number", message, status.HTTP_409_CONFLICT)


def _current_hand(hand, changed_by, changed_at):
    name = (changed_by.get_short_name() or changed_by.get_username()) if changed_by is not None else None
    return CurrentHandOutputSerializer({**_hand_data(hand), "changed_by": name, "changed_at": changed_at}).data


def _stale(error):
    """409: the client wrote over a version it did not see; the hand as it is now."""
    hand = error.hand
    if hand.deleted_at is not None:
        message = _("Someone else deleted this hand in the meantime (it is now version %(version)s): nothing changed.")
    else:
        message = _("Someone else changed this hand in the meantime (it is now version %(version)s): nothing changed.")
    body = {
        "errors": [{"hand": hand.number, "field": "version", "message": message % {"version": hand.version}}],
        "hand": _current_hand(hand, error.changed_by, error.changed_at),
    }
    return Response(body, status=status.HTTP_409_CONFLICT, headers={"ETag": _etag(hand)})


def _key_reused(error):
    """409: the idempotency key names another hand already; that hand comes along."""
    message = _("This idempotency key was used for another hand already: choose a new key.")
    body = _error("idempotency_key", message, status.HTTP_409_CONFLICT)
    body.data["hand"] = StoredHandOutputSerializer(_hand_data(error.hand)).data
    return body


def _hand(request, slug, pk, hand_pk, role=Role.SCOREKEEPER):
    meeting = _meeting(request, slug, pk, role=role)
    return meeting, get_object_or_404(Hand, meeting=meeting, pk=hand_pk)


# In the error shape like every error; the hand as it is now comes along as "hand".
STALE = OpenApiResponse(
    ErrorsSerializer,
    description=(
        "Someone else wrote the hand since the version named (or the idempotency key names another hand): "
        "nothing changed. Besides errors, the body has hand: the hand as it is now (id, number, version, "
        "payload, deleted, idempotency_key, changed_by, changed_at); the ETag header is its version."
    ),
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
        description=(
            "Append the next hand. Send its number (the one you saw as next: 409 when another phone entered it "
            "first), an idempotency key (the body's idempotency_key or the Idempotency-Key header: sent again, "
            "the hand as it is now, 200, whatever was corrected or deleted since), or both; without either, 400."
        ),
        request=HandInputSerializer,
        parameters=[IDEMPOTENCY_KEY, NEW_ETAG],
        responses={
            201: MeetingHandOutputSerializer,
            200: OpenApiResponse(MeetingHandOutputSerializer, description="Entered before with this idempotency key."),
            400: ErrorsSerializer,
            409: STALE,
        },
    )
    def post(self, request, slug, pk):
        seats = hands = None
        try:
            try:
                # The meeting's lock first: the meeting (with its league and the membership),
                # its hands and its seats are read once, for the write and the answer (issue
                # 12: the answer read them again).
                with transaction.atomic():
                    meeting, _membership = meeting_for(
                        user=request.user, slug=slug, pk=pk, role=Role.SCOREKEEPER, lock=True
                    )
                    serializer = HandInputSerializer(data=request.data)
                    serializer.is_valid(raise_exception=True)
                    data = serializer.validated_data
                    key = _entry_key(request, data)
                    locked = services.Locked.read(meeting)
                    hands, seats = locked.hands, locked.seated
                    entered = services.enter_hand(
                        meeting=meeting,
                        payload=data["payload"],
                        by=request.user,
                        number=data.get("number"),
                        key=key,
                        locked=locked,
                    )
            except IntegrityError as error:
                entered = services.entered_meanwhile(meeting, key=key, payload=data["payload"], error=error)
        except Invalid as error:
            return error.response
        except leagues_exceptions.HandConflict as error:
            return _conflict(error)
        except leagues_exceptions.IdempotencyKeyReused as error:
            return _key_reused(error)
        except leagues_exceptions.InvalidInput as error:
            return _invalid(error)
        hand = entered.hand
        if entered.created:
            response = _meeting_response(
                meeting,
                hand=hand,
                result=entered.result,
                status_code=status.HTTP_201_CREATED,
                seats=seats,
                hands=hands + [hand],
            )
        else:  # entered before with this key: the meeting as it is now
            response = _meeting_response(meeting, hand=hand, result=entered.result)
        response["Location"] = reverse("api_hand", kwargs={"slug": slug, "pk": pk, "hand_pk": hand.pk})
        return response


def _hand_write(write):
    """Run ``write`` (a correction, deletion, restore or replacement of one hand: it returns
    the meeting, the hand and the meeting's replay, or None for none) and answer as the API
    does: the meeting with the hand as it is now, or the refusal (400, or 409 when stale)."""
    try:
        meeting, hand, result = write()
    except Invalid as error:
        return error.response
    except leagues_exceptions.StaleHand as error:
        return _stale(error)
    except leagues_exceptions.InvalidInput as error:
        return _invalid(error)
    return _meeting_response(meeting, hand=hand, result=result)


class MeetingHandView(APIView):
    """One hand. Writes name the version of the hand the client saw (If-Match or a
    ``version`` field): a write over a newer version is a 409 with the hand as it is now."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="meeting_hand_read", parameters=[ETAG], responses={200: StoredHandOutputSerializer})
    def get(self, request, slug, pk, hand_pk):
        _meeting_obj, hand = _hand(request, slug, pk, hand_pk, role=Role.MEMBER)
        return Response(StoredHandOutputSerializer(_hand_data(hand)).data, headers={"ETag": _etag(hand)})

    @extend_schema(
        operation_id="meeting_hand_change",
        request=HandChangeInputSerializer,
        parameters=[IF_MATCH, ETAG],
        responses={200: MeetingHandOutputSerializer, 400: ErrorsSerializer, 409: STALE},
    )
    def put(self, request, slug, pk, hand_pk):
        def correct():
            # The meeting's lock first, as the entry: the meeting (with its league and the
            # membership), the hand and the evening's hands are read once, under it. Whatever
            # goes wrong rolls all of it back.
            with transaction.atomic():
                meeting, _membership = meeting_for(
                    user=request.user, slug=slug, pk=pk, role=Role.SCOREKEEPER, lock=True
                )
                locked = services.Locked.read(meeting)
                try:
                    hand = locked.hand(hand_pk)
                except Hand.DoesNotExist:
                    raise Http404 from None
                serializer = HandChangeInputSerializer(data=request.data)
                serializer.is_valid(raise_exception=True)
                data = serializer.validated_data
                changed = services.change_hand(
                    hand=hand,
                    payload=data["payload"],
                    by=request.user,
                    version=_version(request, data.get("version")),
                    locked=locked,
                )
                return meeting, changed.hand, changed.result

        return _hand_write(correct)

    @extend_schema(
        operation_id="meeting_hand_delete",
        parameters=[IF_MATCH_REQUIRED, ETAG],
        responses={200: MeetingHandOutputSerializer, 400: ErrorsSerializer, 409: STALE},
    )
    def delete(self, request, slug, pk, hand_pk):
        meeting, hand = _hand(request, slug, pk, hand_pk)
        return _hand_write(
            lambda: (meeting, services.delete_hand(hand=hand, by=request.user, version=_version(request)), None)
        )


class MeetingHandRestoreView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="meeting_hand_restore",
        request=HandVersionInputSerializer,
        parameters=[IF_MATCH, ETAG],
        responses={200: MeetingHandOutputSerializer, 400: ErrorsSerializer, 409: STALE},
    )
    def post(self, request, slug, pk, hand_pk):
        meeting, hand = _hand(request, slug, pk, hand_pk)
        serializer = HandVersionInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        version = serializer.validated_data.get("version")
        return _hand_write(
            lambda: (
                meeting,
                services.restore_hand(hand=hand, by=request.user, version=_version(request, version)),
                None,
            ),
        )


class MeetingHandReplaceView(APIView):
    """A hand entered offline takes the place of the hand another phone stored
    under its number. A correction of that hand at the version the client saw (409 when it
    changed since), made once per idempotency key: sent again, the hand as it is now (200),
    nothing replaced twice. The hand's history records the replacement."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="meeting_hand_replace",
        request=HandReplaceInputSerializer,
        parameters=[IF_MATCH, IDEMPOTENCY_KEY, ETAG],
        responses={200: MeetingHandOutputSerializer, 400: ErrorsSerializer, 409: STALE},
    )
    def post(self, request, slug, pk, hand_pk):
        meeting, hand = _hand(request, slug, pk, hand_pk)
        serializer = HandReplaceInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data

        def replace():
            key = _idempotency_key(request, data.get("idempotency_key"))
            if key is None:
                message = _("Send the idempotency key of the hand that replaces it (a UUID).")
                raise Invalid(_error("idempotency_key", message))
            try:
                changed = services.replace_hand(
                    hand=hand,
                    payload=data["payload"],
                    by=request.user,
                    version=_version(request, data.get("version")),
                    key=key,
                    entered_as=data.get("entered_as"),
                )
                return meeting, changed.hand, changed.result
            except leagues_exceptions.IdempotencyKeyReused as error:
                raise Invalid(_key_reused(error)) from None

        return _hand_write(replace)
