"""Who did what survives an export and an import as text: the activity page of an imported
league names the people of the file, not "the system", and a later export keeps them."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from leagues.management.commands.seed_demo import SLUG
from leagues.models import League, Role
from leagues.seasons import services
from leagues.stats import activity
from leagues.table import meetings
from tests.exchange.files import exported, imported
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    call_command("seed_demo", "--if-empty", stdout=StringIO())
    league = League.objects.get(slug=SLUG)
    admin = league.memberships.filter(role=Role.ADMIN).first().user
    season = league.seasons.get(number=1)
    services.reopen_season(season=season, user=admin, reason="Rechnung falsch")
    meeting = season.meetings.order_by("date").first()
    meetings.reopen_meeting(meeting=meeting, user=admin, reason="Tippfehler")
    meetings.close_meeting(meeting=meeting, user=admin)
    return league


def who_did_what(league):
    return [(str(e.what), e.who) for e in activity.activity_page(league=league, size=1000).events]


def copy_of(league, slug):
    data = exported(league)
    return imported(data, user=UserFactory(username=f"importer-{slug}"), name=slug, slug=slug)


def test_the_activity_of_an_imported_league_names_who_did_what(demo, client):
    original = who_did_what(demo)
    assert sum(1 for _what, who in original if who) > 100
    copied = copy_of(demo, "kopie")
    assert who_did_what(copied) == original
    client.force_login(copied.memberships.get().user)
    page = client.get(reverse("league_activity", kwargs={"slug": "kopie"})).content.decode()
    assert "by the system" not in page


def test_the_names_survive_a_second_round_trip(demo):
    second = copy_of(copy_of(demo, "kopie"), "kopie-2")
    assert who_did_what(second) == who_did_what(demo)


def test_reopening_an_imported_evening_keeps_who_had_closed_it(demo):
    copied = copy_of(demo, "kopie")
    importer = copied.memberships.get().user
    # The demo's first season was reopened (the fixture): its evenings can be reopened.
    meeting = copied.seasons.get(number=1).meetings.order_by("-date").first()
    closer = meeting.closed_by_name
    assert closer
    reopening = meetings.reopen_meeting(meeting=meeting, user=importer, reason="Tippfehler")
    assert reopening.was_closed_by_name == closer
    meeting.refresh_from_db()
    assert meeting.closed_by_name is None


def test_the_evening_history_and_the_bill_name_them_too(demo, client):
    copied = copy_of(demo, "kopie")
    client.force_login(copied.memberships.get().user)
    meeting = copied.seasons.get(number=1).meetings.order_by("date").first()
    history = client.get(reverse("meeting_history", kwargs={"slug": "kopie", "pk": meeting.pk})).content.decode()
    assert "by the system" not in history
    assert f"by {meeting.closed_by_name}" in history
    bill = client.get(reverse("season_bill", kwargs={"slug": "kopie", "number": 1})).content.decode()
    settled_by = copied.seasons.get(number=1).bills.get().settled_by_name
    assert settled_by and f"by {settled_by}" in bill and "by ?" not in bill
