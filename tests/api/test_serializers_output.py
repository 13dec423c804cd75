"""What the API's meeting and stored hands look like: a deleted hand without a key, and a
closed evening's time in the current time zone."""

import datetime
import uuid

from django.utils import timezone

from leagues.api.serializers import MeetingOutputSerializer, StoredHandOutputSerializer


def test_a_deleted_hand_without_a_key():
    key = uuid.UUID("12345678-1234-5678-1234-567812345678")
    items = [
        {
            "id": 7,
            "number": None,
            "version": 3,
            "payload": {"kind": "normal"},
            "deleted": True,
            "idempotency_key": None,
        },
        {"id": 8, "number": 1, "version": 1, "payload": {"re": ["A", "B"]}, "deleted": False, "idempotency_key": key},
    ]
    assert StoredHandOutputSerializer(items, many=True).data == [
        {
            "id": 7,
            "number": None,
            "version": 3,
            "payload": {"kind": "normal"},
            "deleted": True,
            "idempotency_key": None,
        },
        {
            "id": 8,
            "number": 1,
            "version": 1,
            "payload": {"re": ["A", "B"]},
            "deleted": False,
            "idempotency_key": "12345678-1234-5678-1234-567812345678",
        },
    ]


def test_a_closed_meetings_time_is_written_in_the_current_time_zone():
    closed = datetime.datetime(2026, 11, 20, 23, 45, tzinfo=datetime.timezone.utc)
    item = {"id": 3, "date": datetime.date(2026, 11, 20), "season": 2, "players": ["Anna"], "hands": []}
    item.update(result={"game": "doppelkopf"}, closed_at=closed)
    with timezone.override("Europe/Berlin"):
        data = MeetingOutputSerializer(item).data
    assert data["closed_at"] == "2026-11-21T00:45:00+01:00"
    assert data["date"] == "2026-11-20"
