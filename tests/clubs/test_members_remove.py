"""An admin removes a member from the league in the app: the membership goes, the account
loses access at once, the player and every hand stay; a league always keeps one admin."""

import pytest
from django.urls import reverse

from leagues import exceptions
from leagues.clubs import services as clubs_services
from leagues.models import Hand, HandResult, Membership, Player, Role
from leagues.table import services as table_services
from tests.factories import LeagueFactory, meeting_for, member

FIVE = ["Anna", "Ben", "Carl", "Dora", "Emil"]
# Anna deals and sits out; Ben and Dora are Re and win with 131 eyes: 1 point each way.
HAND = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}


@pytest.fixture
def league(db):
    return LeagueFactory(name="Skatfreunde", slug="skatfreunde")


@pytest.fixture
def other(db):
    return LeagueFactory(name="Geheimclub", slug="geheimclub")


def membership_of(league, user):
    return Membership.objects.get(league=league, user=user)


def remove_url(league, membership):
    return reverse("member_remove", kwargs={"slug": league.slug, "pk": membership.pk})


# --- who may use it -------------------------------------------------------------------------------


def test_it_sends_an_anonymous_visitor_to_log_in(client, league):
    ben = membership_of(league, member(league, Role.MEMBER))
    response = client.post(remove_url(league, ben))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert Membership.objects.filter(pk=ben.pk).exists()


@pytest.mark.parametrize("role", [Role.MEMBER, Role.SCOREKEEPER])
def test_it_refuses_a_member_below_admin(client, league, role):
    ben = membership_of(league, member(league, Role.MEMBER))
    client.force_login(member(league, role))
    assert client.post(remove_url(league, ben)).status_code == 403
    assert Membership.objects.filter(pk=ben.pk).exists()


def test_it_hides_the_league_from_another_leagues_admin(client, league, other):
    ben = membership_of(league, member(league, Role.MEMBER))
    client.force_login(member(other, Role.ADMIN))
    assert client.post(remove_url(league, ben)).status_code == 404
    assert Membership.objects.filter(pk=ben.pk).exists()


def test_an_admin_cannot_remove_a_member_of_another_league_through_his_own(client, league, other):
    outsider = membership_of(other, member(other, Role.MEMBER))
    client.force_login(member(league, Role.ADMIN))
    assert client.post(remove_url(league, outsider)).status_code == 404
    assert Membership.objects.filter(pk=outsider.pk).exists()


def test_it_only_accepts_a_post(client, league):
    ben = membership_of(league, member(league, Role.MEMBER))
    client.force_login(member(league, Role.ADMIN))
    assert client.get(remove_url(league, ben)).status_code == 405
    assert Membership.objects.filter(pk=ben.pk).exists()


def test_the_button_is_shown_to_admins_only(client, league):
    ben = membership_of(league, member(league, Role.MEMBER))
    client.force_login(member(league, Role.SCOREKEEPER))
    assert remove_url(league, ben) not in client.get(league.get_absolute_url()).content.decode()
    client.force_login(member(league, Role.ADMIN))
    html = client.get(league.get_absolute_url()).content.decode()
    assert remove_url(league, ben) in html
    assert "data-confirm=" in html  # asks before it removes


# --- what it does ---------------------------------------------------------------------------------


def test_an_admin_removes_a_member_and_the_player_and_hands_stay(client, league):
    admin = member(league, Role.ADMIN, first_name="Anna")
    ben = member(league, Role.SCOREKEEPER, first_name="Ben")
    meeting = meeting_for(league, FIVE)
    table_services.enter_hand(meeting=meeting, payload=HAND, by=ben, number=1)
    client.force_login(admin)

    response = client.post(remove_url(league, membership_of(league, ben)), follow=True)

    assert response.status_code == 200
    assert "Ben is no longer a member" in response.content.decode()
    assert not Membership.objects.filter(league=league, user=ben).exists()
    player = Player.objects.get(league=league, name="Ben")
    assert player.user is None  # unlinked, so the name stays on the sheets
    hand = Hand.objects.get(meeting=meeting)
    assert hand.deleted_at is None and hand.entered_by == ben
    # Ben was Re and won: +1 (worked out in the HAND comment), still his after the removal.
    assert HandResult.objects.get(hand=hand, player=player).delta == 1


