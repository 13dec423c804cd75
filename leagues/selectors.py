"""Reads. Queries for pages and the API live here, with keyword-only arguments, so that views
stay thin and query counts stay fixed whatever the number of hands."""

from .models import League, Membership


def leagues_of(*, user):
    """The leagues ``user`` belongs to, with his role in each."""
    return League.objects.filter(memberships__user=user).order_by("name")


def role_in(*, user, league):
    membership = Membership.objects.filter(user=user, league=league).first()
    return membership.role if membership else None

def memberships_of(*, user):
    """``user``'s memberships with their leagues, for the "my leagues" list (one query)."""
    return Membership.objects.filter(user=user).select_related("league").order_by("league__name")


def league_overview(*, league, admin=False, meetings=10):
    """What the league page shows: seasons, members, players, recent meetings and, for
    admins, the open invites. A fixed number of queries whatever the size of the league."""
    from django.utils import timezone

    from .models import Invite, Meeting

    data = {
        "seasons": list(league.seasons.order_by("-number")),
        "memberships": list(league.memberships.select_related("user").order_by("user__username")),
        "players": list(league.players.select_related("user").order_by("name")),
        "meetings": list(
            Meeting.objects.filter(league=league).select_related("host", "season").order_by("-date", "-id")[:meetings]
        ),
        "invites": [],
    }
    names = {p.user_id: p.name for p in data["players"] if p.user_id}
    for membership in data["memberships"]:
        membership.display_name = names.get(membership.user_id) or membership.user.get_username()
    if admin:
        data["invites"] = list(
            Invite.objects.filter(league=league, used_at=None, expires_at__gt=timezone.now())
            .select_related("player", "created_by")
            .order_by("-created_at")
        )
    return data


# --- standings, host rotation and sheets (issue 5, "At the table") ---------------------------
#
# Every figure comes from HandResult (written by replay), summed by the database. Each
# function below runs a fixed number of queries, whatever the number of hands or meetings.

import datetime  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402

from django.db.models import Count, Exists, F, Max, OuterRef, Q, Sum, Window  # noqa: E402

from .models import HandResult, Meeting, Player, Season, Seat  # noqa: E402

# Games played to a target (a Partie): the table ranks by games won, points come second.
RACE_GAMES = frozenset({"twenty_five", "forty_five", "one_ten", "auction_45", "thousand"})

