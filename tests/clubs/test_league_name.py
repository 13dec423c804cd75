"""A league's name heads every page, export and import of it: the characters a player's name
may not hold (zero-width spaces, bidi overrides, tabs, NUL) are refused at every door that
names a league: the new-league page, the import page and the Django admin."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from leagues.models import League, Role
from tests.admin_site.conftest import admin_url, change_form
from tests.exchange.files import exported
from tests.factories import LeagueFactory, UserFactory, member
from tests.infra.test_number_input import rules_post

pytestmark = pytest.mark.django_db

HIDDEN = ["Kreuz\u200bDame", "\u202eDame", "Kreuz\tDame", "Kreuz\x00Dame"]


@pytest.mark.parametrize("name", HIDDEN)
def test_the_new_league_page_refuses_an_invisible_character_in_the_name(client, name):
    client.force_login(UserFactory())
    league = League(game="doppelkopf", variant="club")
    data = {"name": name, "slug": "kreuz", "game": "doppelkopf", **rules_post(league)}
    response = client.post(reverse("league_create"), data)
    assert response.status_code == 400
    assert "name" in response.context["form"].errors
    assert not League.objects.filter(slug="kreuz").exists()


@pytest.mark.parametrize("name", HIDDEN)
def test_the_import_page_refuses_an_invisible_character_in_the_name(client, name):
    source = LeagueFactory(game="doppelkopf", variant="club")
    client.force_login(member(source, Role.ADMIN))
    upload = SimpleUploadedFile("league.json", json.dumps(exported(source)).encode(), content_type="application/json")
    response = client.post(reverse("league_import"), {"file": upload, "name": name, "slug": "kopie"})
    assert response.status_code == 400
    assert "name" in response.context["form"].errors
    assert not League.objects.filter(slug="kopie").exists()


def test_the_admin_refuses_an_invisible_character_in_the_name(client, django_user_model):
    league = LeagueFactory(game="doppelkopf", variant="club", name="Kreuz")
    client.force_login(django_user_model.objects.create_superuser("boss", "boss@example.org", "x-Pa55word-x"))
    data = change_form(client.get(admin_url("league", league.pk, "change")))
    data["name"] = "Kreuz\u200bDame"
    response = client.post(admin_url("league", league.pk, "change"), data)
    assert response.status_code == 200
    assert "name" in response.context["adminform"].form.errors
    assert League.objects.get(pk=league.pk).name == "Kreuz"


def test_a_plain_name_with_an_umlaut_is_taken(client):
    client.force_login(UserFactory())
    league = League(game="doppelkopf", variant="club")
    data = {"name": "Kreuz Dame Köln", "slug": "kreuz", "game": "doppelkopf", **rules_post(league)}
    response = client.post(reverse("league_create"), data)
    assert response.status_code == 302
    assert League.objects.get(slug="kreuz").name == "Kreuz Dame Köln"