def test_the_removed_member_gets_a_404_on_the_league_at_once(client, league):
    admin = member(league, Role.ADMIN)
    ben = member(league, Role.MEMBER)
    meeting = meeting_for(league, FIVE)
    client.force_login(ben)
    assert client.get(league.get_absolute_url()).status_code == 200

    clubs_services.remove_member(membership=membership_of(league, ben), by=admin)

    # The same session, no new login: every request looks the membership up again.
    assert client.get(league.get_absolute_url()).status_code == 404
    assert client.get(reverse("meeting", kwargs={"slug": league.slug, "pk": meeting.pk})).status_code == 404
    assert client.get(f"/api/v1/leagues/{league.slug}/meetings/{meeting.pk}/").status_code == 404
    assert league.slug not in client.get(reverse("home")).content.decode()


def test_the_last_admin_cannot_be_removed(client, league):
    admin = member(league, Role.ADMIN)
    mine = membership_of(league, admin)
    client.force_login(admin)
    response = client.post(remove_url(league, mine))
    assert response.status_code == 400
    assert "at least one admin" in response.content.decode()
    assert Membership.objects.filter(pk=mine.pk).exists()


def test_an_admin_removes_himself_while_another_admin_remains(client, league):
    admin = member(league, Role.ADMIN)
    member(league, Role.ADMIN)
    client.force_login(admin)
    response = client.post(remove_url(league, membership_of(league, admin)))
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert not Membership.objects.filter(league=league, user=admin).exists()
    assert client.get(league.get_absolute_url()).status_code == 404


def test_an_admin_removes_another_admin(client, league):
    admin = member(league, Role.ADMIN)
    second = membership_of(league, member(league, Role.ADMIN))
    client.force_login(admin)
    assert client.post(remove_url(league, second)).status_code == 302
    assert not Membership.objects.filter(pk=second.pk).exists()


# --- the service ------------------------------------------------------------------------------------


def test_an_admin_removed_a_moment_ago_can_no_longer_remove_anyone(league):
    anna = member(league, Role.ADMIN)
    ben = member(league, Role.ADMIN)
    carl = membership_of(league, member(league, Role.MEMBER))
    clubs_services.remove_member(membership=membership_of(league, ben), by=anna)
    with pytest.raises(exceptions.InvalidInput) as error:
        clubs_services.remove_member(membership=carl, by=ben)
    assert error.value.errors[0]["field"] == "member"
    assert Membership.objects.filter(pk=carl.pk).exists()


def test_removing_twice_is_a_clear_error(league):
    anna = member(league, Role.ADMIN)
    ben = membership_of(league, member(league, Role.MEMBER))
    clubs_services.remove_member(membership=ben, by=anna)
    with pytest.raises(exceptions.InvalidInput) as error:
        clubs_services.remove_member(membership=ben, by=anna)
    assert "no longer a member" in error.value.errors[0]["message"]


def test_an_invite_can_link_the_player_to_an_account_again(league):
    anna = member(league, Role.ADMIN)
    ben = member(league, Role.MEMBER, first_name="Ben")
    clubs_services.remove_member(membership=membership_of(league, ben), by=anna)
    player = Player.objects.get(league=league, name="Ben")
    invite = clubs_services.create_invite(league=league, role=Role.MEMBER, player=player, user=anna)
    clubs_services.accept_invite(invite=invite, user=ben)
    player.refresh_from_db()
    assert player.user == ben and membership_of(league, ben).role == Role.MEMBER
