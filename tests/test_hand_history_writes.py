"""The entry and the correction write the hand and its history record by SQL of their own
(services._write_hand, issue 12): the record is what django-simple-history writes for a save
(its deletion, still a save(), is the yardstick here), and the hand is what save() stores."""

import datetime

import pytest
from django.db import IntegrityError, transaction

from leagues import services
from leagues.models import Hand, MeetingCarry, Role
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db

BEN_DORA = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
ANNA_CARL = {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 150}
HISTORY = ("id", "position", "number", "version", "idempotency_key", "payload", "meeting_id", "entered_by_id")


def test_an_entry_and_a_correction_leave_the_records_a_save_leaves():
    league = LeagueFactory(game="doppelkopf", variant="club")
    keeper = member(league, Role.SCOREKEEPER)
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"], date=datetime.date(2026, 11, 20))
    hand = services.add_hand(
        meeting=meeting, payload=BEN_DORA, user=keeper, idempotency_key="6f1c2e4a-0b7d-4c55-9d8e-3a2b1c0d9e8f"
    )
    stored = Hand.objects.get(pk=hand.pk)
    assert (stored.number, stored.position, stored.version, stored.payload) == (1, 1, 1, BEN_DORA)
    assert stored.entered_by == keeper and stored.entered_at == stored.changed_at == hand.entered_at
    assert str(stored.idempotency_key) == "6f1c2e4a-0b7d-4c55-9d8e-3a2b1c0d9e8f"

    services.change_hand(hand=stored, payload=ANNA_CARL, user=keeper, version=1)
    corrected = Hand.objects.get(pk=hand.pk)
    assert (corrected.version, corrected.payload, corrected.number) == (2, ANNA_CARL, 1)
    assert corrected.changed_at > corrected.entered_at == stored.entered_at

    services.delete_hand(hand=corrected, user=keeper, version=2)  # save(): simple_history's record
    entered, changed, deleted = corrected.history.order_by("history_id")
    assert [r.history_type for r in (entered, changed, deleted)] == ["+", "~", "~"]
    for record in (entered, changed, deleted):
        assert record.history_user == keeper and record.history_change_reason is None
        assert record.history_date >= record.changed_at  # taken together (save: a moment after)
    assert [getattr(entered, name) for name in HISTORY] == [getattr(stored, name) for name in HISTORY]
    assert [getattr(changed, name) for name in HISTORY] == [getattr(corrected, name) for name in HISTORY]
    assert (changed.entered_at, changed.changed_at) == (corrected.entered_at, corrected.changed_at)
    # The yardstick: the same columns set, the same kinds of value, by simple_history's save.
    assert deleted.number is None and deleted.deleted_at is not None and deleted.version == 3
    assert [getattr(deleted, name) for name in HISTORY if name not in ("number", "version")] == [
        getattr(changed, name) for name in HISTORY if name not in ("number", "version")
    ]


def test_a_hand_of_a_number_taken_is_refused_by_the_database_as_by_save():
    league = LeagueFactory(game="doppelkopf", variant="club")
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"], date=datetime.date(2026, 11, 20))
    first = services.add_hand(meeting=meeting, payload=BEN_DORA, user=None)
    twin = Hand(meeting=meeting, position=2, number=first.number, payload=BEN_DORA)
    with pytest.raises(IntegrityError), transaction.atomic():
        services._write_hand(twin)
    assert Hand.objects.filter(meeting=meeting).count() == 1


def test_statements_sent_together_fail_as_djangos_errors_and_leave_nothing():
    # services._sent_together (PostgreSQL's pipeline; SQLite one by one): an error of any
    # statement inside is Django's IntegrityError, at the latest at the block's end.
    league = LeagueFactory(game="doppelkopf", variant="club")
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"], date=datetime.date(2026, 11, 20))
    MeetingCarry.objects.filter(meeting=meeting).delete()
    twice = [MeetingCarry(meeting=meeting), MeetingCarry(meeting=meeting)]
    with pytest.raises(IntegrityError), transaction.atomic(), services._sent_together():
        services._insert_rows(MeetingCarry, [MeetingCarry(meeting=meeting)])
        services._insert_rows(MeetingCarry, twice)
    assert not MeetingCarry.objects.filter(meeting=meeting).exists()
    with transaction.atomic(), services._sent_together():
        services._insert_rows(MeetingCarry, twice[:1])
    assert MeetingCarry.objects.filter(meeting=meeting).count() == 1
