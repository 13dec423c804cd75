"""A league's tournaments: the list, a new one, a tournament's page with its ranking and
rounds, and the scorekeeper's acts on it (who plays, the pairs or teams, drawing the next
round). Every member reads; scorekeepers and admins write. A form with a problem is shown
again on the page with a 400 and its message at its field."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from leagues.exceptions import InvalidInput
from leagues.models import Role
from leagues.permissions import league_for
from leagues.seasons import selectors as seasons_selectors
from leagues.tournaments import selectors, services
from leagues.tournaments.forms import DrawForm, PartyForm, PlayersForm, TournamentForm
from leagues.tournaments.page import tournament_view


def put_errors(form, error: InvalidInput) -> None:
    """The service's problems on the form's fields (on the form when it has no such field)."""
    for problem in error.errors:
        field = problem["field"] if problem["field"] in form.fields else None
        form.add_error(field, problem["message"])


def tournament_for(request, slug, pk, *, role=Role.MEMBER):
    """The tournament ``pk`` of league ``slug`` and the member's membership; the league's role
    is checked first (a member without it gets 403 for a tournament that does not exist too)."""
    league, membership = league_for(user=request.user, slug=slug, role=role)
    tournament = selectors.tournament_of(league=league, pk=pk)
    if tournament is None:
        raise Http404
    return tournament, membership


@login_required
@require_GET
def tournament_list(request, slug):
    league, membership = league_for(user=request.user, slug=slug)
    context = {
        "league": league,
        "tournaments": selectors.tournaments(league=league),
        "can_score": membership.allows(Role.SCOREKEEPER),
    }
    return render(request, "tournaments/list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request, slug):
    league, _membership = league_for(user=request.user, slug=slug, role=Role.SCOREKEEPER)
    if request.method == "GET":
        form = TournamentForm(league=league)
        return render(request, "tournaments/new.html", {"league": league, "form": form})
    form = TournamentForm(request.POST, league=league)
    if form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.create_tournament(league=league, user=request.user, **data)
        except InvalidInput as error:
            put_errors(form, error)
        else:
            messages.success(request, _("The tournament is set up. Now register who plays."))
            return redirect(tournament.get_absolute_url())
    return render(request, "tournaments/new.html", {"league": league, "form": form}, status=400)


def render_page(request, tournament, membership, *, status=200, **forms):
    """The tournament's page with the forms the member may use (those given: as posted)."""
    league = tournament.league
    entrants = selectors.entrants(tournament=tournament)
    context = {
        "league": league,
        "tournament": tournament,
        "can_score": membership.allows(Role.SCOREKEEPER),
        **tournament_view(tournament, entrants=entrants),
    }
    if context["can_score"]:
        chosen = [entry.player_id for entry in entrants]
        context["players_form"] = forms.get("players_form") or PlayersForm(league=league, initial={"players": chosen})
        context["party_form"] = forms.get("party_form") or PartyForm(league=league)
        if context["may_draw"] or "draw_form" in forms:
            host = seasons_selectors.suggested_host(league=league)
            context["draw_form"] = forms.get("draw_form") or DrawForm(
                league=league, initial={"host": host.pk if host else None}
            )
    return render(request, "tournaments/tournament.html", context, status=status)


@login_required
@require_GET
def tournament_page(request, slug, pk):
    tournament, membership = tournament_for(request, slug, pk)
    return render_page(request, tournament, membership)


@login_required
@require_POST
def tournament_players(request, slug, pk):
    """Who plays (single players): the chosen players become the entrants."""
    tournament, membership = tournament_for(request, slug, pk, role=Role.SCOREKEEPER)
    form = PlayersForm(request.POST, league=tournament.league)
    if form.is_valid():
        try:
            services.register_players(tournament=tournament, players=list(form.cleaned_data["players"]))
        except InvalidInput as error:
            put_errors(form, error)
        else:
            messages.success(request, _("The players are registered."))
            return redirect(tournament.get_absolute_url() + "#entrants")
    return render_page(request, tournament, membership, status=400, players_form=form)


@login_required
@require_POST
def tournament_party_add(request, slug, pk):
    tournament, membership = tournament_for(request, slug, pk, role=Role.SCOREKEEPER)
    form = PartyForm(request.POST, league=tournament.league)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.add_party(tournament=tournament, name=data["name"], players=list(data["players"]))
        except InvalidInput as error:
            put_errors(form, error)
        else:
            messages.success(request, _("The pair or team is registered."))
            return redirect(tournament.get_absolute_url() + "#entrants")
    return render_page(request, tournament, membership, status=400, party_form=form)


@login_required
@require_POST
def tournament_party_remove(request, slug, pk, party):
    tournament, _membership = tournament_for(request, slug, pk, role=Role.SCOREKEEPER)
    if not tournament.parties.filter(pk=party).exists():
        raise Http404
    services.remove_party(tournament=tournament, party_id=party)
    messages.success(request, _("The pair or team is taken off."))
    return redirect(tournament.get_absolute_url() + "#entrants")


@login_required
@require_POST
def tournament_draw(request, slug, pk):
    """Draw the next round: its tables open as a club night, each at its own sheet."""
    tournament, membership = tournament_for(request, slug, pk, role=Role.SCOREKEEPER)
    form = DrawForm(request.POST, league=tournament.league)
    if form.is_valid():
        data = form.cleaned_data
        try:
            night = services.draw_round(tournament=tournament, date=data["date"], host=data["host"], user=request.user)
        except InvalidInput as error:
            put_errors(form, error)
        else:
            messages.success(request, _("Round %(number)s is drawn. Good game!") % {"number": night.round_number})
            return redirect(tournament.get_absolute_url() + "#current")
    return render_page(request, tournament, membership, status=400, draw_form=form)


urlpatterns = [
    path("l/<slug:slug>/t/", tournament_list, name="tournaments"),
    path("l/<slug:slug>/t/new/", tournament_new, name="tournament_new"),
    path("l/<slug:slug>/t/<int:pk>/", tournament_page, name="tournament"),
    path("l/<slug:slug>/t/<int:pk>/players/", tournament_players, name="tournament_players"),
    path("l/<slug:slug>/t/<int:pk>/parties/", tournament_party_add, name="tournament_party_add"),
    path(
        "l/<slug:slug>/t/<int:pk>/parties/<int:party>/remove/",
        tournament_party_remove,
        name="tournament_party_remove",
    ),
    path("l/<slug:slug>/t/<int:pk>/draw/", tournament_draw, name="tournament_draw"),
]
