"""Club nights in the API: a night's tables and its combined standings for every member, and
opening a night for scorekeepers and admins, through the same selectors
(leagues/table/night_selectors.py) and service (``nights.open_club_night``) as the pages.

A table's sheet and its hands are a meeting's (``…/meetings/<id>/``): a night only names its
tables. Opening takes the hand API's Idempotency-Key (leagues/api/headers.py): a phone that
sends the same opening again after a lost answer gets the night it opened (200), not a second
one; the same key with another body is a 409 naming the header. The standings' scores are
exact fractions written as text ("17/3"), since points per game played have no exact decimal.
"""

import json

from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues import games
from leagues.api.headers import NIGHT_IDEMPOTENCY_KEY, Invalid, idempotency_key
from leagues.api.headers import error as _error
from leagues.api.serializers import ClubNightOpenInputSerializer, ClubNightOutputSerializer, ErrorsSerializer
from leagues.exceptions import IdempotencyKeyReused, InvalidInput
from leagues.models import Role
from leagues.permissions import league_for
from leagues.table import night_draw, night_selectors, nights

ERRORS = {400: ErrorsSerializer, 403: ErrorsSerializer, 404: ErrorsSerializer}
KEY = "Idempotency-Key"


def _ref(player_id, name):
    return {"id": player_id, "name": name}


def night_data(night) -> dict:
    """The night as the API shows it: its tables with their players in seat order, and the
    evening's standings. Three queries, however many tables and hands."""
    tables = night_selectors.night_tables(night=night)
    seated = night_selectors.night_seats(tables=tables)
    return {
        "id": night.pk,
        "date": night.date,
        "season": night.season.number,
        "host": _ref(night.host_id, night.host.name),
        "combine": night.combine,
        "tables": [
            {
                "number": t.table_number,
                "meeting": t.pk,
                "players": list(seated.get(t.pk, {}).values()),
                "closed_at": t.closed_at,
            }
            for t in tables
        ],
        "standings": [
            {
                "place": row.place,
                "player": _ref(row.player_id, row.name),
                "table": row.table,
                "score": row.score,
                "points": row.points,
                "games": row.games,
            }
            for row in night_selectors.night_standings(night=night, tables=tables, seated=seated)
        ],
    }


class _Players:
    """The league's active players a request names by id, read in one query."""

    def __init__(self, league, data):
        ids = {data["host"], data.get("pennant_holder"), *(pk for table in data["tables"] for pk in table)}
        self.found = {p.pk: p for p in league.players.filter(pk__in=ids - {None}, active=True)}

    def one(self, pk, field):
        player = self.found.get(pk)
        if player is None:
            message = _("%(id)s is not the id of an active player of this league.") % {"id": pk}
            raise Invalid(_error(field, message))
        return player


def _open(request, league, data, *, key, sent):
    """The night opened from the checked ``data`` as the start page opens it: the host one of
    the players at the tables, who deals first at his; Invalid (a 400 naming the field) for
    an id that names no player for it, or a pennant in a game that has none. ``key`` and
    ``sent``: the client's idempotency key and its body as JSON, kept with the night."""
    players = _Players(league, data)
    tables = [[players.one(pk, "tables") for pk in table] for table in data["tables"]]
    host = players.one(data["host"], "host")
    if not any(host in table for table in tables):
        raise Invalid(_error("host", _("Pick the host among the players at the tables.")))
    holder = data.get("pennant_holder")
    if (holder is not None or data["pennant_forgotten"]) and not games.has_pennant(league.game):
        raise Invalid(_error("pennant_holder", _("This league's game plays without a pennant.")))
    return nights.open_club_night(
        league=league,
        date=data["date"],
        host=host,
        tables=[night_draw.host_first(table, host) for table in tables],
        end_time=data.get("end_time"),
        pennant_holder=None if holder is None else players.one(holder, "pennant_holder"),
        pennant_forgotten=data["pennant_forgotten"],
        user=request.user,
        key=key,
        opened_with=sent,
    )


def _opened(request, league, data, key):
    """(the night, whether this request opened it): the night the same ``key`` and body
    opened before, else a new one; IdempotencyKeyReused when the key opened another."""
    if key is None:
        return _open(request, league, data, key=None, sent=None), True
    # What the client asked for, as JSON and with the defaults filled in: a body that leaves
    # out "end_time" asks for what one that sends null asks for.
    fields = ("date", "host", "tables", "end_time", "pennant_holder", "pennant_forgotten")
    sent = json.loads(json.dumps({name: data.get(name) for name in fields}, cls=DjangoJSONEncoder))
    try:
        with transaction.atomic():
            earlier = nights.opened_before(league=league, key=key, opened_with=sent)
            if earlier is not None:
                return earlier, False
            return _open(request, league, data, key=key, sent=sent), True
    except IntegrityError:
        # Two retries at once where the league's lock did not keep them apart (SQLite).
        with transaction.atomic():
            earlier = nights.opened_before(league=league, key=key, opened_with=sent)
        if earlier is None:
            raise
        return earlier, False


class ClubNightsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="club_night_open",
        description=(
            "Open a club night: an evening at two tables or more at once, each table an evening of its own "
            "(its seats, hands and end) under the night's host, in one season; all tables or none "
            "(scorekeepers and admins). Its tables are combined by the league's choice at this moment. "
            "With an Idempotency-Key header, a retry with the same key and body answers with the night it "
            "opened (200) and opens no other; the same key with another body is a 409."
        ),
        request=ClubNightOpenInputSerializer,
        parameters=[NIGHT_IDEMPOTENCY_KEY],
        responses={
            201: ClubNightOutputSerializer,
            200: OpenApiResponse(ClubNightOutputSerializer, description="Opened before with this Idempotency-Key."),
            409: OpenApiResponse(ErrorsSerializer, description="The Idempotency-Key opened another night already."),
            **ERRORS,
        },
    )
    def post(self, request, slug):
        league, _membership = league_for(user=request.user, slug=slug, role=Role.SCOREKEEPER)
        try:
            key = idempotency_key(request, None, field=KEY)
            body = ClubNightOpenInputSerializer(data=request.data)
            body.is_valid(raise_exception=True)
            night, created = _opened(request, league, body.validated_data, key)
        except Invalid as error:
            return error.response
        except IdempotencyKeyReused:
            message = _("This Idempotency-Key opened another club night already: choose a new key.")
            return _error(KEY, message, status.HTTP_409_CONFLICT)
        except InvalidInput as error:
            return Response({"errors": error.errors}, status=status.HTTP_400_BAD_REQUEST)
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        response = Response(ClubNightOutputSerializer(night_data(night)).data, status=code)
        response["Location"] = reverse("api_club_night", kwargs={"slug": league.slug, "pk": night.pk})
        return response


class ClubNightView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="club_night_read",
        responses={200: ClubNightOutputSerializer, 403: ErrorsSerializer, 404: ErrorsSerializer},
    )
    def get(self, request, slug, pk):
        league, _membership = league_for(user=request.user, slug=slug)
        night = night_selectors.night_of(league=league, pk=pk)
        if night is None:
            raise Http404
        return Response(ClubNightOutputSerializer(night_data(night)).data)
