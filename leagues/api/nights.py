"""Club nights in the API: a night's tables and its combined standings for every member, and
opening a night for scorekeepers and admins, through the same selectors
(leagues/table/night_selectors.py) and service (``nights.open_club_night``) as the pages.

A table's sheet and its hands are a meeting's (``…/meetings/<id>/``): a night only names its
tables. The standings' scores are exact fractions written as text ("17/3"), since points per
game played have no exact decimal.
"""

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues import games
from leagues.api.headers import Invalid
from leagues.api.headers import error as _error
from leagues.api.serializers import ClubNightOpenInputSerializer, ClubNightOutputSerializer, ErrorsSerializer
from leagues.exceptions import InvalidInput
from leagues.models import Role
from leagues.permissions import league_for
from leagues.table import night_draw, night_selectors, nights

ERRORS = {400: ErrorsSerializer, 403: ErrorsSerializer, 404: ErrorsSerializer}


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


def _open(request, league, data):
    """The night opened from the checked ``data`` as the start page opens it: the host one of
    the players at the tables, who deals first at his; Invalid (a 400 naming the field) for
    an id that names no player for it, or a pennant in a game that has none."""
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
    )


class ClubNightsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="club_night_open",
        description=(
            "Open a club night: an evening at two tables or more at once, each table an evening of its own "
            "(its seats, hands and end) under the night's host, in one season; all tables or none "
            "(scorekeepers and admins). Its tables are combined by the league's choice at this moment."
        ),
        request=ClubNightOpenInputSerializer,
        responses={201: ClubNightOutputSerializer, **ERRORS},
    )
    def post(self, request, slug):
        league, _membership = league_for(user=request.user, slug=slug, role=Role.SCOREKEEPER)
        body = ClubNightOpenInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            night = _open(request, league, body.validated_data)
        except Invalid as error:
            return error.response
        except InvalidInput as error:
            return Response({"errors": error.errors}, status=status.HTTP_400_BAD_REQUEST)
        response = Response(ClubNightOutputSerializer(night_data(night)).data, status=status.HTTP_201_CREATED)
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
