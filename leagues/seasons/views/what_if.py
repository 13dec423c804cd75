"""What if (issue "house rules"): a season recomputed, read-only, under another preset or with
options changed, its standings and its bill beside the real ones. Nothing stored changes: the
page is a GET whose query string holds the rules asked about (so it can be shared)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, QueryDict
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from leagues import exceptions, games
from leagues.clubs.forms import PresetForm
from leagues.clubs.views.leagues import add_errors
from leagues.models import Season
from leagues.permissions import league_for
from leagues.seasons import selectors, services, what_if
from scoring.errors import ScoringError


def _bills(stored, result, *, race):
    """The stored bill's inputs split by both tables: {name: (as played, what if)}, or a
    message when it cannot be split by one of them."""
    request = services.stored_bill_request(stored)
    shares = []
    try:
        for table in (result.played, result.what_if):
            scores = selectors.bill_scores(table=table, race=race)
            shares.append(services.split_season_bill(request={**request, "scores": scores})["shares"])
    except ScoringError as error:
        return None, " ".join(p.render(translate=gettext) for p in error.problems)
    played, other = shares
    return [(name, played.get(name), other.get(name)) for name in other], ""


def _with_defaults(data, preset_form, rules):
    """``data`` over the values of the rules form of ``rules`` (as a form would post them)."""
    defaults = QueryDict(mutable=True)
    rules_form = preset_form.rules_form(rules=rules)
    for form in (preset_form, rules_form) if rules_form is not None else (preset_form,):
        for bound in form:
            value = bound.value()
            if isinstance(value, bool):
                if value:
                    defaults[bound.html_name] = "on"
            elif isinstance(value, list | tuple):
                defaults.setlist(bound.html_name, [str(v) for v in value])
            elif value is not None:
                defaults[bound.html_name] = str(value)
    for key in data:
        defaults.setlist(key, data.getlist(key))
    return defaults


@login_required
@require_GET
def season_what_if(request, slug, number):
    league, _membership = league_for(user=request.user, slug=slug)
    season = get_object_or_404(Season, league=league, number=number)
    season.league = league  # read with the membership: the what-if asks for it
    last = season.meetings.order_by("-date", "-id").first()
    if last is None:
        raise Http404  # a season without an evening: nothing to recompute
    asked = "variant" in request.GET
    if asked:
        data = request.GET.copy()
        if "complete" not in data:
            # A link naming only what it changes ("?variant=club&rule-announcement_points=1"):
            # every other option as the season's last evening had it. The page's own form
            # sends every option (and "complete"), an unticked box included.
            data = _with_defaults(data, PresetForm(initial={"variant": last.variant}, game=league.game), last.rules)
        data["game"] = league.game  # the game of a league never changes
        preset_form = PresetForm(data, game=league.game)
        rules_form = preset_form.rules_form(data)
    else:
        # Start from the rules the season's last evening was played under.
        preset_form = PresetForm(initial={"variant": last.variant}, game=league.game)
        rules_form = preset_form.rules_form(rules=last.rules)
    race = games.is_race_game(league.game)
    context = {"league": league, "season": season, "preset_form": preset_form, "rules_form": rules_form, "race": race}
    status = 200
    if asked:
        status = 400
        if preset_form.is_valid() & (rules_form is not None and rules_form.is_valid()):
            try:
                result = what_if.season_what_if(
                    season=season, variant=preset_form.cleaned_data["variant"], overrides=rules_form.overrides()
                )
            except exceptions.InvalidInput as error:
                add_errors(rules_form, error)
            else:
                status = 200
                context["result"] = result
                stored = season.bills.current().first()
                if stored is not None:
                    context["bill"], context["bill_problem"] = _bills(stored, result, race=race)
                    context["stored"] = stored
    return render(request, "seasons/what_if.html", context, status=status)


urlpatterns = [
    path("l/<slug:slug>/seasons/<int:number>/what-if/", season_what_if, name="season_what_if"),
]
