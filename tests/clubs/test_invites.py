"""Joining a league through an invite link: signing up, logging in then joining, and every way
an invite can be unusable (expired, used, revoked, pointing at another league's player).

Decision: someone who is already a member keeps the higher of his role and the invite's. An
invite that would not raise his role is left unused, for the person it was meant for.
"""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from leagues import exceptions
from leagues.clubs import services
from leagues.models import Invite, Membership, Player, Role
from tests.factories import PASSWORD, LeagueFactory, PlayerFactory, UserFactory, member

User = get_user_model()


@pytest.fixture
def league(db):
    return LeagueFactory(name="Skatfreunde", slug="skatfreunde")


@pytest.fixture
def other(db):
    return LeagueFactory(name="Geheimclub", slug="geheimclub")


@pytest.fixture
def admin(league):
    return member(league, Role.ADMIN)


@pytest.fixture
def invite(league, admin):
    return Invite.objects.create(league=league, role=Role.SCOREKEEPER, created_by=admin)


def signup(**changes):
    data = {"username": "dora", "display_name": "Dora", "password1": "Kreuz-Dame-42", "password2": "Kreuz-Dame-42"}
    data.update(changes)
    return data


def counts():
    return User.objects.count(), Membership.objects.count(), Player.objects.count()


# --- the happy paths ---------------------------------------------------------------------------


def test_an_anonymous_visitor_sees_the_league_the_role_and_a_signup_form(client, invite):
    response = client.get(invite.get_absolute_url())
    assert response.status_code == 200
    html = response.content.decode()
    assert "Join Skatfreunde" in html and "scorekeeper" in html
    assert 'name="display_name"' in html
    assert f"{reverse('login')}?next={invite.get_absolute_url()}" in html


def test_signing_up_joins_with_the_invites_role_as_a_new_player(client, invite, league):
    response = client.post(invite.get_absolute_url(), signup())
    assert response.status_code == 302 and response["Location"] == league.get_absolute_url()
    dora = User.objects.get(username="dora")
    assert dora.check_password("Kreuz-Dame-42") and dora.first_name == "Dora"
    assert Membership.objects.get(league=league, user=dora).role == Role.SCOREKEEPER
    assert Player.objects.get(league=league, user=dora).name == "Dora"
    invite.refresh_from_db()
    assert invite.used_by == dora and invite.used_at is not None
    assert client.get(league.get_absolute_url()).status_code == 200  # logged in


def test_an_invite_for_a_player_links_the_new_account_to_him(client, league, admin):
    dora = PlayerFactory(league=league, name="Dora")
    invite = Invite.objects.create(league=league, role=Role.MEMBER, player=dora, created_by=admin)
    assert "You will play as <b>Dora</b>" in client.get(invite.get_absolute_url()).content.decode()
    client.post(invite.get_absolute_url(), signup(display_name="Dorothea"))
    dora.refresh_from_db()
    assert dora.user.username == "dora"
    assert league.players.count() == 2  # the admin and Dora, no new player


def test_logging_in_then_joining(client, invite, league):
    ben = UserFactory(username="ben", first_name="Ben")
    login_url = f"{reverse('login')}?next={invite.get_absolute_url()}"
    response = client.post(login_url, {"username": "ben", "password": PASSWORD, "next": invite.get_absolute_url()})
    assert response["Location"] == invite.get_absolute_url()
    page = client.get(invite.get_absolute_url())
    assert "Join as ben" in page.content.decode()
    response = client.post(invite.get_absolute_url(), {"display_name": "Ben"})
    assert response.status_code == 302
    assert Membership.objects.get(league=league, user=ben).role == Role.SCOREKEEPER
    assert Player.objects.get(league=league, user=ben).name == "Ben"


def test_a_player_of_another_league_joins_with_the_same_account(client, invite, league, other):
    ben = member(other, Role.ADMIN, first_name="Ben")
    client.force_login(ben)
    client.post(invite.get_absolute_url(), {"display_name": "Ben"})
    assert Player.objects.filter(user=ben).count() == 2
    assert Membership.objects.get(league=other, user=ben).role == Role.ADMIN  # untouched


# --- unusable invites: a clear page, the right status, nothing saved ---------------------------------


def test_an_expired_invite_is_gone(client, invite):
    invite.expires_at = timezone.now() - timedelta(minutes=1)
    invite.save()
    before = counts()
    for response in (client.get(invite.get_absolute_url()), client.post(invite.get_absolute_url(), signup())):
        assert response.status_code == 410
        assert "expired" in response.content.decode()
    assert counts() == before


def test_a_used_invite_cannot_be_used_again(client, invite):
    client.post(invite.get_absolute_url(), signup())
    client.logout()
    before = counts()
    response = client.post(invite.get_absolute_url(), signup(username="eve", display_name="Eve"))
    assert response.status_code == 410
    assert "already been used" in response.content.decode()
    assert counts() == before


