"""After a league is imported, the importer says whom he plays as: one of the imported players
(his account is linked to that player, so the pages name him by it) or nobody. Only a league's
admin without a player of his own is asked; a player with an account is never offered."""

import json
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from leagues.management.commands.seed_demo import SLUG
from leagues.models import League, Player, Role
from leagues.seasons import services
from tests.exchange import files
from tests.exchange.files import exported
from tests.factories import LeagueFactory, UserFactory, member

pytestmark = pytest.mark.django_db


_DEMO_EXPORT = {}


@pytest.fixture
def export():
    """The demo league's export, as JSON would give it back; built once (seeding the demo takes
    seconds), each test gets a copy of its own."""
    if not _DEMO_EXPORT:
        call_command("seed_demo", "--if-empty", stdout=StringIO())
        _DEMO_EXPORT["file"] = json.dumps(exported(League.objects.get(slug=SLUG)))
    return json.loads(_DEMO_EXPORT["file"])


def upload(data):
    return SimpleUploadedFile("league.json", json.dumps(data).encode(), content_type="application/json")


def url(league):
    return reverse("league_plays_as", kwargs={"slug": league.slug})


@pytest.fixture
def imported(export):
    user = UserFactory(username="kassenwart")
    league = files.imported(export, user=user, name="Kopie", slug="kopie")
    return league, user


def test_the_import_asks_next_whom_the_importer_plays_as(client, export):
    user = UserFactory()
    client.force_login(user)
    response = client.post(reverse("league_import"), {"file": upload(export), "name": "Unser Stammtisch"})
    league = League.objects.get(name="Unser Stammtisch")
    assert response.status_code == 302 and response["Location"] == url(league)
    page = client.get(url(league)).content.decode()
    names = sorted(p["name"] for p in export["players"])
    for name in names:
        assert f"> {name}</label>" in page
    assert 'value="nobody"' in page


def test_the_importer_is_linked_to_the_player_he_chooses(client, imported):
    league, user = imported
    client.force_login(user)
    klaus = league.players.get(name="Klaus")
    response = client.post(url(league), {"player": str(klaus.pk)})
    assert response.status_code == 302 and response["Location"] == league.get_absolute_url()
    klaus.refresh_from_db()
    assert klaus.user == user
    # A bill he saves now is saved by Klaus, as the league knows him.
    season = league.seasons.get(number=1)
    services.reopen_season(season=season, user=user, reason="Rechnung neu")
    services.settle_bill(season=season, bill={"total": "100.00", "method": "equal"}, user=user)
    page = client.get(reverse("season_bill", kwargs={"slug": league.slug, "number": 1})).content.decode()
    assert "by Klaus" in page and "by ?" not in page and "by kassenwart" not in page
    # Asked once: the page now says whom he plays as and offers nothing to choose.
    page = client.get(url(league)).content.decode()
    assert "Klaus" in page and 'name="player"' not in page
    assert client.post(url(league), {"player": "nobody"}).status_code == 400
    klaus.refresh_from_db()
    assert klaus.user == user


def test_nobody_links_no_player(client, imported):
    league, user = imported
    client.force_login(user)
    response = client.post(url(league), {"player": "nobody"})
    assert response.status_code == 302
    assert not league.players.filter(user__isnull=False).exists()


def test_a_player_with_an_account_or_of_another_league_cannot_be_chosen(client, imported):
    league, user = imported
    taken = league.players.get(name="Birgit")
    taken.user = UserFactory()
    taken.save()
    client.force_login(user)
    page = client.get(url(league)).content.decode()
    assert "> Birgit</label>" not in page
    elsewhere = Player.objects.create(league=LeagueFactory(), name="Zora")
    for choice in (taken.pk, elsewhere.pk, "999999", "x"):
        response = client.post(url(league), {"player": str(choice)})
        assert response.status_code == 400
        assert response.context["form"].errors["player"]
    assert not league.players.filter(user=user).exists()


@pytest.mark.parametrize(("role", "status"), [(Role.MEMBER, 403), (Role.SCOREKEEPER, 403), (Role.ADMIN, 200)])
def test_only_an_admin_says_whom_he_plays_as(client, imported, role, status):
    league, _user = imported
    other = UserFactory()
    league.memberships.create(user=other, role=role)
    client.force_login(other)
    assert client.get(url(league)).status_code == status
    choice = str(league.players.get(name="Birgit").pk)
    assert client.post(url(league), {"player": choice}).status_code == (302 if role == Role.ADMIN else 403)
    assert league.players.filter(user=other).exists() == (role == Role.ADMIN)


def test_outsiders_are_not_asked(client, imported):
    league, _user = imported
    choice = {"player": str(league.players.get(name="Birgit").pk)}
    response = client.get(url(league))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert client.post(url(league), choice).status_code == 302
    client.force_login(member(LeagueFactory(), Role.ADMIN))
    assert client.get(url(league)).status_code == 404
    assert client.post(url(league), choice).status_code == 404
    assert not league.players.filter(user__isnull=False).exists()


def test_the_same_choice_sent_twice_links_once_and_answers_both(client, imported):
    league, user = imported
    client.force_login(user)
    klaus = league.players.get(name="Klaus")
    for _ in range(2):  # a double tap, or the form sent again from the browser's history
        response = client.post(url(league), {"player": str(klaus.pk)})
        assert response.status_code == 302 and response["Location"] == league.get_absolute_url()
    assert list(league.players.filter(user=user)) == [klaus]
