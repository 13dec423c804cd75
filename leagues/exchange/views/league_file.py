"""A league's data out (JSON and CSV, for its members) and in (a JSON export imported as a
new league, by any logged-in user, who becomes its admin and then says whom he plays as).
leagues/exchange/league_file.py does the work. The exports are streamed: a big league's is written as it
is read, in the memory of a few evenings."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from leagues import exceptions
from leagues.clubs import services
from leagues.exchange import league_file as exchange
from leagues.exchange.forms import ImportLeagueForm, PlaysAsForm
from leagues.models import Role
from leagues.permissions import league_for


def _filename(league, extension):
    return f"{league.slug}-{timezone.localdate().isoformat()}.{extension}"


@login_required
@require_GET
def league_export_json(request, slug):
    league, _membership = league_for(user=request.user, slug=slug)
    response = StreamingHttpResponse(exchange.export_json(league=league), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{_filename(league, "json")}"'
    return response


@login_required
@require_GET
def league_export_csv(request, slug):
    league, _membership = league_for(user=request.user, slug=slug)
    response = StreamingHttpResponse(exchange.export_csv(league=league), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(league, "csv")}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def league_import(request):
    form = ImportLeagueForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                league = exchange.import_league(
                    data=data["file"], user=request.user, name=data["name"], slug=data["slug"]
                )
            except exchange.ImportProblem as error:
                for problem in error.errors:
                    form.add_error("file", problem["message"])
            else:
                messages.success(request, _("The league is imported: every evening was replayed."))
                # Its players came from the file, none of them his: he says whom he plays as.
                return redirect(reverse("league_plays_as", kwargs={"slug": league.slug}))
    return render(request, "leagues/import.html", {"form": form}, status=status)


def _preselected(user, players):
    """The player named as the user is (his display name or login name), if one is."""
    names = {n.casefold() for n in (user.get_short_name(), user.get_username()) if n}
    return next((str(p.pk) for p in players if p.name.casefold() in names), None)


@login_required
@require_http_methods(["GET", "POST"])
def league_plays_as(request, slug):
    """An admin without a player of his own (the importer of a league) says whom he plays as:
    his account is linked to that player, so that the pages name him by it."""
    league, _membership = league_for(user=request.user, slug=slug, role=Role.ADMIN)
    own = league.players.filter(user=request.user).first()
    # His own player too, once chosen: the same choice sent again is answered as the first.
    players = [p for p in league.players.order_by("name") if p.user_id is None or p == own]
    form = PlaysAsForm(request.POST or None, players=players, initial={"player": _preselected(request.user, players)})
    context = {"league": league, "form": form, "own": own}
    if request.method != "POST":
        return render(request, "leagues/plays_as.html", context)
    if form.is_valid() and _link_own_player(request, league, form):
        return redirect(league)
    return render(request, "leagues/plays_as.html", context, status=400)


def _link_own_player(request, league, form) -> bool:
    """Whether the account is linked to the chosen player; the service's objections go on the form."""
    try:
        player = services.link_own_player(league=league, user=request.user, player_id=form.player_id())
    except exceptions.InvalidInput as error:
        for problem in error.errors:
            form.add_error("player", problem["message"])
        return False
    if player is not None:
        messages.success(request, _("You play as %(name)s.") % {"name": player.name})
    return True


urlpatterns = [
    path("leagues/import/", league_import, name="league_import"),
    path("l/<slug:slug>/plays-as/", league_plays_as, name="league_plays_as"),
    path("l/<slug:slug>/export.json", league_export_json, name="league_export_json"),
    path("l/<slug:slug>/export.csv", league_export_csv, name="league_export_csv"),
]
