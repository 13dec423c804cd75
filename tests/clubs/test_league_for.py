"""``permissions.league_for``: the league and the user's membership of it, with the same
answers for every kind of visitor."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import Http404

from leagues.models import League, Membership, Role
from leagues.permissions import league_for
from tests.factories import LeagueFactory, UserFactory, member

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return LeagueFactory(slug="kreuz-dame", rule_overrides={"bock_after_kontra_lost": False})


def test_a_member_gets_the_league_and_his_membership(league):
    user = member(league, Role.SCOREKEEPER)
    found, membership = league_for(user=user, slug="kreuz-dame", role=Role.SCOREKEEPER)
    stored = League.objects.get(pk=league.pk)
    assert [getattr(found, f.attname) for f in League._meta.concrete_fields] == [
        getattr(stored, f.attname) for f in League._meta.concrete_fields
    ]
    assert found.rule_overrides == {"bock_after_kontra_lost": False}
    assert not hasattr(found, "_membership_id") and not hasattr(found, "_membership_role")
    stored_membership = Membership.objects.get(league=league, user=user)
    assert (membership.pk, membership.league_id, membership.user_id, membership.role) == (
        stored_membership.pk,
        league.pk,
        user.pk,
        Role.SCOREKEEPER,
    )
    assert membership.league is found
    assert membership.joined_at == stored_membership.joined_at  # read when asked for


def test_its_membership_saves_only_what_it_changed(league):
    user = member(league, Role.MEMBER)
    _league, membership = league_for(user=user, slug="kreuz-dame")
    membership.role = Role.ADMIN
    membership.save(update_fields=["role"])
    assert Membership.objects.get(pk=membership.pk).role == Role.ADMIN


def test_a_role_below_the_one_asked_for_is_a_403(league):
    user = member(league, Role.MEMBER)
    with pytest.raises(PermissionDenied):
        league_for(user=user, slug="kreuz-dame", role=Role.SCOREKEEPER)


def test_a_member_of_another_league_an_anonymous_visitor_and_an_unknown_league_get_a_404(league):
    other = member(LeagueFactory(slug="other"), Role.ADMIN)
    for user, slug in ((other, "kreuz-dame"), (AnonymousUser(), "kreuz-dame"), (other, "nowhere")):
        with pytest.raises(Http404):
            league_for(user=user, slug=slug)


def test_a_superuser_without_a_membership_acts_as_an_admin(league):
    root = UserFactory(is_superuser=True)
    found, membership = league_for(user=root, slug="kreuz-dame", role=Role.ADMIN)
    assert found == league and membership.role == Role.ADMIN and membership.pk is None
    with pytest.raises(Http404):
        league_for(user=root, slug="nowhere")
