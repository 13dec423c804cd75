"""A hand a guest scorer entered (leagues/table/scorer_links.py) in a league's data out and
in: the export names the guest as the hand's history names him, and the copy's history says
"Guest: Jonas" as the original's does. The links themselves stay out: each is a way into one
evening of this site, of no use anywhere else."""

import pytest
from django.utils import timezone

from leagues.models import Role
from leagues.table import hand_history, scorer_links, services
from tests.exchange.files import exported, imported
from tests.factories import LeagueFactory, UserFactory, meeting_for, member

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]
PAYLOAD = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131, "announcements": [], "specials": []}


def guest_names(meeting):
    return [entry["by"] for entry in hand_history.evening_history(meeting=meeting)]


def test_a_guests_hand_keeps_his_name_through_the_round_trip():
    league = LeagueFactory()
    member(league, Role.ADMIN)
    meeting = meeting_for(league, NAMES, date=timezone.localdate())
    link = scorer_links.make_link(meeting=meeting, name="Jonas", by=None)
    services.enter_hand(meeting=meeting, payload=PAYLOAD, by=None, guest=link, number=1)
    assert [str(by) for by in guest_names(meeting)] == ["Guest: Jonas"]
    export = exported(league)
    (record,) = export["meetings"][0]["hands"][0]["history"]
    assert (record["by"], record["reason"]) == ("Jonas", f"guest:{link.pk}")
    assert "scorer" not in str(export).lower()
    copied = imported(export, user=UserFactory(username="neu"), name="Kopie", slug="kopie")
    assert [str(by) for by in guest_names(copied.meetings.get())] == ["Guest: Jonas"]
