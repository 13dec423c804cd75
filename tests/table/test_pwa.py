"""The installable app's files answer as a browser needs them."""

import json

import pytest
from django.test import override_settings
from django.urls import reverse

from leagues.models import Role
from tests.factories import LeagueFactory, meeting_for, member


@pytest.mark.django_db
def test_the_service_worker_is_served_from_the_root_for_the_whole_site(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    # Never pinned by a cache: a new version must reach the phones at once.
    assert "no-cache" in response["Cache-Control"] and "max-age=0" in response["Cache-Control"]
    body = response.content.decode()
    assert reverse("offline") in body and "/static/js/outbox.js" in body
    assert "{%" not in body and "__SW_VERSION__" not in body


@pytest.mark.django_db
def test_a_new_revision_changes_the_worker_so_browsers_install_it(client):
    first = client.get("/sw.js").content
    assert client.get("/sw.js").content == first
    with override_settings(KARTENLIGA_SW_REVISION="2"):
        assert client.get("/sw.js").content != first


@pytest.mark.django_db
def test_the_manifest_names_the_app_its_icons_and_my_leagues_as_start(client):
    response = client.get(reverse("web_manifest"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/manifest+json")
    data = json.loads(response.content)
    assert data["name"] == "Kartenliga"
    assert data["start_url"] == reverse("home") == "/"
    assert data["theme_color"] == "#14532d"
    assert data["display"] == "standalone"
    sizes = {icon["sizes"] for icon in data["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200


@pytest.mark.django_db
def test_the_offline_page_answers_without_a_login(client):
    response = client.get(reverse("offline"))
    assert response.status_code == 200
    assert b"data-offline-pages" in response.content


@pytest.mark.django_db
def test_every_page_links_the_manifest_and_registers_the_worker(client):
    body = client.get(reverse("login")).content.decode()
    assert f'rel="manifest" href="{reverse("web_manifest")}"' in body
    assert 'data-sw="/sw.js"' in body


@pytest.mark.django_db
def test_the_policy_allows_our_own_worker_and_manifest(client):
    policy = client.get(reverse("login"))["Content-Security-Policy"]
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy


@pytest.mark.django_db
def test_the_meeting_page_has_the_outbox_for_a_scorekeeper_only(client):
    league = LeagueFactory(slug="outbox", game="doppelkopf", variant="club")
    keeper = member(league, Role.SCOREKEEPER, username="keeper")
    reader = member(league, Role.MEMBER, username="reader")
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"])
    client.force_login(keeper)
    body = client.get(meeting.get_absolute_url()).content.decode()
    assert f'data-outbox="{meeting.pk}"' in body
    assert reverse("hand_add_hx", kwargs={"slug": league.slug, "pk": meeting.pk}) in body
    client.force_login(reader)
    assert "data-outbox=" not in client.get(meeting.get_absolute_url()).content.decode()
