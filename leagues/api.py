"""The JSON API. The calculate and bill-split endpoints are stateless and need no login; their
shapes are fixed by shared/spec/calculate-api.md."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from scoring.errors import ScoringError
from scoring.sitting import calculate

from .serializers import (
    BillSplitInputSerializer,
    BillSplitOutputSerializer,
    CalculateInputSerializer,
    CalculateOutputSerializer,
    ErrorsSerializer,
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


class CalculateView(StatelessView):
    @extend_schema(
        operation_id="calculate",
        summary="Replay one sitting and return every derived figure",
        request=CalculateInputSerializer,
        responses={200: CalculateOutputSerializer, 400: ErrorsSerializer},
        examples=[
            OpenApiExample(
                "Doppelkopf, one hand",
                request_only=True,
                value={
                    "game": "doppelkopf",
                    "variant": "club",
                    "players": ["Anna", "Ben", "Carl", "Dora", "Emil"],
                    "hands": [{"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}],
                },
            )
        ],
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
