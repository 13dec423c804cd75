"""Statistics and ratings pages (issue 14 §1, §2), for the league's members.

Thin: the figures come from ``leagues.statistics`` and ``leagues.ratings``; ``?season=N`` picks
a season (none: all time), as on the standings page."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from leagues.models import Player, Season
from leagues.permissions import league_for
from leagues.stats import ratings as rating_reads
from leagues.stats import statistics as stats_reads
from leagues.stats.views.standings import BadSeason, _season_number


def _season(request, league):
    """(season or None for all time, the league's seasons) or a 400 response."""
    try:
        number = _season_number(request)
    except BadSeason as error:
        message = _("“%(value)s” is not a season number.") % {"value": error.args[0]}
        return None, None, render(request, "400.html", {"message": message}, status=400)
    seasons = list(Season.objects.filter(league=league).order_by("number"))
    if number is None:
        return None, seasons, None
    season = next((s for s in seasons if s.number == number), None)
    if season is None:
        raise Http404
    return season, seasons, None


@require_GET
@login_required
def league_statistics(request, slug):
    league, _membership = league_for(user=request.user, slug=slug)
    season, seasons, bad = _season(request, league)
    if bad:
        return bad
    stats = stats_reads.league_statistics(league=league, season=season)
    return render(
        request,
        "statistics/league.html",
        {
            "league": league,
            "stats": stats,
            "season": season,
            "seasons": seasons,
            "chart": stats_reads.chart_by_role(stats) if stats.doppelkopf and stats.players else None,
        },
    )


@require_GET
@login_required
def player_statistics(request, slug, pk):
    league, _membership = league_for(user=request.user, slug=slug)
    player = get_object_or_404(Player, league=league, pk=pk)
    season, seasons, bad = _season(request, league)
    if bad:
        return bad
    stats = stats_reads.league_statistics(league=league, season=season)
    mine = stats.of(player.id)
    others = {p.player.id: p.player for p in stats.players}
    partners = opponents = []
    if mine is not None:
        partners = sorted(
            ((others[pid], t) for pid, t in mine.partners.items() if pid in others),
            key=lambda pt: (-(pt[1].win_rate or 0), -pt[1].games, pt[0].name.lower()),
        )
        opponents = sorted(
            ((others[pid], t) for pid, t in mine.opponents.items() if pid in others),
            key=lambda pt: (-(pt[1].win_rate or 0), -pt[1].games, pt[0].name.lower()),
        )
    return render(
        request,
        "statistics/player.html",
        {
            "league": league,
            "player": player,
            "stats": stats,
            "mine": mine,
            "partners": partners,
            "opponents": opponents,
            "season": season,
            "seasons": seasons,
            "categories": stats_reads.doppelkopf_categories(mine) if mine and stats.doppelkopf else [],
            "calls": stats_reads.call_rows(mine) if mine and stats.doppelkopf else [],
            "specials": stats_reads.special_rows(mine) if mine and stats.doppelkopf else [],
            "chart": stats_reads.chart_evenings(mine) if mine and mine.evenings else None,
        },
    )


@require_GET
@login_required
def league_ratings(request, slug):
    league, _membership = league_for(user=request.user, slug=slug)
    ratings = rating_reads.league_ratings(league=league)
    return render(
        request,
        "statistics/ratings.html",
        {"league": league, "ratings": ratings, "chart": ratings.chart if ratings.rows else None},
    )


urlpatterns = [
    path("l/<slug:slug>/statistics/", league_statistics, name="league_statistics"),
    path("l/<slug:slug>/statistics/player/<int:pk>/", player_statistics, name="player_statistics"),
    path("l/<slug:slug>/ratings/", league_ratings, name="league_ratings"),
]
