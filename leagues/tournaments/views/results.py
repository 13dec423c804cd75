"""A tournament's result list, to read and to print on A4 (report.css holds the print rules):
the ranking with every round's score, then each round's tables. Every member reads it."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_GET

from leagues.tournaments.page import tournament_view
from leagues.tournaments.views.tournaments import tournament_for


@login_required
@require_GET
def tournament_results(request, slug, pk):
    tournament, _membership = tournament_for(request, slug, pk)
    context = {"league": tournament.league, "tournament": tournament, **tournament_view(tournament)}
    return render(request, "tournaments/results.html", context)


urlpatterns = [
    path("l/<slug:slug>/t/<int:pk>/results/", tournament_results, name="tournament_results"),
]
