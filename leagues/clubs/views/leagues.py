"""Creating a league and the league page, with what its admins manage there: roles, players,
invites, the public link and the house rules."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from leagues import exceptions, field_labels
from leagues.cashbox.forms import MoneyRulesForm
from leagues.clubs import selectors, services
from leagues.clubs.forms import InviteForm, LeagueForm, PlayerForm, PresetForm, PublicLinkForm, RoleForm, TablesForm
from leagues.fields import game_label, preset_label
from leagues.models import Invite, Membership, Role
from leagues.permissions import league_for


def add_errors(form, error, *, game=None):
    """Put a service's InvalidInput messages on the form's fields (or above the form); the
    engine's problems about ``game``'s rules in the words of its rules form."""
    errors = field_labels.page_errors(error.errors, game=game) if game else error.errors
    for item in errors:
        form.add_error(item["field"] if item["field"] in form.fields else None, item["message"])


# --- create -----------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def league_create(request):
    data = request.POST if request.method == "POST" else None
    # ?game=thousand preselects a game (links from elsewhere, and reloads without htmx).
    form = LeagueForm(data, initial={k: v for k, v in request.GET.items() if k in ("game", "variant")})
    rules_form = form.rules_form(data)
    if request.method == "POST":
        # Validate both, so every mistake shows at once.
        valid = form.is_valid() & (rules_form is not None and rules_form.is_valid())
        league = _create_league(request, form, rules_form) if valid else None
        if league is not None:
            messages.success(request, _("Your league is ready. Invite the others from here."))
            return redirect(league)
    context = {"form": form, "preset_form": form, "rules_form": rules_form}
    return render(request, "leagues/create.html", context, status=400 if request.method == "POST" else 200)


def _create_league(request, form, rules_form):
    """The new league from the valid forms; None with the service's objections on the forms."""
    try:
        return services.create_league(
            name=form.cleaned_data["name"],
            slug=form.cleaned_data["slug"],
            game=form.cleaned_data["game"],
            variant=form.cleaned_data["variant"],
            rule_overrides=rules_form.overrides(),
            user=request.user,
        )
    except exceptions.InvalidInput as error:
        target = rules_form if any(e["field"] == "rules" for e in error.errors) else form
        add_errors(target, error, game=form.cleaned_data["game"])
    except IntegrityError:  # the short name was taken a moment ago
        form.add_error("slug", _("Another league already uses this short name."))
    return None


@login_required
@require_GET
def league_options_hx(request):
    """The rule set choice and the options of a game and preset, when either changes."""
    game = request.GET.get("fixed_game")
    form = PresetForm(initial=request.GET.dict(), game=game)
    return render(
        request, "leagues/create.html#rules", {"preset_form": form, "rules_form": form.rules_form(), "fixed": game}
    )


# --- the league page --------------------------------------------------------------------------


def render_league(request, league, membership, *, status=200, **forms):
    """The league page; the admin forms come bound (with their errors) after a failed post."""
    is_admin = membership.allows(Role.ADMIN)
    context = {
        "league": league,
        "membership": membership,
        "is_admin": is_admin,
        "game_label": game_label(league.game),
        "variant_label": preset_label(league.game, league.variant),
        "can_score": membership.allows(Role.SCOREKEEPER),
        "start_url": reverse("meeting_start", kwargs={"slug": league.slug}),
        "standings_url": reverse("standings", kwargs={"slug": league.slug}),
        **selectors.league_overview(league=league, admin=is_admin),
    }
    if is_admin:
        preset_form = forms.get("preset_form") or PresetForm(initial={"variant": league.variant}, game=league.game)
        rules_form = forms.get("rules_form")
        if rules_form is None and preset_form.spec is not None:
            rules = services.resolved_rules(game=league.game, variant=league.variant, overrides=league.rule_overrides)
            rules_form = preset_form.rules_form(rules=rules)
        money_form = forms.get("money_form") or MoneyRulesForm(rules=league.money_rules, game=league.game)
        tables_form = forms.get("tables_form") or TablesForm(league=league)
        invite_form = forms.get("invite_form") or InviteForm(league=league)
        _offer_players(invite_form, context["players"])
        context.update(
            role_form=RoleForm(),
            role_errors=forms.get("role_errors", {}),
            player_form=forms.get("player_form") or PlayerForm(league=league),
            invite_form=invite_form,
            preset_form=preset_form,
            rules_form=rules_form,
            money_form=money_form,
            tables_form=tables_form,
            fixed=league.game,
            public_url=_public_url(request, league),
            new_invite=forms.get("new_invite"),
            roles=Role.choices,
        )
    return render(request, "leagues/league.html", context, status=status)


def _offer_players(invite_form, players):
    """The invite form's players (those without an account, by name, as its queryset has
    them) taken from the players the page read already. A ModelChoiceField renders its
    queryset through ``.iterator()``, which on PostgreSQL is a server-side cursor (DECLARE
    ... WITH HOLD, FETCH, CLOSE: round trips of their own) reading those rows a second time.
    The posted form still checks its choice against the queryset."""
    field = invite_form.fields["player"]
    field.choices = [("", field.empty_label), *((p["id"], p["name"]) for p in players if p["user_id"] is None)]


def _public_url(request, league):
    if not league.public_token:
        return None
    return request.build_absolute_uri(reverse("public_standings", kwargs={"token": league.public_token}))


@login_required
@require_GET
def league(request, slug):
    league, membership = league_for(user=request.user, slug=slug)
    return render_league(request, league, membership)


# --- admin actions (each POSTs, then returns to the league page) ------------------------------


def _admin(request, slug):
    return league_for(user=request.user, slug=slug, role=Role.ADMIN)


