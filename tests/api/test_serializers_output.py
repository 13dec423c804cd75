"""The API's list of stored hands and its meeting, written out directly
(leagues/api/serializers.py, issue 12), give what DRF's field-by-field serializer gives for the
same data."""

import datetime
import json
import uuid

from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st
from rest_framework import serializers

from leagues.api.serializers import MeetingHandOutputSerializer, MeetingOutputSerializer, StoredHandOutputSerializer

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
hands = st.fixed_dictionaries(
    {
        "id": st.integers(min_value=1, max_value=2**40),
        "number": st.none() | st.integers(min_value=1, max_value=500),
        "version": st.integers(min_value=1, max_value=1000),
        "payload": st.none() | st.dictionaries(st.text(max_size=6), json_values, max_size=5),
        "deleted": st.booleans(),
        "idempotency_key": st.none() | st.uuids() | st.uuids().map(str),
    }
)


def drf_way(items):
    return [StoredHandOutputSerializer().to_representation(item) for item in items]


@given(st.lists(hands, max_size=6))
def test_it_writes_the_hands_as_drf_does(items):
    assert StoredHandOutputSerializer(items, many=True).data == drf_way(items)


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


results = st.dictionaries(st.sampled_from(["game", "parties", "totals", "hands", "next"]), json_values, max_size=5)
meetings = st.fixed_dictionaries(
    {
        "id": st.integers(min_value=1, max_value=2**40),
        "date": st.dates(min_value=datetime.date(1990, 1, 1), max_value=datetime.date(2100, 12, 31)),
        "season": st.integers(min_value=1, max_value=99),
        "players": st.lists(st.text(min_size=1, max_size=8), max_size=6),
        "hands": st.lists(hands, max_size=4),
        "result": results,
        "closed_at": st.none()
        | st.datetimes(
            min_value=datetime.datetime(2000, 1, 1),
            max_value=datetime.datetime(2100, 1, 1),
            timezones=st.just(datetime.timezone.utc),
        ),
    }
)


def drf_meeting(serializer_class, item):
    """DRF's own Serializer.to_representation, field by field (the hands too: the list
    serializer's own way is held to DRF's above)."""
    data = serializers.Serializer.to_representation(serializer_class(), item)
    data["hands"] = drf_way(item["hands"])
    return data


@given(meetings)
def test_it_writes_the_meeting_as_drf_does(item):
    assert MeetingOutputSerializer(item).data == drf_meeting(MeetingOutputSerializer, item)


@given(meetings, hands)
def test_it_writes_the_meeting_with_its_hand_as_drf_does(item, hand):
    item = {**item, "hand": hand}
    written = MeetingHandOutputSerializer(item).data
    assert written == drf_meeting(MeetingHandOutputSerializer, item)
    # The same JSON, keys in the same order.
    assert json.dumps(written) == json.dumps(drf_meeting(MeetingHandOutputSerializer, item))


def test_a_closed_meetings_time_is_written_in_the_current_time_zone():
    closed = datetime.datetime(2026, 11, 20, 23, 45, tzinfo=datetime.timezone.utc)
    item = {"id": 3, "date": datetime.date(2026, 11, 20), "season": 2, "players": ["Anna"], "hands": []}
    item.update(result={"game": "doppelkopf"}, closed_at=closed)
    with timezone.override("Europe/Berlin"):
        data = MeetingOutputSerializer(item).data
    assert data["closed_at"] == "2026-11-21T00:45:00+01:00"
    assert data["date"] == "2026-11-20"
