"""Roles changed in the admin keep the app's rule that a league has at least one admin:
the last admin can be neither demoted nor removed there, nor his account deleted; a removal
goes through the app's own (the player stays, unlinked from the account)."""

import pytest
from django.contrib.auth import get_user_model

from leagues.models import Membership, Player, Role
from tests.admin_site.conftest import admin_url, change_form, inline_row
from tests.factories import LeagueFactory, member

NEEDS_AN_ADMIN = "A league needs at least one admin"


@pytest.fixture
def league(db):
    return LeagueFactory()


@pytest.fixture
def chief(league):
    return member(league, Role.ADMIN, username="chief")


@pytest.fixture
def clerk(league):
    return member(league, Role.SCOREKEEPER, username="clerk")


def league_form(boss, league):
    return change_form(boss.get(admin_url("league", league.pk, "change")))


def membership(user, league):
    return Membership.objects.get(user=user, league=league)


def role_of(user, league):
    return membership(user, league).role


def test_it_refuses_to_demote_the_last_admin(boss, league, chief, clerk):
    data = league_form(boss, league)
    row = inline_row(data, "memberships", "id", membership(chief, league).pk)
    data[f"{row}-role"] = Role.MEMBER
    response = boss.post(admin_url("league", league.pk, "change"), data)
    assert response.status_code == 200
    assert NEEDS_AN_ADMIN in response.content.decode()
    assert role_of(chief, league) == Role.ADMIN


def test_it_refuses_to_remove_the_last_admin(boss, league, chief, clerk):
    data = league_form(boss, league)
    data[inline_row(data, "memberships", "id", membership(chief, league).pk) + "-DELETE"] = "on"
    response = boss.post(admin_url("league", league.pk, "change"), data)
    assert response.status_code == 200
    assert NEEDS_AN_ADMIN in response.content.decode()
    assert role_of(chief, league) == Role.ADMIN


def test_it_hands_the_admin_role_over_in_one_save(boss, league, chief, clerk):
    data = league_form(boss, league)
    data[inline_row(data, "memberships", "id", membership(chief, league).pk) + "-role"] = Role.MEMBER
    data[inline_row(data, "memberships", "id", membership(clerk, league).pk) + "-role"] = Role.ADMIN
    assert boss.post(admin_url("league", league.pk, "change"), data).status_code == 302
    assert (role_of(chief, league), role_of(clerk, league)) == (Role.MEMBER, Role.ADMIN)


def test_a_member_removed_keeps_his_player_as_on_the_league_page(boss, league, chief, clerk):
    data = league_form(boss, league)
    data[inline_row(data, "memberships", "id", membership(clerk, league).pk) + "-DELETE"] = "on"
    assert boss.post(admin_url("league", league.pk, "change"), data).status_code == 302
    assert not Membership.objects.filter(user=clerk, league=league).exists()
    assert Player.objects.get(league=league, name=clerk.first_name).user is None


def test_a_membership_cannot_be_handed_to_another_account(boss, league, chief, clerk):
    stranger = get_user_model().objects.create_user("stranger")
    data = league_form(boss, league)
    data[inline_row(data, "memberships", "id", membership(chief, league).pk) + "-user"] = str(stranger.pk)
    boss.post(admin_url("league", league.pk, "change"), data)
    assert role_of(chief, league) == Role.ADMIN
    assert not Membership.objects.filter(user=stranger).exists()


def test_the_last_admins_account_cannot_be_deleted(boss, league, chief, clerk):
    url = f"/admin/auth/user/{chief.pk}/delete/"
    assert NEEDS_AN_ADMIN in boss.get(url).content.decode()
    boss.post(url, {"post": "yes"})
    assert get_user_model().objects.filter(pk=chief.pk).exists()
    action = {"action": "delete_selected", "_selected_action": [chief.pk, clerk.pk], "post": "yes"}
    boss.post("/admin/auth/user/", action)
    assert get_user_model().objects.filter(pk=chief.pk).exists()
    assert role_of(chief, league) == Role.ADMIN


def test_an_account_that_is_not_the_last_admin_can_be_deleted(boss, league, chief, clerk):
    assert boss.post(f"/admin/auth/user/{clerk.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not get_user_model().objects.filter(pk=clerk.pk).exists()


def test_a_staff_user_who_is_no_admin_of_the_league_cannot_remove_its_members(client, league, chief, clerk):
    from django.contrib.auth.models import Permission

    staff = get_user_model().objects.create_user("staff", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(content_type__app_label="leagues"))
    client.force_login(staff)
    data = league_form(client, league)
    data[inline_row(data, "memberships", "id", membership(clerk, league).pk) + "-DELETE"] = "on"
    response = client.post(admin_url("league", league.pk, "change"), data)
    assert (
        response.status_code == 200 and "Only an admin of the league can remove members." in response.content.decode()
    )
    assert role_of(clerk, league) == Role.SCOREKEEPER


def test_when_an_account_joined_and_last_logged_in_are_not_typed(boss, chief):
    url = f"/admin/auth/user/{chief.pk}/change/"
    page = boss.get(url)
    assert 'name="date_joined_0"' not in page.content.decode()
    data = {**change_form(page), "date_joined_0": "0001-01-01", "date_joined_1": "00:00:00"}
    assert boss.post(url, data).status_code == 302
    assert get_user_model().objects.get(pk=chief.pk).date_joined.year > 2000


def test_an_admin_may_step_down_and_remove_a_member_in_one_save(client, league, chief, clerk):
    from django.contrib.auth.models import Permission

    other = member(league, Role.ADMIN, username="other")
    chief.is_staff = True
    chief.save()
    chief.user_permissions.set(Permission.objects.filter(content_type__app_label="leagues"))
    client.force_login(chief)
    data = league_form(client, league)
    data[inline_row(data, "memberships", "id", membership(chief, league).pk) + "-role"] = Role.MEMBER
    data[inline_row(data, "memberships", "id", membership(clerk, league).pk) + "-DELETE"] = "on"
    assert client.post(admin_url("league", league.pk, "change"), data).status_code == 302
    assert role_of(chief, league) == Role.MEMBER and role_of(other, league) == Role.ADMIN
    assert not Membership.objects.filter(user=clerk, league=league).exists()
