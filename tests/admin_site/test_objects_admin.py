"""What belongs to a league stays in it: a season, a meeting's host, an invite or a player
cannot be moved into another league in the admin, nor a season renumbered, nor a player
deleted; the league's pages stay readable."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.clubs import services as clubs_services
from leagues.models import Invite, Meeting, Player, Role, Season
from leagues.table import services as table_services
from tests.admin_site.conftest import admin_url, change_form, inline_row
from tests.factories import LeagueFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora"]
HAND = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131, "announcements": [], "specials": []}


@pytest.fixture
def meeting(db):
    league = LeagueFactory(game="doppelkopf", variant="club")
    league.public_token = "p" * 32
    league.save()
    meeting = meeting_for(league, NAMES)
    table_services.enter_hand(meeting=meeting, payload=HAND, by=member(league, Role.SCOREKEEPER))
    return meeting


@pytest.fixture
def elsewhere(db):
    other = LeagueFactory(game="doppelkopf", variant="club")
    meeting_for(other, ["Xaver", "Yvonne", "Zora", "Wim"])
    return other


def pages_of(league, season_number=1):
    token = league.public_token
    return [
        reverse("league", kwargs={"slug": league.slug}),
        reverse("standings", kwargs={"slug": league.slug}),
        reverse("season_report", kwargs={"slug": league.slug, "number": season_number}),
        reverse("public_standings", kwargs={"token": token}),
        reverse("public_season_report", kwargs={"token": token, "number": season_number}),
    ]


def assert_pages_readable(client, league):
    for url in pages_of(league):
        assert client.get(url).status_code == 200, url


def test_a_season_cannot_be_moved_into_another_league(boss, meeting, elsewhere):
    season = meeting.season
    url = admin_url("season", season.pk, "change")
    page = boss.get(url)
    assert page.status_code == 200 and 'name="league"' not in page.content.decode()
    response = boss.post(url, {"league": elsewhere.pk, "number": "7", "started_on": "2026-11-20"})
    assert response.status_code == 403
    season.refresh_from_db()
    assert (season.league_id, season.number) == (meeting.league_id, 1)
    assert_pages_readable(boss, meeting.league)


def test_seasons_are_neither_added_nor_deleted_in_the_admin(boss, meeting):
    season = meeting.season
    assert boss.get(admin_url("season", "add")).status_code == 403
    assert boss.post(admin_url("season", season.pk, "delete"), {"post": "yes"}).status_code == 403
    action = {"action": "delete_selected", "_selected_action": [season.pk], "post": "yes"}
    boss.post(admin_url("season"), action)
    assert Season.objects.filter(pk=season.pk).exists() and meeting.hands.count() == 1


def test_a_meeting_keeps_its_host_and_cannot_be_added_in_the_admin(boss, meeting, elsewhere):
    stranger = elsewhere.players.first()
    url = admin_url("meeting", meeting.pk, "change")
    page = boss.get(url)
    assert 'name="host"' not in page.content.decode()
    response = boss.post(url, {**change_form(page), "host": stranger.pk, "end_time": "23:30"})
    assert response.status_code == 302
    meeting.refresh_from_db()
    assert meeting.host.name == "Anna" and meeting.end_time.hour == 23
    assert boss.get(admin_url("meeting", "add")).status_code == 403
    assert_pages_readable(boss, meeting.league)


def test_an_invite_stays_in_its_league_with_its_player(boss, meeting, elsewhere):
    league = meeting.league
    newcomer = Player.objects.create(league=league, name="Emil")
    invite = clubs_services.create_invite(league=league, role=Role.MEMBER, player=newcomer, user=None)
    url = admin_url("invite", invite.pk, "change")
    page = boss.get(url)
    data = change_form(page)
    data.update(league=elsewhere.pk, player=elsewhere.players.first().pk, token="x", role=Role.SCOREKEEPER)
    assert boss.post(url, data).status_code == 302
    invite.refresh_from_db()
    assert (invite.league_id, invite.player_id, invite.role) == (league.pk, newcomer.pk, Role.SCOREKEEPER)
    assert invite.is_usable() and len(invite.token) > 20
    assert boss.get(admin_url("invite", "add")).status_code == 403
    assert boss.post(admin_url("invite", invite.pk, "delete"), {"post": "yes"}).status_code == 403
    assert Invite.objects.filter(pk=invite.pk).exists()


def post_player_rows(boss, league, **fields):
    """Post the league's change form with ``fields`` set on every row of its players."""
    data = change_form(boss.get(admin_url("league", league.pk, "change")))
    for index in range(int(data["players-TOTAL_FORMS"])):
        data.update({f"players-{index}-{name}": value for name, value in fields.items()})
    return boss.post(admin_url("league", league.pk, "change"), data)


def test_a_player_is_not_deleted_in_the_admin(boss, meeting):
    league = meeting.league
    emil = Player.objects.create(league=league, name="Emil")  # never sat at a table
    data = change_form(boss.get(admin_url("league", league.pk, "change")))
    data[inline_row(data, "players", "id", emil.pk) + "-DELETE"] = "on"
    boss.post(admin_url("league", league.pk, "change"), data)
    assert Player.objects.filter(league=league, name="Emil").exists()
    assert_pages_readable(boss, league)


def test_a_player_is_not_linked_to_an_account_in_the_admin(boss, meeting):
    league = meeting.league
    assert post_player_rows(boss, league, user=str(boss.user.pk)).status_code == 302
    assert not Player.objects.filter(league=league, user=boss.user).exists()
    assert_pages_readable(boss, league)


def test_the_meeting_stays_whole_after_any_of_these(boss, meeting):
    assert Meeting.objects.get(pk=meeting.pk).hands.count() == 1
    assert Invite.objects.count() == 0


@pytest.mark.parametrize(
    ("day", "time"), [("0001-01-01", "00:00:00"), ("9999-12-31", "23:59:59"), ("2000-01-01", "12:00:00")]
)
def test_an_invite_expires_between_its_making_and_a_year_ahead(boss, meeting, day, time):
    invite = clubs_services.create_invite(league=meeting.league, role=Role.MEMBER, player=None, user=None)
    url = admin_url("invite", invite.pk, "change")
    data = {**change_form(boss.get(url)), "expires_at_0": day, "expires_at_1": time}
    response = boss.post(url, data)
    assert response.status_code == 200 and "expires_at" in response.context["adminform"].form.errors
    assert Invite.objects.get(pk=invite.pk).expires_at == invite.expires_at
    assert_pages_readable(boss, meeting.league)


def test_an_invite_can_be_made_to_hold_longer_or_end_now(boss, meeting):
    invite = clubs_services.create_invite(league=meeting.league, role=Role.MEMBER, player=None, user=None)
    url = admin_url("invite", invite.pk, "change")
    for when in (timezone.localtime() + timedelta(days=200), timezone.localtime()):
        data = {**change_form(boss.get(url)), "expires_at_0": f"{when:%Y-%m-%d}", "expires_at_1": f"{when:%H:%M:%S}"}
        assert boss.post(url, data).status_code == 302
        assert Invite.objects.get(pk=invite.pk).expires_at == when.replace(microsecond=0)
