"""The entry, the correction and the deletion of a hand each leave a history record of the hand
as it was saved, by whom; a second live hand of one number is refused by the database."""

import datetime

import pytest
from django.db import IntegrityError, transaction

from leagues.models import Hand, Role
from leagues.table import services
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db

BEN_DORA = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
ANNA_CARL = {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 150}
HISTORY = ("id", "position", "number", "version", "idempotency_key", "payload", "meeting_id", "entered_by_id")


def test_an_entry_and_a_correction_leave_the_records_a_save_leaves():
    league = LeagueFactory(game="doppelkopf", variant="club")
    keeper = member(league, Role.SCOREKEEPER)
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"], date=datetime.date(2026, 11, 20))
    hand = services.enter_hand(
        meeting=meeting, payload=BEN_DORA, by=keeper, key="6f1c2e4a-0b7d-4c55-9d8e-3a2b1c0d9e8f"
    ).hand
    stored = Hand.objects.get(pk=hand.pk)
    assert (stored.number, stored.position, stored.version, stored.payload) == (1, 1, 1, BEN_DORA)
    assert stored.entered_by == keeper and stored.entered_at == hand.entered_at
    assert str(stored.idempotency_key) == "6f1c2e4a-0b7d-4c55-9d8e-3a2b1c0d9e8f"

    services.change_hand(hand=stored, payload=ANNA_CARL, by=keeper, version=1)
    corrected = Hand.objects.get(pk=hand.pk)
    assert (corrected.version, corrected.payload, corrected.number) == (2, ANNA_CARL, 1)
    assert corrected.changed_at > corrected.entered_at == stored.entered_at

    services.delete_hand(hand=corrected, by=keeper, version=2)
    entered, changed, deleted = corrected.history.order_by("history_id")
    assert [r.history_type for r in (entered, changed, deleted)] == ["+", "~", "~"]
    for record in (entered, changed, deleted):
        assert record.history_user == keeper and record.history_change_reason is None
        assert record.history_date >= record.changed_at
    assert [getattr(entered, name) for name in HISTORY] == [getattr(stored, name) for name in HISTORY]
    assert [getattr(changed, name) for name in HISTORY] == [getattr(corrected, name) for name in HISTORY]
    assert (changed.entered_at, changed.changed_at) == (corrected.entered_at, corrected.changed_at)
    assert deleted.number is None and deleted.deleted_at is not None and deleted.version == 3
    assert [getattr(deleted, name) for name in HISTORY if name not in ("number", "version")] == [
        getattr(changed, name) for name in HISTORY if name not in ("number", "version")
    ]


def test_a_hand_of_a_number_taken_is_refused_by_the_database_as_by_save():
    league = LeagueFactory(game="doppelkopf", variant="club")
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"], date=datetime.date(2026, 11, 20))
    first = services.enter_hand(meeting=meeting, payload=BEN_DORA, by=None).hand
    twin = Hand(meeting=meeting, position=2, number=first.number, payload=BEN_DORA)
    with pytest.raises(IntegrityError), transaction.atomic():
        twin.save()
    assert Hand.objects.filter(meeting=meeting).count() == 1
