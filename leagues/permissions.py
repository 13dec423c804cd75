"""Who may do what in a league. One place, used by the HTML views and the API alike."""

import functools

from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404
from django.shortcuts import get_object_or_404

from . import selectors
from .models import League, Membership, Role


def membership_for(*, user, league):
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(league=league, user=user).first()


def league_for(*, user, slug, role=Role.MEMBER):
    """The league named by ``slug`` if ``user`` holds at least ``role`` in it.

    Someone who is not a member gets a 404, not a 403: a league's existence is its own business.
    A member's league and membership come in one query (every league page starts here); a
    superuser who is no member gets the league as its admin.
    """
    membership = _membership_with_league(user=user, slug=slug) if user.is_authenticated else None
    if membership is None:
        if not user.is_superuser:
            raise Http404
        league = get_object_or_404(League, slug=slug)
        return league, Membership(league=league, user=user, role=Role.ADMIN)
    if not membership.allows(role):
        raise PermissionDenied
    return membership.league, membership


def meeting_for(*, user, slug, pk, role=Role.MEMBER, host=False, lock=False, seats=False):
    """The meeting ``pk`` of the league ``slug`` and ``user``'s membership, if he holds at
    least ``role`` in it, as ``league_for`` and then ``selectors.meeting_of`` give them, in
    one query (issue 12: every meeting page and every write of a hand asked twice): the
    meeting with its season (and host, seats, lock: ``meeting_of``'s), its league as
    ``meeting.league``.

    A league he is no member of, or a meeting that is not one of its own, is a 404 (a
    superuser who is no member gets it as its admin, as with ``league_for``); a member
    without ``role`` gets a 403."""
    meeting = selectors.meeting_of(
        pk=pk,
        slug=slug,
        member=user.pk if user.is_authenticated else None,
        members_only=not user.is_superuser,
        host=host,
        lock=lock,
        seats=seats,
    )
    if meeting is None:
        raise Http404
    league, found = meeting.league, meeting._membership
    if found is None:
        if not user.is_superuser:
            raise Http404
        return meeting, Membership(league=league, user=user, role=Role.ADMIN)
    membership = Membership.from_db(
        connection.alias, ["id", "league_id", "user_id", "role"], [found[0], league.pk, user.pk, found[1]]
    )
    membership.league = league
    if not membership.allows(role):
        raise PermissionDenied
    return meeting, membership


def _membership_with_league(*, user, slug):
    """``user``'s membership of the league ``slug`` with its league, or None, in one raw query
    of the League model: every member page and API call starts here, and the ORM's
    select_related query cost 0.76 ms against 0.3. The league is a full model
    instance (its fields converted as the model converts them); the membership has its id,
    league, user and role loaded (``joined_at`` deferred: read if anyone asks for it)."""
    rows = list(League.objects.raw(_membership_sql(), [slug, user.pk]))
    if not rows:
        return None
    league = rows[0]
    values = [league._membership_id, league.pk, user.pk, league._membership_role]
    del league._membership_id, league._membership_role
    membership = Membership.from_db(connection.alias, ["id", "league_id", "user_id", "role"], values)
    membership.league = league
    return membership


@functools.cache
def _membership_sql():
    quote = connection.ops.quote_name
    league, member = League._meta, Membership._meta
    columns = ", ".join(f"l.{quote(field.column)}" for field in league.concrete_fields)
    return (
        f"SELECT {columns}, m.{quote(member.pk.column)} AS _membership_id,"
        f" m.{quote(member.get_field('role').column)} AS _membership_role"
        f" FROM {quote(league.db_table)} l JOIN {quote(member.db_table)} m"
        f" ON m.{quote(member.get_field('league').column)} = l.{quote(league.pk.column)}"
        f" WHERE l.{quote(league.get_field('slug').column)} = %s AND m.{quote(member.get_field('user').column)} = %s"
    )


def public_league(*, token):
    """The league of the public link ``token``, or a 404."""
    if not token:
        raise Http404
    rows = list(League.objects.raw(_public_sql(), [token]))
    if not rows:
        raise Http404
    return rows[0]


@functools.cache
def _public_sql():
    quote = connection.ops.quote_name
    league = League._meta
    columns = ", ".join(f"l.{quote(field.column)}" for field in league.concrete_fields)
    return (
        f"SELECT {columns} FROM {quote(league.db_table)} l"
        f" WHERE l.{quote(league.get_field('public_token').column)} = %s"
    )