def test_a_revoked_invite_says_so(client, invite):
    services.revoke_invite(invite=invite)
    before = counts()
    response = client.post(invite.get_absolute_url(), signup())
    assert response.status_code == 410
    assert "withdrawn" in response.content.decode()
    assert counts() == before


def test_an_invite_naming_another_leagues_player_is_refused(client, invite, other):
    # Cannot be made through the page; a bad admin edit or a bug could still make one.
    invite.player = PlayerFactory(league=other, name="Geheimspieler")
    invite.save()
    before = counts()
    for response in (client.get(invite.get_absolute_url()), client.post(invite.get_absolute_url(), signup())):
        assert response.status_code == 400
        assert "another league" in response.content.decode()
    assert counts() == before
    assert "Geheim" not in response.content.decode()


def test_an_invite_whose_player_joined_meanwhile_is_refused(client, league, admin):
    dora = PlayerFactory(league=league, name="Dora")
    first = Invite.objects.create(league=league, player=dora, created_by=admin)
    second = Invite.objects.create(league=league, player=dora, created_by=admin)
    client.post(first.get_absolute_url(), signup())
    client.logout()
    response = client.post(second.get_absolute_url(), signup(username="eve"))
    assert response.status_code == 400
    assert not User.objects.filter(username="eve").exists()


def test_an_unknown_token_is_404(client, db):
    assert client.get(reverse("accept_invite", kwargs={"token": "nope"})).status_code == 404


def test_the_invite_is_used_up_only_once_even_when_raced(invite, league):
    services.accept_invite(invite=invite, user=UserFactory(first_name="Anna"))
    with pytest.raises(exceptions.InviteUnusable) as caught:
        services.accept_invite(invite=invite, user=UserFactory(first_name="Bert"))
    assert caught.value.reason == "used"
    assert league.memberships.count() == 2  # the admin and Anna


# --- already a member -----------------------------------------------------------------------------


def test_a_member_with_a_lower_role_is_raised_and_keeps_his_player(client, invite, league):
    ben = member(league, Role.MEMBER, first_name="Ben")
    client.force_login(ben)
    response = client.post(invite.get_absolute_url())
    assert response.status_code == 302
    assert Membership.objects.filter(league=league, user=ben).count() == 1
    assert Membership.objects.get(league=league, user=ben).role == Role.SCOREKEEPER
    assert Player.objects.filter(league=league, user=ben).count() == 1


def test_a_member_with_a_higher_role_keeps_it_and_leaves_the_invite_open(client, invite, league, admin):
    client.force_login(admin)
    response = client.get(invite.get_absolute_url())
    assert response.status_code == 200
    assert "already a member" in response.content.decode()
    client.post(invite.get_absolute_url())
    assert Membership.objects.get(league=league, user=admin).role == Role.ADMIN
    invite.refresh_from_db()
    assert invite.used_at is None


# --- bad input on the forms ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"username": ""}, "username"),
        ({"username": "taken"}, "username"),
        ({"username": "no spaces please"}, "username"),
        ({"display_name": ""}, "display_name"),
        ({"display_name": "   "}, "display_name"),
        ({"display_name": "x" * 41}, "display_name"),
        ({"display_name": "Anna"}, "display_name"),  # a player of that name exists
        ({"password2": "something-else-42"}, "password2"),
        ({"password1": "123", "password2": "123"}, "password2"),  # too short and numeric
    ],
)
def test_it_rejects_a_bad_signup_on_the_field_and_saves_nothing(client, invite, league, changes, field):
    UserFactory(username="taken")
    PlayerFactory(league=league, name="Anna")
    before = counts()
    response = client.post(invite.get_absolute_url(), signup(**changes))
    assert response.status_code == 400
    assert response.context["form"].errors.get(field), response.context["form"].errors
    assert counts() == before
    invite.refresh_from_db()
    assert invite.used_at is None


def test_joining_under_a_taken_player_name_is_refused_on_the_field(client, invite, league):
    PlayerFactory(league=league, name="Ben")
    ben = UserFactory(username="ben", first_name="Ben")
    client.force_login(ben)
    before = counts()
    response = client.post(invite.get_absolute_url(), {"display_name": "Ben"})
    assert response.status_code == 400
    assert response.context["form"].errors["display_name"]
    assert counts() == before
    response = client.post(invite.get_absolute_url(), {"display_name": "Ben K."})
    assert response.status_code == 302


def test_joining_without_a_name_is_refused(client, invite):
    client.force_login(UserFactory(username="ben"))
    response = client.post(invite.get_absolute_url(), {"display_name": ""})
    assert response.status_code == 400
    invite.refresh_from_db()
    assert invite.used_at is None
