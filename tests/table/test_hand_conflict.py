"""Two phones at once: two scorekeepers enter the next hand of the same meeting at the same
moment. One is saved; the other is told "someone just entered hand N" with the sheet
refreshed. Never a duplicate, never a lost hand."""

import threading

import pytest
from django.db import connection
from django.urls import reverse

from leagues import exceptions
from leagues.models import Hand, HandResult, Role
from leagues.table import services
from tests.factories import LeagueFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]
FIRST = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131, "announcements": [], "specials": []}
OTHER = {"kind": "normal", "re": ["Carl", "Emil"], "re_eyes": 100, "announcements": [], "specials": []}


@pytest.fixture
def setup(db):
    league = LeagueFactory()
    return meeting_for(league, NAMES), member(league, Role.SCOREKEEPER), member(league, Role.SCOREKEEPER)


def test_it_saves_one_of_two_hands_entered_with_the_same_number(setup):
    meeting, first, second = setup
    services.enter_hand(meeting=meeting, payload=FIRST, by=first, number=1)
    with pytest.raises(exceptions.HandConflict) as caught:
        services.enter_hand(meeting=meeting, payload=OTHER, by=second, number=1)
    assert caught.value.number == 1
    assert list(meeting.hands.values_list("payload", flat=True)) == [FIRST]
    assert HandResult.objects.filter(meeting=meeting).count() == 5


def test_it_answers_the_second_phone_with_409_and_the_refreshed_sheet(client, setup):
    meeting, first, second = setup
    target = reverse("hand_add_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    post = {"expected_hand": "1", "kind": "normal", "re": ["Ben", "Dora"], "eyes": "131", "eyes_for": "re"}
    client.force_login(first)
    assert client.post(target, post, HTTP_HX_REQUEST="true").status_code == 200
    client.force_login(second)
    other = {**post, "re": ["Carl", "Emil"], "eyes": "100"}
    response = client.post(target, other, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert response["HX-Retarget"] == "#at-table"
    html = response.content.decode()
    assert "Someone just entered hand 1." in html
    assert 'id="hand-1"' in html  # the sheet, refreshed
    assert "Enter hand 2" in html and 'name="expected_hand" value="2"' in html
    # What the second phone typed is still in the form, to save as hand 2 if it was another game.
    assert 'value="Carl" checked' in html and 'value="100"' in html
    assert meeting.hands.count() == 1


def test_it_never_saves_a_double_tap_twice(client, setup):
    meeting, first, _second = setup
    target = reverse("hand_add_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    post = {"expected_hand": "1", "kind": "normal", "re": ["Ben", "Dora"], "eyes": "131", "eyes_for": "re"}
    client.force_login(first)
    assert client.post(target, post).status_code == 302
    response = client.post(target, post)
    assert response.status_code == 409
    assert "Someone just entered hand 1." in response.content.decode()
    assert meeting.hands.count() == 1


@pytest.mark.django_db(transaction=True)
def test_it_saves_one_of_two_racing_phones_on_postgresql():
    """Two threads, two database connections, the same expected hand number at the same
    moment: the meeting row lock lets one in; the other sees the hand and gets HandConflict."""
    if connection.vendor != "postgresql":
        pytest.skip("a real race needs PostgreSQL's row locks (set DATABASE_URL)")
    league = LeagueFactory()
    meeting = meeting_for(league, NAMES)
    users = [member(league, Role.SCOREKEEPER), member(league, Role.SCOREKEEPER)]
    barrier = threading.Barrier(2)
    outcomes = []

    def phone(user, payload):
        try:
            barrier.wait()
            services.enter_hand(meeting=meeting, payload=payload, by=user, number=1)
            outcomes.append("saved")
        except exceptions.HandConflict as conflict:
            outcomes.append(f"conflict {conflict.number}")
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=(u, p)) for u, p in zip(users, (FIRST, OTHER), strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["conflict 1", "saved"]
    assert Hand.objects.filter(meeting=meeting).count() == 1
    assert HandResult.objects.filter(meeting=meeting).count() == 5
