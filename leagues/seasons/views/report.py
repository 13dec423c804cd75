"""The printable season report: one page per season, made to be printed on A4 or
saved as PDF by the browser (static/css/report.css holds its print rules).

Members read it at /l/<slug>/seasons/<n>/report/; anyone holding the league's public link at
/p/<token>/seasons/<n>/report/, like the public standings. The public report leaves the bill
and the money out: who paid what is the members' business, as the bill page is.
"""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_GET

from leagues.models import Season
from leagues.permissions import league_for, public_league
from leagues.seasons import selectors
from leagues.seasons.report import season_report
from leagues.seasons.report_money import season_money
from leagues.seasons.views.bill import stored_bill


def _report(request, league, number, *, public_token=None):
    try:
        report = season_report(league=league, number=number)
    except Season.DoesNotExist:
        raise Http404 from None
    stored = money = None
    if public_token is None:
        # The money is the members' business, like the bill: never on the public link.
        order = [row.player.name for row in report.standings.table]
        money = season_money(season=report.standings.season, league=league, standings_order=order, bill=report.bill)
    if report.bill is not None and public_token is None:
        table = report.standings.table
        scores = selectors.bill_scores(table=table, race=report.standings.race)
        # The bill page's own reading of a stored bill: the same rows, transfers and words.
        stored = stored_bill(report.bill, scores)
    return render(
        request,
        "report/report.html",
        {
            "league": league,
            "r": report,
            "s": report.standings,
            "stored": stored,
            "money": money,
            "public_token": public_token,
        },
    )


@require_GET
@login_required
def season_report_page(request, slug, number):
    league, _membership = league_for(user=request.user, slug=slug)
    return _report(request, league, number)


@require_GET
def public_season_report(request, token, number):
    league = public_league(token=token)
    return _report(request, league, number, public_token=token)


urlpatterns = [
    path("l/<slug:slug>/seasons/<int:number>/report/", season_report_page, name="season_report"),
    path("p/<token:token>/seasons/<int:number>/report/", public_season_report, name="public_season_report"),
]
