"""The league's rule book ("House rules" / "Regeln"): every rule in force in plain words, with
its value, what the league changed from its preset, and worked examples the engine computes
under these rules (leagues/clubs/rulebook.py reads the texts from docs/rules/).

Three doors, each with the access of the page it hangs off: members read their league's rules
(/l/<slug>/house-rules/) and the rules a meeting was played under (/l/<slug>/m/<pk>/house-rules/, which may
be older than the league's); anyone holding the public link reads /p/<token>/house-rules/.
"""

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.views.decorators.http import require_GET

from leagues.cashbox.rules import rule_book_lines
from leagues.clubs import services
from leagues.clubs.rulebook import rule_book
from leagues.fields import game_label, installed_game, preset_label
from leagues.models import Combine, Meeting
from leagues.permissions import league_for, public_league


def _render(
    request,
    *,
    league,
    game,
    variant,
    overrides,
    money=None,
    combine=None,
    meeting=None,
    public_token=None,
    back_url=None,
):
    spec = installed_game(game)
    rules = services.resolved_rules(game=game, variant=variant, overrides=overrides)
    book = rule_book(game=game, spec=spec, variant=variant, rules=rules)
    return render(
        request,
        "rules/rules.html",
        {
            "league": league,
            "meeting": meeting,
            "public_token": public_token,
            "back_url": back_url,
            "game_label": game_label(game, spec),
            "variant_label": preset_label(game, variant),
            "book": book,
            "money": rule_book_lines(money),
            # How an evening at several tables is combined: the league's, or a club night's own.
            "combine": combine,
            "combine_label": Combine(combine).label if combine else "",
        },
    )


@require_GET
@login_required
def league_rules(request, slug):
    league, _membership = league_for(user=request.user, slug=slug)
    return _render(
        request,
        league=league,
        game=league.game,
        variant=league.variant,
        overrides=league.rule_overrides,
        money=league.money_rules,
        combine=league.combine_tables,
        back_url=reverse("league", kwargs={"slug": league.slug}),
    )


@require_GET
@login_required
def meeting_rules(request, slug, pk):
    """The rules the meeting was played under (copied when it started)."""
    league, _membership = league_for(user=request.user, slug=slug)
    meeting = get_object_or_404(Meeting.objects.select_related("club_night"), pk=pk, league=league)
    return _render(
        request,
        league=league,
        game=meeting.game,
        variant=meeting.variant,
        overrides=meeting.rules,
        money=meeting.money_rules,
        combine=meeting.club_night.combine if meeting.club_night_id else None,
        meeting=meeting,
        back_url=meeting.get_absolute_url(),
    )


@require_GET
def public_rules(request, token):
    league = public_league(token=token)
    return _render(
        request,
        league=league,
        game=league.game,
        variant=league.variant,
        overrides=league.rule_overrides,
        money=league.money_rules,
        combine=league.combine_tables,
        public_token=token,
        back_url=reverse("public_standings", kwargs={"token": token}),
    )


urlpatterns = [
    path("l/<slug:slug>/house-rules/", league_rules, name="league_rules"),
    path("l/<slug:slug>/m/<int:pk>/house-rules/", meeting_rules, name="meeting_rules"),
    path("p/<token:token>/house-rules/", public_rules, name="public_rules"),
]
