"""A client that sends a hand again (its answer was lost) never enters it twice. An append
names the hand's number or an idempotency key (a 400 without either); the same key with the
payload it was entered with answers with that hand as it is now (200), whatever was
corrected, deleted or replaced since: a client that read a 409 there would enter it anew."""

import json
import uuid

import pytest

from leagues.models import Hand, Role
from tests.factories import LeagueFactory, meeting_for, member

FIVE = ["Anna", "Ben", "Carl", "Dora", "Emil"]
# Anna deals and sits out; Ben and Dora win with 131 eyes.
HAND = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
CORRECTED = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 151}
OTHER = {"kind": "normal", "re": ["Carl", "Emil"], "re_eyes": 131}
KEY = "6f1c7a52-4f0e-4a8e-9a57-0d2f8a1c3b11"


@pytest.fixture
def meeting(db):
    return meeting_for(LeagueFactory(slug="dk"), FIVE)


@pytest.fixture
def api(client, meeting):
    client.force_login(member(meeting.league, Role.SCOREKEEPER))
    return client


def hands_url(meeting, suffix=""):
    return f"/api/v1/leagues/{meeting.league.slug}/meetings/{meeting.pk}/hands/{suffix}"


def send(client, method, path, body=None, **headers):
    data = None if body is None else json.dumps(body)
    return getattr(client, method)(path, data=data, content_type="application/json", headers=headers)


def enter(client, meeting, body, **headers):
    return send(client, "post", hands_url(meeting), body, **headers)


# --- an append names its number or a key ------------------------------------------------------


def test_an_append_without_number_and_key_is_a_400_naming_the_key(api, meeting):
    response = enter(api, meeting, {"payload": HAND})
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [e["field"] for e in errors] == ["idempotency_key"]
    assert "number" in errors[0]["message"] and "idempotency key" in errors[0]["message"]
    assert not Hand.objects.exists()


@pytest.mark.parametrize(
    "body, headers",
    [
        ({"payload": HAND, "number": 1}, {}),
        ({"payload": HAND, "idempotency_key": KEY}, {}),
        ({"payload": HAND}, {"Idempotency-Key": KEY}),
        ({"payload": HAND, "number": 1, "idempotency_key": KEY}, {}),
    ],
    ids=["number", "key", "key-header", "both"],
)
def test_an_append_with_its_number_or_a_key_is_entered(api, meeting, body, headers):
    assert enter(api, meeting, body, **headers).status_code == 201
    assert Hand.objects.count() == 1


def test_the_schema_says_one_of_them_is_required(api):
    schema = api.get("/api/v1/schema/", headers={"Accept": "application/json"}).json()
    fields = schema["components"]["schemas"]["HandInputRequest"]["properties"]
    assert "idempotency_key" in fields["number"]["description"]
    assert "number" in fields["idempotency_key"]["description"]
    assert (
        "without either, 400" in schema["paths"]["/api/v1/leagues/{slug}/meetings/{id}/hands/"]["post"]["description"]
    )


# --- a key sent again: the hand as it is now ----------------------------------------------------


def entered(api, meeting):
    response = enter(api, meeting, {"payload": HAND, "number": 1, "idempotency_key": KEY})
    assert response.status_code == 201
    return response.json()["hand"]["id"]


def replayed(api, meeting, *, number=1):
    """The first request sent again, byte for byte."""
    response = enter(api, meeting, {"payload": HAND, "number": number, "idempotency_key": KEY})
    assert response.status_code == 200, response.json()
    return response.json()["hand"]


def test_a_retry_after_a_correction_answers_with_the_corrected_hand(api, meeting):
    pk = entered(api, meeting)
    assert send(api, "put", hands_url(meeting, f"{pk}/"), {"payload": CORRECTED, "version": 1}).status_code == 200
    hand = replayed(api, meeting)
    assert (hand["id"], hand["version"], hand["payload"], hand["deleted"]) == (pk, 2, CORRECTED, False)
    assert Hand.objects.count() == 1


def test_a_retry_after_a_deletion_answers_with_the_deleted_hand(api, meeting):
    pk = entered(api, meeting)
    assert send(api, "delete", hands_url(meeting, f"{pk}/"), **{"If-Match": '"1"'}).status_code == 200
    hand = replayed(api, meeting)
    assert (hand["id"], hand["version"], hand["deleted"], hand["number"]) == (pk, 2, True, None)
    assert Hand.objects.count() == 1 and not Hand.objects.live().exists()


def test_a_retry_after_a_replacement_answers_with_the_hand_that_replaced_it(api, meeting):
    pk = entered(api, meeting)
    body = {"payload": OTHER, "version": 1, "idempotency_key": str(uuid.uuid4()), "entered_as": 1}
    assert send(api, "post", hands_url(meeting, f"{pk}/replace/"), body).status_code == 200
    hand = replayed(api, meeting)
    assert (hand["id"], hand["payload"]) == (pk, OTHER)
    assert Hand.objects.count() == 1


def test_a_retry_after_a_correction_and_later_hands_answers_with_the_hand(api, meeting):
    pk = entered(api, meeting)
    send(api, "put", hands_url(meeting, f"{pk}/"), {"payload": CORRECTED, "version": 1})
    # Ben deals and sits out.
    assert enter(api, meeting, {"payload": OTHER, "number": 2, "idempotency_key": str(uuid.uuid4())}).status_code == 201
    hand = replayed(api, meeting)
    assert (hand["id"], hand["payload"]) == (pk, CORRECTED)
    assert Hand.objects.count() == 2


def test_a_key_sent_with_a_hand_it_never_entered_is_still_a_409(api, meeting):
    pk = entered(api, meeting)
    send(api, "put", hands_url(meeting, f"{pk}/"), {"payload": CORRECTED, "version": 1})
    response = enter(api, meeting, {"payload": OTHER, "idempotency_key": KEY})
    assert response.status_code == 409
    assert [e["field"] for e in response.json()["errors"]] == ["idempotency_key"]
    assert response.json()["hand"]["payload"] == CORRECTED
    assert Hand.objects.count() == 1
