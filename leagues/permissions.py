"""Who may do what in a league. One place, used by the HTML views and the API alike."""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from leagues.models import League, Membership, Role
from leagues.table import selectors


def league_for(*, user, slug, role=Role.MEMBER):
    """The league named by ``slug`` if ``user`` holds at least ``role`` in it.

    Someone who is not a member gets a 404, not a 403: a league's existence is its own business.
    A member's league and membership come in one query (every league page starts here); a
    superuser who is no member gets the league as its admin.
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


def meeting_for(*, user, slug, pk, role=Role.MEMBER, lock=False):
    """The meeting ``pk`` of the league ``slug`` and ``user``'s membership, if he holds at
    least ``role`` in it (``league_for``), the meeting as ``selectors.league_meeting`` gives
    it, its league as ``meeting.league``. ``lock``: for a writer of its hands, in a
    transaction (``selectors.meeting_for_entry``).

    A league he is no member of, or a meeting that is not one of its own, is a 404 (a
    superuser who is no member gets it as its admin, as with ``league_for``); a member
    without ``role`` gets a 403."""
    league, membership = league_for(user=user, slug=slug, role=role)
    find = selectors.meeting_for_entry if lock else selectors.league_meeting
    meeting = find(league=league, pk=pk)
    if meeting is None:
        raise Http404
    return meeting, membership


def public_league(*, token):
    """The league of the public link ``token``, or a 404."""
    if not token:
        raise Http404
    league = League.objects.filter(public_token=token).first()
    if league is None:
        raise Http404
    return league
