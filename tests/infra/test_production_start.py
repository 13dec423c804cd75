"""Production start: `collectstatic` with the manifest storage, then pages with debug off.

The suite serves static files straight from the source folders (tests/settings.py), but
production serves the hashed copies `collectstatic` writes, and with debug off a page that names
a file missing from the manifest is a 500. So this builds the manifest once into a temporary
STATIC_ROOT and renders every page kind that names static files: `make test` then catches a
broken manifest (a vendored file naming a source map we do not ship aborted `collectstatic`).
`.ci/production-check` runs the README's steps for real, with gunicorn.

Django's ManifestStaticFilesStorage is used rather than whitenoise's compressed subclass:
hashing and the manifest are Django's, and compressing 5 MB of API-docs bundles would triple
the time of this test without checking anything more about the manifest.
"""

import re

import pytest
from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from leagues.clubs import services as clubs_services
from leagues.models import Role
from leagues.table import services as table_services
from tests.factories import LeagueFactory, UserFactory, meeting_for, member
from tests.table.test_views_meetings import NAMES, normal

MANIFEST_STORAGES = {
    **settings.STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
}


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    root = tmp_path_factory.mktemp("staticfiles")
    with override_settings(STATIC_ROOT=root, STORAGES=MANIFEST_STORAGES, DEBUG=False):
        call_command("collectstatic", "--noinput", verbosity=0)
        yield root


@pytest.fixture
def league(db):
    league = LeagueFactory(game="doppelkopf", variant="club")
    clubs_services.set_public_link(league=league, enabled=True)
    return league


@pytest.fixture
def meeting(league):
    meeting = meeting_for(league, NAMES)
    table_services.enter_hand(meeting=meeting, payload=normal(), by=None)
    return meeting


def static_urls(page):
    return set(re.findall(r"""(?:src|href)="(/static/[^"]+)\"""", page))


def assert_served_hashed(collected, response):
    """200, and every static file the page names is a hashed copy that collectstatic wrote."""
    assert response.status_code == 200, response.content[:500]
    urls = static_urls(response.content.decode())
    assert urls, "the page names no static file"
    for url in urls:
        name = url.removeprefix(settings.STATIC_URL if settings.STATIC_URL.startswith("/") else "/static/")
        assert re.search(r"\.[0-9a-f]{12}\.", name), f"{url} is not a hashed name"
        assert (collected / name).is_file(), f"{url} is not in STATIC_ROOT"


def test_it_collects_static_files_into_a_manifest(collected):
    assert (collected / "staticfiles.json").is_file()
    assert staticfiles_storage.url("vendor/chart-4.6.1.umd.min.js") != "/static/vendor/chart-4.6.1.umd.min.js"


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["home", "login", "admin:login", "api_docs"])
def test_it_renders_the_anonymous_pages_with_hashed_static_files(collected, client, name):
    assert not settings.DEBUG
    assert_served_hashed(collected, client.get(reverse(name)))


def test_it_renders_a_members_pages_with_hashed_static_files(collected, client, league, meeting):
    client.force_login(member(league, Role.ADMIN))
    hand = meeting.hands.get()
    for url in [
        reverse("league", kwargs={"slug": league.slug}),
        reverse("meeting", kwargs={"slug": league.slug, "pk": meeting.pk}),
        reverse("hand_why", kwargs={"slug": league.slug, "pk": meeting.pk, "hand_pk": hand.pk}),
        reverse("standings", kwargs={"slug": league.slug}),
    ]:
        assert_served_hashed(collected, client.get(url))


def test_it_renders_the_admin_and_the_public_page_with_hashed_static_files(collected, client, league, meeting):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert_served_hashed(collected, client.get(reverse("admin:index")))
    assert_served_hashed(collected, client.get(reverse("public_standings", kwargs={"token": league.public_token})))


@pytest.mark.django_db
def test_it_answers_an_unknown_address_with_the_404_page(collected, client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert static_urls(response.content.decode()), "the 404 page is the site's own, with its stylesheet"
