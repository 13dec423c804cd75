"""Statistics and ratings pages, for the league's members.

The figures come from ``leagues.stats.statistics`` and ``leagues.stats.ratings``, shaped here for
the pages (labels, rows, chart data). ``?season=N`` picks a season (none: all time), as on the
standings page."""

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from leagues.cashbox.settlement import open_for
from leagues.models import Player, Season
from leagues.permissions import league_for
from leagues.stats import ratings as rating_reads
from leagues.stats import statistics as stats_reads
from leagues.stats.views.standings import BadSeason, asked_season_number


def chart_by_role(stats: stats_reads.LeagueStatistics) -> dict[str, Any]:
    """Bar chart data: each player's points per game as Re, as Kontra and as soloist."""
    labels = [p.player.name for p in stats.players]

    def series(name):
        return [float(getattr(p, name).per_game or 0) for p in stats.players]

    return {
        "labels": labels,
        "datasets": [
            {"label": _("Re"), "data": series("re")},
            {"label": _("Kontra"), "data": series("kontra")},
            {"label": _("Solo"), "data": series("solo")},
        ],
    }


def chart_evenings(player: stats_reads.PlayerStats) -> dict[str, Any]:
    """Line chart data: a player's total per evening."""
    evenings = player.evenings
    return {
        "labels": [e.date.isoformat() for e in evenings],
        "datasets": [{"label": player.player.name, "data": [e.total for e in evenings]}],
    }


SOLO_LABELS = {
    "trumpf": gettext_lazy("Trump solo"),
    "damen": gettext_lazy("Queen solo"),
    "buben": gettext_lazy("Jack solo"),
    "fleischlos": gettext_lazy("Fleischlos"),
    "stilles": gettext_lazy("Silent wedding"),
    "hochzeit": gettext_lazy("Wedding without partner"),
}
KIND_LABELS = {"hochzeit": gettext_lazy("Wedding (with partner)"), "trumpfabgabe": gettext_lazy("Trumpfabgabe")}
ROUND_LABELS = {
    "bock": gettext_lazy("Bock round"),
    "ramsch": gettext_lazy("Ramsch round"),
    "pflichtsolo": gettext_lazy("Pflichtsolo round"),
    "penalty": gettext_lazy("Penalty solo"),
}
CALL_LABELS = {
    "re": gettext_lazy("Re"),
    "kontra": gettext_lazy("Kontra"),
    "keine_90": gettext_lazy("No 90"),
    "keine_60": gettext_lazy("No 60"),
    "keine_30": gettext_lazy("No 30"),
    "schwarz": gettext_lazy("Schwarz"),
}
SPECIAL_LABELS = {
    "doppelkopf": gettext_lazy("Doppelkopf"),
    "fuchs": gettext_lazy("Fox caught"),
    "karlchen": gettext_lazy("Karlchen"),
}


def doppelkopf_categories(player: stats_reads.PlayerStats) -> list[tuple[Any, stats_reads.Tally]]:
    """A player's (label, tally) by kind of game, those he played, for his page."""
    rows: list[tuple[Any, stats_reads.Tally]] = [
        (gettext_lazy("As Re"), player.re),
        (gettext_lazy("As Kontra"), player.kontra),
        (gettext_lazy("As soloist"), player.solo),
    ]
    rows += [(label, player.solo_types[t]) for t, label in SOLO_LABELS.items() if t in player.solo_types]
    rows.append((gettext_lazy("Against a solo"), player.against_solo))
    rows += [(label, player.kinds[k]) for k, label in KIND_LABELS.items() if k in player.kinds]
    rows += [(label, player.rounds[r]) for r, label in ROUND_LABELS.items() if r in player.rounds]
    return [(label, tally) for label, tally in rows if tally.games]


def call_rows(player: stats_reads.PlayerStats) -> list[tuple[Any, stats_reads.Tally]]:
    """(label, tally of the games whose party's highest call it was), lowest call first."""
    return [(label, player.calls[c]) for c, label in CALL_LABELS.items() if c in player.calls]


def special_rows(player: stats_reads.PlayerStats) -> list[tuple[Any, int, int]]:
    return [
        (label, player.specials_made.get(k, 0), player.specials_conceded.get(k, 0))
        for k, label in SPECIAL_LABELS.items()
        if player.specials_made.get(k) or player.specials_conceded.get(k)
    ]


def _season(request, league):
    """(season or None for all time, the league's seasons) or a 400 response."""
    try:
        number = asked_season_number(request)
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
            "chart": chart_by_role(stats) if stats.doppelkopf and stats.players else None,
        },
    )


def _company(tallies: dict, others: dict) -> list:
    """(player, tally) of the partners or opponents still in the league, the best first."""
    return sorted(
        ((others[pid], t) for pid, t in tallies.items() if pid in others),
        key=lambda pt: (-(pt[1].win_rate or 0), -pt[1].games, pt[0].name.lower()),
    )


def _player_figures(stats: stats_reads.LeagueStatistics, mine: stats_reads.PlayerStats | None) -> dict[str, Any]:
    """A player's own page's figures beyond his line in the league's table."""
    if mine is None:
        return {"partners": [], "opponents": [], "categories": [], "calls": [], "specials": [], "chart": None}
    others = {p.player.id: p.player for p in stats.players}
    doppelkopf = stats.doppelkopf
    return {
        "partners": _company(mine.partners, others),
        "opponents": _company(mine.opponents, others),
        "categories": doppelkopf_categories(mine) if doppelkopf else [],
        "calls": call_rows(mine) if doppelkopf else [],
        "specials": special_rows(mine) if doppelkopf else [],
        "chart": chart_evenings(mine) if mine.evening_rows else None,
    }


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
    return render(
        request,
        "statistics/player.html",
        {
            "league": league,
            "player": player,
            "stats": stats,
            "mine": mine,
            "season": season,
            "seasons": seasons,
            **_player_figures(stats, mine),
            # What the player still owes or is owed of closed evenings (only where money is played for).
            "money_open": open_for(player=player) if league.money_rules else [],
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
