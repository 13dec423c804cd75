"""Standings, host rotation and the public read-only link.

The same template serves members (/l/<slug>/standings/) and anyone holding the league's public
token (/p/<token>/): the public pages only ever show player names, figures and sheets, never
invites, accounts or anything that changes data.
"""

from decimal import ROUND_HALF_UP, Decimal

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from leagues.models import Role, Season
from leagues.permissions import league_for, public_league
from leagues.stats import selectors as stats_selectors
from leagues.table import selectors as table_selectors
from leagues.table.night_page import season_score_text
from scoring.numbers import whole_number


class BadSeason(ValueError):
    pass


def asked_season_number(request):
    """?season=N picks a season; BadSeason when it is not a number at all."""
    raw = request.GET.get("season")
    if raw in (None, ""):
        return None
    number = whole_number(raw)  # ASCII digits only: "١" is not season 1
    if number is None:
        raise BadSeason(raw)
    return number


def _standings(request, league, *, public_token=None, membership=None):
    try:
        number = asked_season_number(request)
    except BadSeason as error:
        message = _("“%(value)s” is not a season number.") % {"value": error.args[0]}
        return render(request, "400.html", {"message": message}, status=400)
    try:
        data = stats_selectors.standings(league=league, season_number=number)
    except Season.DoesNotExist:
        raise Http404 from None  # a season this league has not played (yet)
    can_split_bill = membership is not None and membership.allows(Role.SCOREKEEPER)
    return render(
        request,
        "standings/standings.html",
        {
            "league": league,
            "s": data,
            "public_token": public_token,
            "membership": membership,
            "can_split_bill": can_split_bill,
            **_tables(data),
        },
    )


def _table_rows(table, *, chooser=None, shown_as="points", race=False):
    return [
        {
            "rank": row.rank,
            "name": row.player.name,
            "score": season_score_text(row.score, shown_as=shown_as, race=race),
            "total": row.total,
            "games": row.games,
            "wins": row.wins,
            "solos": row.solos,
            "solos_won": row.solos_won,
            "average": _shown_average(row.average),
            "games_won": row.games_won,
            "points": row.points,
            "evenings_won": row.evenings_won,
            "chooser": row.player.id == chooser,
        }
        for row in table
    ]


def _shown_average(average):
    """A player's exact points per game to two places (as shown), None without a game."""
    if average is None:
        return None
    return (Decimal(average.numerator) / Decimal(average.denominator)).quantize(Decimal("0.01"), ROUND_HALF_UP)


def _tables(data):
    """The season picker (``chips``), the season's table and the all-time table, each as its
    partial of templates/standings/tables.html shows it (``t``)."""
    shown = data.season.number if data.season else None
    closed = data.season is not None and data.season.closed_on is not None
    chooser = data.choosing_restaurant.id if closed and data.choosing_restaurant else None
    return {
        "chips": {"seasons": [(s.number, str(s)) for s in data.seasons], "shown": shown},
        "season_table": {
            "race": data.race,
            "solos": data.solos,
            "by_score": data.by_score,
            "rows": _table_rows(data.table, chooser=chooser, shown_as=data.shown_as, race=data.race),
        },
        "all_time": {"race": data.race, "solos": data.solos, "rows": _table_rows(data.all_time)},
    }


@require_GET
@login_required
def standings(request, slug):
    league, membership = league_for(user=request.user, slug=slug)
    return _standings(request, league, membership=membership)


@require_GET
def public_standings(request, token):
    league = public_league(token=token)
    return _standings(request, league, public_token=token)


@require_GET
def public_meeting(request, token, pk):
    # The league comes with the meeting: a wrong token or a meeting of another league is the
    # same 404.
    meeting = table_selectors.public_meeting(token=token, pk=pk)
    if meeting is None:
        raise Http404
    league = meeting.league
    players, rows, totals = table_selectors.meeting_sheet(meeting=meeting)
    return render(
        request,
        "public/meeting.html",
        {
            "league": league,
            "meeting": meeting,
            "players": players,
            "rows": rows,
            "totals": totals,
            # The legend of special rounds, when the sheet marks any.
            "has_rounds": any(row.round_label for row in rows),
            "public_token": token,
        },
    )


urlpatterns = [
    path("l/<slug:slug>/standings/", standings, name="standings"),
    path("p/<token:token>/", public_standings, name="public_standings"),
    path("p/<token:token>/m/<int:pk>/", public_meeting, name="public_meeting"),
]
