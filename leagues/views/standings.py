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

from scoring.numbers import whole_number

from .. import (
    fragments,
    pages,
    selectors,
)
from ..models import Role, Season
from ..permissions import league_for, public_league
from ..templatetags.sheet import round_letters, texts


class BadSeason(ValueError):
    pass


def _season_number(request):
    """?season=N picks a season; BadSeason when it is not a number at all."""
    raw = request.GET.get("season")
    if raw in (None, ""):
        return None
    number = whole_number(raw)  # ASCII digits only: "١" is not season 1
    if number is None:
        raise BadSeason(raw)
    return number


def _standings(request, league, *, public_token=None, membership=None, stand_ins=None):
    try:
        number = _season_number(request)
    except BadSeason as error:
        message = _("“%(value)s” is not a season number.") % {"value": error.args[0]}
        return render(request, "400.html", {"message": message}, status=400)
    try:
        data = selectors.standings(league=league, season_number=number)
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
            **_meeting_lists_html(league, data, public_token=public_token),
            **_tables_html(data),
            **(stand_ins or {}),
        },
    )


def _table_rows(table, *, chooser=None):
    return [
        {
            "rank": row.rank,
            "name": row.player.name,
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


def _tables_html(data):
    """The season picker, the season's table and the all-time table, each rendered from
    exactly what it shows and kept (leagues/fragments.py): with 20 seasons they were 1.7 of
    the page's 2.3 ms of template (the picker alone 0.8 ms). Whatever changes a figure, a
    name, a rank or the season shown gives another key."""
    shown = data.season.number if data.season else None
    closed = data.season is not None and data.season.closed_on is not None
    chooser = data.choosing_restaurant.id if closed and data.choosing_restaurant else None
    parts = {
        "chips_html": ("chips", {"seasons": [(s.number, str(s)) for s in data.seasons], "shown": shown}),
        "table_html": (
            "season_table",
            {"race": data.race, "solos": data.solos, "rows": _table_rows(data.table, chooser=chooser)},
        ),
        "all_time_html": ("all_time", {"race": data.race, "solos": data.solos, "rows": _table_rows(data.all_time)}),
    }
    return {
        name: fragments.rendered(f"standings/tables.html#{partial}", t, lambda t=t: {"t": t})
        for name, (partial, t) in parts.items()
    }


def _meeting_lists_html(league, data, *, public_token):
    """The season's evenings (newest first) and who hosted them, each line rendered from
    exactly what it shows and kept (leagues/fragments.py): with 40 evenings in a season they
    were half of the page's template time, and they are what grows with the season."""
    meetings = [
        {
            "token": public_token,
            "slug": league.slug,
            "id": m.id,
            "date": m.date,
            "imported": m.imported_totals,
            "host": m.host.name,
            "winner": m.winner.name if m.winner else None,  # a closed evening's only
            "open": not m.closed,
            "race": data.race,
            "figure": m.winner_games_won if data.race else m.winner_total,
        }
        for m in reversed(data.meetings)
    ]
    hosted = [{"host": m.host.name, "date": m.date} for m in data.rotation.hosted]
    return {
        "meeting_rows_html": fragments.rendered_rows("standings/meeting_row.html", meetings),
        "hosted_html": fragments.rendered_rows("standings/hosted_row.html", hosted),
    }


@require_GET
@login_required
def standings(request, slug):
    league, membership = league_for(user=request.user, slug=slug)
    return pages.kept(
        request,
        league=league,
        vary=(membership.role,),
        render=lambda stand_ins: _standings(request, league, membership=membership, stand_ins=stand_ins),
    )


@require_GET
def public_standings(request, token):
    league = public_league(token=token)
    return pages.kept(
        request,
        league=league,
        render=lambda stand_ins: _standings(request, league, public_token=token, stand_ins=stand_ins),
    )


@require_GET
def public_meeting(request, token, pk):
    # The league (with its stamp) comes with the meeting: a wrong token or a meeting of
    # another league is the same 404.
    meeting = selectors.public_meeting(token=token, pk=pk)
    if meeting is None:
        raise Http404
    return pages.kept(
        request, league=meeting.league, render=lambda stand_ins: _public_meeting(request, meeting, token, stand_ins)
    )


def _public_meeting(request, meeting, token, stand_ins):
    league = meeting.league
    players, rows, totals = selectors.meeting_sheet(meeting=meeting)
    return render(
        request,
        "public/meeting.html",
        {
            "league": league,
            "meeting": meeting,
            "players": players,
            "rows": rows,
            "sheet_html": _public_sheet_html(rows, players=players),
            "totals": totals,
            # The legend of special rounds, when the sheet marks any.
            "has_rounds": any(row.round_label for row in rows),
            "public_token": token,
            **stand_ins,
        },
    )


def _public_sheet_html(rows, *, players):
    """The public sheet's rows as HTML, each kept by exactly what it shows
    (leagues/fragments.py): rendering them was most of the page's time."""
    text = texts()
    return fragments.rendered_rows(
        "public/sheet_row.html",
        [
            {
                "number": row.number,
                "round": row.round,
                "round_label": text(row.round_label),
                "letters": [(letter, text(words)) for letter, words in round_letters(row)],
                "cells": list(row.cells),
                "game_end": [str(line) for line in row.game_end],
                "colspan": len(players) + 1,
            }
            for row in rows
        ],
        using="jinja2",
    )


urlpatterns = [
    path("l/<slug:slug>/standings/", standings, name="standings"),
    path("p/<token:token>/", public_standings, name="public_standings"),
    path("p/<token:token>/m/<int:pk>/", public_meeting, name="public_meeting"),
]
