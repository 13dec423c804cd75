"""``raw_reads.json_value``: a JSON column read by orjson where that gives what the field's own
``from_db_value`` (json) gives, value and type, and by the field everywhere else (issue 12)."""

import json

import pytest
from django.db import connection
from hypothesis import given
from hypothesis import strategies as st

from leagues import raw_reads, selectors
from leagues.models import Hand, Meeting
from tests.factories import LeagueFactory, meeting_for

PAYLOAD = Hand._meta.get_field("payload")


def same(a, b):
    """Equal and of the same types all the way down (1 == 1.0 == True in Python)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and a != a:  # NaN
        return b != b
    return a == b


def both(text):
    return raw_reads.json_value(PAYLOAD, text, None, connection), PAYLOAD.from_db_value(text, None, connection)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()  # beyond 64 bits too: orjson would read those as floats
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


@given(json_values, st.booleans())
def test_it_reads_any_json_as_the_field_does(value, ascii_only):
    ours, theirs = both(json.dumps(value, ensure_ascii=ascii_only))
    assert same(ours, theirs)


@pytest.mark.parametrize(
    "text",
    [
        "123456789012345678901234567890",  # an integer beyond 64 bits: orjson gives a float
        '{"eyes": -99999999999999999999}',
        "18446744073709551615",
        "0.1234567890123456789012",
        "NaN",
        "[Infinity, -Infinity]",
        "1e400",
        '"\\ud800"',  # a lone surrogate: json reads it, orjson refuses it
        "not json at all",
        '{"a": 1, "a": 2}',
        "",
    ],
)
def test_what_orjson_reads_otherwise_or_refuses_is_read_by_the_field(text):
    ours, theirs = both(text)
    assert same(ours, theirs)


def test_a_value_that_is_not_text_goes_to_the_field():
    assert raw_reads.json_value(PAYLOAD, None, None, connection) is None
    assert raw_reads.json_value(PAYLOAD, b'{"a": 1}', None, connection) == PAYLOAD.from_db_value(
        b'{"a": 1}', None, connection
    )


def test_a_field_with_its_own_decoder_reads_through_it():
    class Decoder(json.JSONDecoder):
        def __init__(self, **kwargs):
            super().__init__(parse_int=lambda text: f"int {text}", **kwargs)

    field = Meeting._meta.get_field("rules").clone()
    field.decoder = Decoder
    assert raw_reads.json_value(field, '{"n": 7}', None, connection) == {"n": "int 7"}


@pytest.mark.django_db
def test_the_sheets_hands_and_a_meetings_rules_come_as_the_orm_reads_them():
    meeting = meeting_for(LeagueFactory(), ["Anna", "Ben", "Carl", "Dora"])
    Meeting.objects.filter(pk=meeting.pk).update(rules={"limit": 2**70, "bock": {"after": [1.5, None, "ä"]}})
    Hand.objects.create(meeting=meeting, position=1, number=1, payload={"kind": "normal", "big": -(2**65), "x": 0.5})
    (hand,) = selectors.meeting_hands(meeting=Meeting.objects.get(pk=meeting.pk), entered_by=False)
    assert same(hand.payload, Hand.objects.get(meeting=meeting).payload)
    found = selectors.meeting_of(pk=meeting.pk, league_id=meeting.league_id)
    assert same(found.rules, Meeting.objects.get(pk=meeting.pk).rules)
    assert found.rules["limit"] == 2**70 and type(found.rules["limit"]) is int
