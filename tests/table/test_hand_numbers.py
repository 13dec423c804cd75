"""The database itself refuses two live hands of one number in a meeting (a partial unique
index, on SQLite and PostgreSQL alike: CI runs this module on both), and a live hand without
its number. Deleted hands have no number, so any number of them can sit beside live ones."""

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from leagues import exceptions
from leagues.models import Hand, Role
from leagues.table import services
from tests.factories import LeagueFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]
HAND = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131, "announcements": [], "specials": []}


@pytest.fixture
def meeting(db):
    return meeting_for(LeagueFactory(game="doppelkopf", variant="club"), NAMES)


def test_it_refuses_a_second_live_hand_with_the_same_number(meeting):
    Hand.objects.create(meeting=meeting, position=1, number=1, payload=HAND)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(meeting=meeting, position=2, number=1, payload=HAND)
    assert meeting.hands.count() == 1


def test_it_refuses_to_bring_back_a_hand_over_a_live_one_of_its_number(meeting):
    """What the tester's race did: a deleted hand saved live again with a number taken since."""
    Hand.objects.create(meeting=meeting, position=1, number=None, deleted_at=timezone.now(), payload=HAND)
    Hand.objects.create(meeting=meeting, position=2, number=1, payload=HAND)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.filter(position=1).update(deleted_at=None, number=1)


def test_it_refuses_a_live_hand_without_a_number(meeting):
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(meeting=meeting, position=1, number=None, payload=HAND)


def test_deleted_hands_and_other_meetings_do_not_count(meeting):
    other = meeting_for(meeting.league, NAMES)
    Hand.objects.create(meeting=meeting, position=1, number=None, deleted_at=timezone.now(), payload=HAND)
    Hand.objects.create(meeting=meeting, position=2, number=None, deleted_at=timezone.now(), payload=HAND)
    Hand.objects.create(meeting=meeting, position=3, number=1, payload=HAND)
    Hand.objects.create(meeting=other, position=1, number=1, payload=HAND)
    assert Hand.objects.filter(number=1).count() == 2


def test_a_hand_entered_twice_with_one_number_is_a_conflict_not_a_duplicate(meeting):
    user = member(meeting.league, Role.SCOREKEEPER)
    services.enter_hand(meeting=meeting, payload=HAND, by=user, number=1)
    with pytest.raises(exceptions.HandConflict):
        services.enter_hand(meeting=meeting, payload=HAND, by=user, number=1)
    assert list(meeting.hands.values_list("number", flat=True)) == [1]
