"""Logging in and out, the home page ("my leagues") and the Django admin."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from leagues.models import Role
from tests.factories import PASSWORD, LeagueFactory, MembershipFactory, UserFactory, member


@pytest.fixture
def league(db):
    return LeagueFactory(name="Skatfreunde", slug="skatfreunde")


@pytest.fixture
def other(db):
    return LeagueFactory(name="Geheimclub", slug="geheimclub", game="thousand")


def test_the_login_page_has_the_fields_the_browser_tests_use(client, db):
    html = client.get(reverse("login")).content.decode()
    assert 'name="username"' in html and 'name="password"' in html and 'type="submit"' in html


def test_it_logs_in_and_lands_on_my_leagues(client, league):
    user = member(league)
    response = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert client.get(reverse("home")).context["user"] == user


def test_it_follows_next_after_login(client, league):
    user = member(league)
    response = client.post(
        reverse("login"), {"username": user.username, "password": PASSWORD, "next": league.get_absolute_url()}
    )
    assert response["Location"] == league.get_absolute_url()


@pytest.mark.parametrize(
    "data", [{"username": "nobody", "password": PASSWORD}, {"username": "", "password": ""}, {"password": "x"}]
)
def test_it_rejects_a_bad_login_with_400(client, league, data):
    member(league, username="anna")
    if data.get("username") == "nobody":
        data = {"username": "anna", "password": "wrong"}
    response = client.post(reverse("login"), data)
    assert response.status_code == 400
    assert "errorlist" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_copied_session_cookie_is_dead_after_logout(client, league):
    client.force_login(member(league))
    copy = type(client)()
    copy.cookies["sessionid"] = client.cookies["sessionid"].value
    assert copy.get(league.get_absolute_url()).status_code == 200
    client.post(reverse("logout"))
    assert copy.get(league.get_absolute_url()).status_code == 302


def test_a_new_password_set_elsewhere_logs_this_browser_out(client, league):
    user = member(league)
    client.force_login(user)
    assert client.get(league.get_absolute_url()).status_code == 200
    user.set_password("ein-anderes-passwort-43")
    user.save()
    assert client.get(league.get_absolute_url()).status_code == 302


def test_a_deactivated_member_is_logged_out(client, league):
    user = member(league)
    client.force_login(user)
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)
    assert client.get(league.get_absolute_url()).status_code == 302


def test_logout_needs_a_post_and_ends_the_session(client, league):
    client.force_login(member(league))
    assert client.get(reverse("logout")).status_code == 405
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_an_anonymous_visitor_gets_the_landing_page(client, db):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "score sheet of your card club" in html
    assert reverse("login") in html


@pytest.mark.parametrize("role", [Role.MEMBER, Role.SCOREKEEPER, Role.ADMIN])
def test_my_leagues_lists_my_leagues_with_game_and_role_only(client, league, other, role):
    user = member(league, role)
    member(other, Role.ADMIN)
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert "Skatfreunde" in html and league.get_absolute_url() in html
    assert "Doppelkopf" in html
    assert str(Role(role).label) in html
    assert "Geheimclub" not in html
    assert reverse("league_create") in html


def test_someone_in_no_league_is_told_how_to_start(client, db):
    client.force_login(UserFactory())
    html = client.get(reverse("home")).content.decode()
    assert "not in a league yet" in html
    assert reverse("league_create") in html


def test_someone_in_two_leagues_sees_both(client, league, other):
    user = member(league, Role.MEMBER)
    MembershipFactory(league=other, user=user, role=Role.ADMIN)
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert "Skatfreunde" in html and "Geheimclub" in html and "1000" in html


# --- the Django admin ------------------------------------------------------------------------------


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser("boss", "boss@example.org", PASSWORD)


@pytest.mark.parametrize("model", ["league", "invite", "season", "meeting", "hand", "handresult"])
def test_the_admin_lists_every_registered_model(client, superuser, league, model):
    client.force_login(superuser)
    assert client.get(f"/admin/leagues/{model}/").status_code == 200
    # Nothing is added there: each is made on the league's pages (tests/admin_site says why).
    assert client.get(f"/admin/leagues/{model}/add/").status_code == 403


def test_the_admin_edits_a_league_with_its_members_inline(client, superuser, league):
    member(league, Role.ADMIN)
    client.force_login(superuser)
    response = client.get(f"/admin/leagues/league/{league.pk}/change/")
    assert response.status_code == 200
    assert "Skatfreunde" in response.content.decode()


def test_the_admin_is_closed_to_league_admins(client, league):
    client.force_login(member(league, Role.ADMIN))
    response = client.get("/admin/leagues/league/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
