"""Closing and reopening a season (league.md, "End of a season"; services, "the end of a
season"). Both are an admin's: a closed season's hands, standings and bill do not change."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from leagues import exceptions
from leagues.models import Role, Season
from leagues.permissions import league_for
from leagues.seasons import services
from leagues.seasons.forms import ReopenSeasonForm


def _season(request, slug, number):
    league, _membership = league_for(user=request.user, slug=slug, role=Role.ADMIN)
    return get_object_or_404(Season.objects.select_related("league"), league=league, number=number)


def _bill_url(season):
    return reverse("season_bill", kwargs={"slug": season.league.slug, "number": season.number})


@login_required
@require_http_methods(["GET", "POST"])
def season_reopen(request, slug, number):
    """An admin reopens a closed season, saying why; the page warns that the bill will change."""
    season = _season(request, slug, number)
    form = ReopenSeasonForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                services.reopen_season(season=season, user=request.user, reason=form.cleaned_data["reason"])
            except exceptions.InvalidInput as error:
                for problem in error.errors:
                    form.add_error("reason" if problem["field"] == "reason" else None, problem["message"])
            else:
                messages.success(request, _("The season is open again: reopen the evening you want to correct."))
                return redirect(_bill_url(season))
    context = {
        "season": season,
        "league": season.league,
        "form": form,
        "stored": season.bills.current().first(),
    }
    return render(request, "seasons/reopen.html", context, status=status)


@login_required
@require_POST
def season_close(request, slug, number):
    """An admin closes a complete season now (its open evenings too)."""
    season = _season(request, slug, number)
    try:
        services.close_season(season=season, user=request.user)
    except exceptions.InvalidInput as error:
        messages.error(request, error.errors[0]["message"])
        return redirect(_bill_url(season))
    messages.success(request, _("The season is closed."))
    return redirect(_bill_url(season))


urlpatterns = [
    path("l/<slug:slug>/seasons/<int:number>/reopen/", season_reopen, name="season_reopen"),
    path("l/<slug:slug>/seasons/<int:number>/close/", season_close, name="season_close"),
]
