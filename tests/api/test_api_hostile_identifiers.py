"""Every number the hand API reads from a header, the body or the address is refused with a
400 naming its field (or a 404 for an address), never a 500: a version of 4,301 digits stops
Python's int() with its digit limit, and one beyond the column's range names no version."""

import json

import pytest

from leagues.models import Hand, Role
from scoring.limits import MAX_HANDS
from tests.factories import LeagueFactory, meeting_for, member

FIVE = ["Anna", "Ben", "Carl", "Dora", "Emil"]
HAND = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
KEY = "6f1c7a52-4f0e-4a8e-9a57-0d2f8a1c3b11"
# Python's digit limit is 4,300; 2**31 is one beyond a version's column on PostgreSQL.
HUGE = "1" * 4301
BEYOND_INT32 = str(2**31)


@pytest.fixture
def meeting(db):
    return meeting_for(LeagueFactory(slug="dk"), FIVE)


@pytest.fixture
def hand(client, meeting):
    client.force_login(member(meeting.league, Role.SCOREKEEPER))
    client.raise_request_exception = False
    response = send(client, "post", hands_url(meeting), {"payload": HAND, "number": 1})
    assert response.status_code == 201
    return Hand.objects.get(pk=response.json()["hand"]["id"])


def hands_url(meeting):
    return f"/api/v1/leagues/{meeting.league.slug}/meetings/{meeting.pk}/hands/"


def send(client, method, path, body=None, **headers):
    data = None if body is None else json.dumps(body)
    return getattr(client, method)(path, data=data, content_type="application/json", headers=headers)


def fields(response):
    return [error["field"] for error in response.json()["errors"]]


WRITES = {
    "correct": ("put", "", {"payload": HAND}),
    "delete": ("delete", "", None),
    "restore": ("post", "restore/", {}),
    "replace": ("post", "replace/", {"payload": HAND, "idempotency_key": KEY}),
}


@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize(
    "if_match",
    [HUGE, f'"{HUGE}"', f'W/"{HUGE}"', BEYOND_INT32, f'"{BEYOND_INT32}"', "9" * 19],
    ids=["4301-digits", "4301-digits-quoted", "4301-digits-weak", "2**31", "2**31-quoted", "19-digits"],
)
def test_it_refuses_an_if_match_beyond_any_version_naming_the_field(client, meeting, hand, write, if_match):
    method, suffix, body = WRITES[write]
    response = send(client, method, f"{hands_url(meeting)}{hand.pk}/{suffix}", body, **{"If-Match": if_match})
    assert response.status_code == 400
    assert fields(response) == ["version"]
    hand.refresh_from_db()
    assert (hand.version, hand.payload, hand.deleted_at) == (1, HAND, None)


@pytest.mark.parametrize("write", ["correct", "restore", "replace"])
@pytest.mark.parametrize(
    "version",
    [HUGE, BEYOND_INT32, 2**31, 2**63, 10**30],
    ids=["4301-digits-string", "2**31-string", "2**31", "2**63", "10**30"],
)
def test_it_refuses_a_version_field_beyond_the_column_naming_it(client, meeting, hand, write, version):
    method, suffix, body = WRITES[write]
    response = send(client, method, f"{hands_url(meeting)}{hand.pk}/{suffix}", {**body, "version": version})
    assert response.status_code == 400
    assert fields(response) == ["version"]
    hand.refresh_from_db()
    assert hand.version == 1


@pytest.mark.parametrize(
    "number",
    [HUGE, MAX_HANDS + 1, 2**31, 2**63, str(10**17)],
    ids=["4301-digits-string", "MAX_HANDS+1", "2**31", "2**63", "10**17-string"],
)
def test_it_refuses_a_hand_number_no_evening_reaches_naming_it(client, meeting, hand, number):
    response = send(client, "post", hands_url(meeting), {"payload": HAND, "number": number, "idempotency_key": KEY})
    assert response.status_code == 400
    assert fields(response) == ["number"]
    assert Hand.objects.count() == 1


@pytest.mark.parametrize("entered_as", [HUGE, MAX_HANDS + 1, 2**31], ids=["4301-digits-string", "MAX_HANDS+1", "2**31"])
def test_it_refuses_an_entered_as_no_evening_reaches_naming_it(client, meeting, hand, entered_as):
    body = {"payload": HAND, "version": 1, "idempotency_key": KEY, "entered_as": entered_as}
    response = send(client, "post", f"{hands_url(meeting)}{hand.pk}/replace/", body)
    assert response.status_code == 400
    assert fields(response) == ["entered_as"]


def test_a_body_number_of_4301_digits_is_refused_as_json(client, meeting, hand):
    # Python's JSON reader stops at the digit limit too: the body is no JSON it can read.
    body = '{"payload": {}, "number": ' + HUGE + "}"
    response = client.post(hands_url(meeting), data=body, content_type="application/json")
    assert response.status_code == 400
    assert Hand.objects.count() == 1


@pytest.mark.parametrize(
    "big", [HUGE, str(2**31), str(2**63), str(2**64)], ids=["4301-digits", "2**31", "2**63", "2**64"]
)
@pytest.mark.parametrize("where", ["meeting", "hand"])
@pytest.mark.parametrize("method", ["get", "post", "put", "delete"])
def test_an_id_beyond_any_row_in_the_address_is_a_404(client, meeting, hand, big, where, method):
    if where == "meeting":
        path = f"/api/v1/leagues/{meeting.league.slug}/meetings/{big}/hands/"
    else:
        path = f"{hands_url(meeting)}{big}/"
    body = None if method == "get" else {"payload": HAND, "version": 1, "idempotency_key": KEY}
    response = send(client, method, path, body, **{"If-Match": "1"})
    assert response.status_code in (404, 405)
    assert Hand.objects.count() == 1
