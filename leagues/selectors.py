"""Reads. Queries for pages and the API live here, with keyword-only arguments, so that views
stay thin and query counts stay fixed whatever the number of hands."""

from .models import League, Membership


def leagues_of(*, user):
    """The leagues ``user`` belongs to, with his role in each."""
    return League.objects.filter(memberships__user=user).order_by("name")


def role_in(*, user, league):
    membership = Membership.objects.filter(user=user, league=league).first()
    return membership.role if membership else None
