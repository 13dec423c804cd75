"""A league's data out (JSON and CSV, for its members) and in (a JSON export imported as a
new league, by any logged-in user, who becomes its admin). leagues/exchange.py does the work."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from .. import exchange
from ..forms import ImportLeagueForm
from ..permissions import league_for


def _filename(league, extension):
    return f"{league.slug}-{timezone.localdate().isoformat()}.{extension}"


@login_required
@require_GET
def league_export_json(request, slug):
    league, _membership = league_for(user=request.user, slug=slug)
    response = JsonResponse(
        exchange.export_league(league=league), json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    response["Content-Disposition"] = f'attachment; filename="{_filename(league, "json")}"'
    return response


@login_required
@require_GET
def league_export_csv(request, slug):
    league, _membership = league_for(user=request.user, slug=slug)
    response = HttpResponse(exchange.export_csv(league=league), content_type="text/csv; charset=utf-8")
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
                return redirect(league)
    return render(request, "leagues/import.html", {"form": form}, status=status)


urlpatterns = [
    path("leagues/import/", league_import, name="league_import"),
    path("l/<slug:slug>/export.json", league_export_json, name="league_export_json"),
    path("l/<slug:slug>/export.csv", league_export_csv, name="league_export_csv"),
]
