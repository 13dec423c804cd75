"""Writes of a league of its own: its rules, members, players, invites and settings."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.clubs import names
from leagues.exceptions import InvalidInput, InviteUnusable, field_error, problems_as_errors
from leagues.locks import lock_league
from leagues.models import (
    ROLE_RANK,
    Combine,
    Invite,
    League,
    Membership,
    Player,
    Role,
    new_token,
)
from scoring.errors import Problems, ScoringError
from scoring.money_rules import resolve_money_rules
from scoring.options import resolve_rules
from scoring.registry import get_game

# --- rules ---------------------------------------------------------------------------------


def resolved_rules(*, game: str, variant: str, overrides: Any) -> dict[str, Any]:
    """The full rule set of a preset plus overrides; InvalidInput when they don't fit."""
    spec = get_game(game)
    if variant not in spec.presets:
        raise InvalidInput([{"hand": None, "field": "variant", "message": _("Unknown rule set.")}])
    problems = Problems()
    rules = resolve_rules(options=spec.options, preset=spec.presets[variant], overrides=overrides, problems=problems)
    if problems:
        raise InvalidInput(problems_as_errors(ScoringError(problems.items)))
    return rules


@transaction.atomic
def create_league(*, name: str, slug: str, game: str, variant: str, rule_overrides: dict, user) -> League:
    resolved_rules(game=game, variant=variant, overrides=rule_overrides)
    league = League.objects.create(name=name, slug=slug, game=game, variant=variant, rule_overrides=rule_overrides)
    Membership.objects.create(league=league, user=user, role=Role.ADMIN)
    Player.objects.create(league=league, name=_first_player_name(user), user=user)
    return league


def _first_player_name(user) -> str:
    """The founder's player name: his name at the table, or else his login name (which
    Django allows letters, digits and @.+-_ only), cut to a player name's length. An account
    made before names were checked may hold a name that is refused now."""
    for candidate in (user.get_short_name(), user.get_username()):
        try:
            return names.clean_name(candidate)
        except names.NameProblem:
            continue
    return names.clean_name(user.get_username()[: names.MAX_LENGTH])


@transaction.atomic
def change_role(*, membership: Membership, role: str) -> Membership:
    """Give a member another role; a league always keeps at least one admin."""
    if role not in Role.values:
        raise field_error("role", _("Unknown role."))
    league = League.objects.select_for_update().get(pk=membership.league_id)
    if membership.role == Role.ADMIN and role != Role.ADMIN:
        admins = league.memberships.filter(role=Role.ADMIN).exclude(pk=membership.pk)
        if not admins.exists():
            raise field_error("role", _("A league needs at least one admin: make someone else admin first."))
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def remove_member(*, membership: Membership, by) -> None:
    """Take a member out of the league: the membership goes, his account loses access at once
    (every page and API call looks the membership up afresh). His player and every hand stay:
    the player is only unlinked from the account, so the name stays on the sheets and
    standings, and a later invite can link the player to an account again.

    ``by`` (the user acting) must still be an admin of the league when the lock is held, so that
    two admins removing each other at once cannot both succeed. A league always keeps at least
    one admin, so an admin may remove himself only while another admin remains.
    """
    league = League.objects.select_for_update().get(pk=membership.league_id)
    # Re-read under the league's lock: the member may have been removed or demoted a moment ago.
    membership = Membership.objects.filter(pk=membership.pk, league=league).first()
    if membership is None:
        raise field_error("member", _("This person is no longer a member of the league."))
    acting = Membership.objects.filter(league=league, user=by).first() if by.is_authenticated else None
    if not by.is_superuser and (acting is None or not acting.allows(Role.ADMIN)):
        raise field_error("member", _("Only an admin of the league can remove members."))
    if membership.role == Role.ADMIN:
        admins = league.memberships.filter(role=Role.ADMIN).exclude(pk=membership.pk)
        if not admins.exists():
            raise field_error("member", _("A league needs at least one admin: make someone else admin first."))
    league.players.filter(user_id=membership.user_id).update(user=None)
    membership.delete()


@transaction.atomic
def link_own_player(*, league: League, user, player_id: int | None) -> Player | None:
    """``user`` says whom he plays as in ``league`` (the importer of a league, whose players
    came from the file): his account is linked to that player, or to none (``player_id``
    None: he does not play). Refused when he plays as someone already, or when the player is
    not one of the league's or has an account of his own. The same player chosen again (the
    form sent twice) is the link made: nothing changes."""
    league = lock_league(league)
    own = league.players.filter(user=user).first()
    if own is not None and player_id is not None and own.pk == player_id:
        return own
    if own is not None:
        raise field_error("player", _("You already play as a player of this league."))
    if player_id is None:
        return None
    player = league.players.filter(pk=player_id, user=None).first()
    if player is None:
        raise field_error("player", _("Choose a player of this league who has no account yet."))
    player.user = user
    player.save(update_fields=["user"])
    return player


