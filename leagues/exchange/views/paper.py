"""Import of a paper season (a league admin): preview, then confirm. leagues/exchange/paper_import.py
does the work; the preview is the whole import rolled back."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from leagues.exchange import paper_import, paper_reading
from leagues.exchange.forms import PaperImportForm
from leagues.models import Role
from leagues.permissions import league_for

# The documented limits, for the page's description of the file.
LIMITS = {
    "rows": paper_reading.MAX_ROWS,
    "players": paper_reading.MAX_PLAYERS,
    "cell": paper_reading.MAX_CELL,
    "hands": paper_reading.MAX_HANDS_PER_EVENING,
    "depth": paper_reading.MAX_JSON_DEPTH,
}


@login_required
@require_http_methods(["GET", "POST"])
def import_paper(request, slug):
    league, membership = league_for(user=request.user, slug=slug, role=Role.ADMIN)
    form = PaperImportForm(request.POST or None, request.FILES or None)
    context = {"league": league, "form": form, "columns": paper_reading.HANDS_COLUMNS, "limits": LIMITS}
    if request.method != "POST":
        return render(request, "paper/import.html", context)
    if not form.is_valid():
        return render(request, "paper/import.html", context, status=400)
    data = form.cleaned_data
    commit = bool(data["confirm"])
    try:
        outcome = paper_import.run(
            league=league, kind=data["kind"], text=data["text"], user=request.user, commit=commit
        )
    except paper_import.PaperImportProblem as problem:
        context["problems"] = problem.errors
        return render(request, "paper/import.html", context, status=400)
    if commit:
        count = len(outcome.evenings)
        messages.success(
            request, ngettext("%(count)s evening imported.", "%(count)s evenings imported.", count) % {"count": count}
        )
        return redirect(league)
    confirm = PaperImportForm(initial={"kind": data["kind"], "text": data["text"], "confirm": True})
    context.update(outcome=outcome, confirm_form=confirm, kind=data["kind"])
    return render(request, "paper/import.html", context)


urlpatterns = [
    path("l/<slug:slug>/import-paper/", import_paper, name="paper_import"),
]
