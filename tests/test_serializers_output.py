"""The API's list of stored hands, written out directly (leagues/serializers.py, issue 12),
gives what DRF's field-by-field serializer gives for the same hands."""

import uuid

from hypothesis import given
from hypothesis import strategies as st

from leagues.serializers import StoredHandOutputSerializer

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