@login_required
@require_POST
def member_role(request, slug, pk):
    league, membership = _admin(request, slug)
    target = get_object_or_404(Membership.objects.select_related("user"), league=league, pk=pk)
    form = RoleForm(request.POST)
    if form.is_valid():
        try:
            services.change_role(membership=target, role=form.cleaned_data["role"])
        except exceptions.InvalidInput as error:
            form.add_error("role", error.errors[0]["message"])
        else:
            messages.success(
                request, _("%(user)s is now %(role)s.") % {"user": target.user, "role": target.get_role_display()}
            )
            return redirect(league)
    return render_league(request, league, membership, status=400, role_errors={target.pk: form.errors.get("role")})


@login_required
@require_POST
def member_remove(request, slug, pk):
    """Take a member out of the league; his player and hands stay (services.remove_member)."""
    league, membership = _admin(request, slug)
    target = get_object_or_404(Membership.objects.select_related("user"), league=league, pk=pk)
    name = league.players.filter(user_id=target.user_id).values_list("name", flat=True).first()
    name = name or target.user.get_username()
    try:
        services.remove_member(membership=target, by=request.user)
    except exceptions.InvalidInput as error:
        return render_league(
            request, league, membership, status=400, role_errors={target.pk: [e["message"] for e in error.errors]}
        )
    if target.user_id == request.user.pk:
        messages.success(request, _("You have left %(league)s.") % {"league": league.name})
        return redirect("home")
    messages.success(request, _("%(name)s is no longer a member. Their player and every hand stay.") % {"name": name})
    return redirect(league)


@login_required
@require_POST
def player_add(request, slug):
    league, membership = _admin(request, slug)
    form = PlayerForm(request.POST, league=league)
    if form.is_valid():
        try:
            player = services.add_player(league=league, name=form.cleaned_data["name"])
        except exceptions.InvalidInput as error:
            add_errors(form, error)
        else:
            messages.success(request, _("%(name)s plays in the league now.") % {"name": player.name})
            return redirect(league)
    return render_league(request, league, membership, status=400, player_form=form)


@login_required
@require_POST
def invite_create(request, slug):
    league, membership = _admin(request, slug)
    form = InviteForm(request.POST, league=league)
    if form.is_valid():
        try:
            invite = services.create_invite(
                league=league, role=form.cleaned_data["role"], player=form.cleaned_data["player"], user=request.user
            )
        except exceptions.InvalidInput as error:
            add_errors(form, error)
        else:
            # Shown once right here, ready to copy; it also stays in the list of open invites.
            return render_league(request, league, membership, new_invite=invite)
    return render_league(request, league, membership, status=400, invite_form=form)


@login_required
@require_POST
def invite_revoke(request, slug, pk):
    league, membership = _admin(request, slug)
    invite = get_object_or_404(Invite, league=league, pk=pk)
    services.revoke_invite(invite=invite)
    messages.success(request, _("The invite link no longer works."))
    return redirect(league)


@login_required
@require_POST
def public_link(request, slug):
    league, membership = _admin(request, slug)
    form = PublicLinkForm(request.POST)
    if not form.is_valid():
        for message in form.errors["action"]:
            messages.error(request, message)
        return render_league(request, league, membership, status=400)
    services.set_public_link(league=league, enabled=form.enabled)
    if form.enabled:
        messages.success(request, _("Anyone with the public link can now read the standings."))
    else:
        messages.success(request, _("The public link no longer works."))
    return redirect(league)


@login_required
@require_POST
def rules_edit(request, slug):
    league, membership = _admin(request, slug)
    data = request.POST.copy()
    data["game"] = league.game  # the game of a league never changes
    preset_form = PresetForm(data, game=league.game)
    rules_form = preset_form.rules_form(data)
    # A post without the money or the tables' section (an older page, a script) keeps them.
    posted_money = any(key.startswith("money-") for key in data)
    money_form = MoneyRulesForm(data, rules=league.money_rules, game=league.game) if posted_money else None
    tables_form = TablesForm(data, league=league) if any(key.startswith("night-") for key in data) else None
    valid = preset_form.is_valid() & (rules_form is not None and rules_form.is_valid())
    valid = valid & (money_form is None or money_form.is_valid()) & (tables_form is None or tables_form.is_valid())
    if valid:
        try:
            services.change_rules(
                league=league,
                variant=preset_form.cleaned_data["variant"],
                rule_overrides=rules_form.overrides(),
                money_rules=money_form.overrides() if money_form else None,
                combine_tables=tables_form.cleaned_data["combine_tables"] if tables_form else None,
            )
        except exceptions.InvalidInput as error:
            target = rules_form if any(e["field"] == "rules" for e in error.errors) else preset_form
            add_errors(target, error, game=league.game)
        else:
            messages.success(request, _("House rules saved. They apply from the next meeting on."))
            return redirect(league)
    return render_league(
        request,
        league,
        membership,
        status=400,
        preset_form=preset_form,
        rules_form=rules_form,
        money_form=money_form,
        tables_form=tables_form,
    )


urlpatterns = [
    path("leagues/new/", league_create, name="league_create"),
    path("leagues/options/_hx/", league_options_hx, name="league_options_hx"),
    path("l/<slug:slug>/", league, name="league"),
    path("l/<slug:slug>/members/<int:pk>/role/", member_role, name="member_role"),
    path("l/<slug:slug>/members/<int:pk>/remove/", member_remove, name="member_remove"),
    path("l/<slug:slug>/players/add/", player_add, name="player_add"),
    path("l/<slug:slug>/invites/new/", invite_create, name="invite_create"),
    path("l/<slug:slug>/invites/<int:pk>/revoke/", invite_revoke, name="invite_revoke"),
    path("l/<slug:slug>/public-link/", public_link, name="public_link"),
    path("l/<slug:slug>/rules/", rules_edit, name="rules_edit"),
]
