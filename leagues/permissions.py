"""Who may do what in a league. One place, used by the HTML views and the API alike."""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from .models import League, Membership, Role


def membership_for(*, user, league):
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(league=league, user=user).first()


def league_for(*, user, slug, role=Role.MEMBER):
    """The league named by ``slug`` if ``user`` holds at least ``role`` in it.

    Someone who is not a member gets a 404, not a 403: a league's existence is its own business.
    A member's league and membership come in one query (every league page starts here).
    """
    membership = None
    if user.is_authenticated:
        membership = Membership.objects.select_related("league").filter(league__slug=slug, user=user).first()
    if membership is None:
        if not user.is_superuser:
            raise Http404
        league = get_object_or_404(League, slug=slug)
        return league, Membership(league=league, user=user, role=Role.ADMIN)
    if not membership.allows(role):
        raise PermissionDenied
    return membership.league, membership


def public_league(*, token):
    if not token:
        raise Http404
    return get_object_or_404(League, public_token=token)