def new_player_name(*, league: League, name: str, field: str) -> str:
    """``name`` cleaned (leagues/clubs/names.py) for a new player of ``league``; InvalidInput on
    ``field`` when it is refused or too alike an existing player's, whom it names.

    Called with the league locked (``lock_league``), so two phones adding "Anna" and a
    Cyrillic "Аnna" at once cannot both pass: the unique constraint only sees exact names."""
    try:
        return names.check_new_name(name, league.players.values_list("name", flat=True))
    except names.NameProblem as problem:
        raise field_error(field, problem.message) from problem


@transaction.atomic
def add_player(*, league: League, name: str) -> Player:
    league = lock_league(league)
    name = new_player_name(league=league, name=name, field="name")
    try:
        with transaction.atomic():
            return Player.objects.create(league=league, name=name)
    except IntegrityError as error:  # someone added the same name a moment ago (SQLite)
        raise field_error("name", _("This league already has a player of that name.")) from error


def create_invite(*, league: League, role: str, player: Player | None, user) -> Invite:
    if role not in Role.values:
        raise field_error("role", _("Unknown role."))
    if player is not None and (player.league_id != league.pk or player.user_id is not None):
        raise field_error("player", _("Choose a player of this league who has no account yet."))
    return Invite.objects.create(league=league, role=role, player=player, created_by=user)


def revoke_invite(*, invite: Invite) -> Invite:
    """Withdraw an unused invite. A revoked invite is marked used by nobody (used_at set,
    used_by empty), which keeps the record of it without a schema change."""
    if invite.used_at is None:
        invite.used_at = timezone.now()
        invite.used_by = None
        invite.save(update_fields=["used_at", "used_by"])
    return invite


def invite_problem(invite: Invite) -> str | None:
    """Why ``invite`` cannot be used now, or None (Invite.problem)."""
    return invite.problem()


@transaction.atomic
def accept_invite(*, invite: Invite, user, display_name: str = "") -> Membership:
    """Join ``invite``'s league with the role it names, and use the invite up.

    Someone who is already a member keeps the higher of his role and the invite's (an invite
    never demotes anyone). He keeps his player if he has one in the league; otherwise he
    becomes the invite's player, or a new player called ``display_name``.
    """
    # Lock the invite row only: PostgreSQL cannot lock the nullable side of the player join.
    invite = Invite.objects.select_for_update(of=("self",)).select_related("player").get(pk=invite.pk)
    problem = invite_problem(invite)
    if problem:
        raise InviteUnusable(problem)
    league = lock_league(invite.league)  # new players of one league are named one at a time
    membership = Membership.objects.filter(league=league, user=user).first()
    if membership is None:
        membership = Membership.objects.create(league=league, user=user, role=invite.role)
    elif ROLE_RANK[invite.role] > ROLE_RANK[membership.role]:
        membership.role = invite.role
        membership.save(update_fields=["role"])
    if not league.players.filter(user=user).exists():
        if invite.player is not None:
            invite.player.user = user
            invite.player.save(update_fields=["user"])
        else:
            name = display_name or user.get_short_name() or user.get_username()
            name = new_player_name(league=league, name=name, field="display_name")
            Player.objects.create(league=league, name=name, user=user)
    invite.used_at = timezone.now()
    invite.used_by = user
    invite.save(update_fields=["used_at", "used_by"])
    return membership


@transaction.atomic
def sign_up_by_invite(*, invite: Invite, username: str, password: str, display_name: str, email: str = ""):
    """A new account that joins through ``invite``; nothing is kept if joining fails."""
    from django.contrib.auth import get_user_model

    try:
        display_name = names.clean_name(display_name)  # the account keeps the name as the player's
    except names.NameProblem as problem:
        raise field_error("display_name", problem.message) from problem
    user = get_user_model().objects.create_user(
        username=username, email=email, password=password, first_name=display_name
    )
    accept_invite(invite=invite, user=user, display_name=display_name)
    return user


# --- league settings (admin) ----------------------------------------------------------------


def set_public_link(*, league: League, enabled: bool) -> League:
    """Create (a fresh token each time) or revoke the public read-only link."""
    league.public_token = new_token() if enabled else None
    league.save(update_fields=["public_token"])
    return league


def change_rules(
    *,
    league: League,
    variant: str,
    rule_overrides: dict,
    money_rules: dict | None = None,
    combine_tables: str | None = None,
) -> League:
    """New house rules (and money rules, and how a club night's tables are combined, when
    given); meetings and club nights already started keep the rules they copied."""
    resolved_rules(game=league.game, variant=variant, overrides=rule_overrides)
    league.variant = variant
    league.rule_overrides = rule_overrides
    fields = ["variant", "rule_overrides"]
    if combine_tables is not None:
        if combine_tables not in Combine.values:
            raise field_error("combine_tables", _("Choose how the tables of an evening are combined."))
        league.combine_tables = combine_tables
        fields.append("combine_tables")
    if money_rules is not None:
        try:
            resolve_money_rules(money_rules)
        except ScoringError as error:
            raise InvalidInput(problems_as_errors(error)) from error
        league.money_rules = money_rules
        fields.append("money_rules")
    league.save(update_fields=fields)
    return league
