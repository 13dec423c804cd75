"""A hand entered with a client-chosen idempotency key is entered once, however often the
client sends it (a retry after a lost answer, offline entry sending its queue again, a
double tap on the form): the same key returns the stored hand; a key reused for another
hand is refused, naming the field."""

import json
import threading
import uuid

import pytest
from django.db import connection
from django.urls import reverse

from leagues import exceptions
from leagues.models import Hand, HandResult, Role
from leagues.table import services
from tests.factories import LeagueFactory, meeting_for, member
from tests.form_posts import post_from_html

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]
# Anna deals and sits out; Ben and Dora win with 131 eyes: 1 point each way.
HAND = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
OTHER = {"kind": "normal", "re": ["Carl", "Emil"], "re_eyes": 131}
KEY = "6f1c7a52-4f0e-4a8e-9a57-0d2f8a1c3b11"


@pytest.fixture
def meeting(db):
    return meeting_for(LeagueFactory(game="doppelkopf", variant="club"), NAMES)


@pytest.fixture
def keeper(meeting):
    return member(meeting.league, Role.SCOREKEEPER)


# --- the service -------------------------------------------------------------------------------


def test_the_same_key_twice_enters_one_hand(meeting, keeper):
    entered = services.enter_hand(meeting=meeting, payload=HAND, by=keeper, key=uuid.UUID(KEY))
    first, created = entered.hand, entered.created
    entered = services.enter_hand(meeting=meeting, payload=HAND, by=keeper, number=1, key=uuid.UUID(KEY))
    again, created_again = entered.hand, entered.created
    assert (created, created_again) == (True, False)
    assert again.pk == first.pk and meeting.hands.count() == 1
    assert HandResult.objects.filter(meeting=meeting).count() == 5


def test_a_key_reused_for_another_hand_is_refused(meeting, keeper):
    services.enter_hand(meeting=meeting, payload=HAND, by=keeper, key=uuid.UUID(KEY))
    with pytest.raises(exceptions.IdempotencyKeyReused):
        services.enter_hand(meeting=meeting, payload=OTHER, by=keeper, key=uuid.UUID(KEY))
    assert meeting.hands.count() == 1


def test_a_key_of_another_meeting_is_another_hand(meeting, keeper):
    other = meeting_for(meeting.league, NAMES)
    services.enter_hand(meeting=meeting, payload=HAND, by=keeper, key=uuid.UUID(KEY))
    services.enter_hand(meeting=other, payload=HAND, by=keeper, key=uuid.UUID(KEY))
    assert Hand.objects.filter(idempotency_key=KEY).count() == 2


# --- the API -----------------------------------------------------------------------------------


def hands_url(meeting):
    return f"/api/v1/leagues/{meeting.league.slug}/meetings/{meeting.pk}/hands/"


def send(client, meeting, body, **headers):
    return client.post(hands_url(meeting), data=json.dumps(body), content_type="application/json", headers=headers)


def test_a_retry_with_the_same_key_answers_200_with_the_stored_hand(client, meeting, keeper):
    client.force_login(keeper)
    first = send(client, meeting, {"payload": HAND, "number": 1, "idempotency_key": KEY})
    assert first.status_code == 201
    assert first["Location"].endswith(f"/hands/{first.json()['hand']['id']}/") and first["ETag"] == '"1"'
    again = send(client, meeting, {"payload": HAND, "number": 1, "idempotency_key": KEY})
    assert again.status_code == 200
    assert again.json() == first.json()
    assert again.json()["hand"] == {
        "id": Hand.objects.get().pk,
        "number": 1,
        "version": 1,
        "payload": HAND,
        "deleted": False,
        "idempotency_key": KEY,
    }
    assert Hand.objects.count() == 1


def test_the_key_may_come_as_a_header(client, meeting, keeper):
    client.force_login(keeper)
    assert send(client, meeting, {"payload": HAND}, **{"Idempotency-Key": KEY}).status_code == 201
    assert send(client, meeting, {"payload": HAND, "idempotency_key": KEY}).status_code == 200
    assert send(client, meeting, {"payload": HAND}, **{"Idempotency-Key": KEY}).status_code == 200
    assert Hand.objects.count() == 1


def test_a_key_reused_with_another_payload_is_a_409_naming_the_field(client, meeting, keeper):
    client.force_login(keeper)
    send(client, meeting, {"payload": HAND, "idempotency_key": KEY})
    response = send(client, meeting, {"payload": OTHER, "idempotency_key": KEY})
    assert response.status_code == 409
    assert [e["field"] for e in response.json()["errors"]] == ["idempotency_key"]
    assert response.json()["hand"]["payload"] == HAND
    assert Hand.objects.count() == 1


@pytest.mark.parametrize(
    "body, headers",
    [
        ({"idempotency_key": "not-a-uuid"}, {}),
        ({}, {"Idempotency-Key": "not-a-uuid"}),
        ({"idempotency_key": KEY}, {"Idempotency-Key": str(uuid.uuid4())}),
    ],
    ids=["body", "header", "differ"],
)
def test_a_bad_key_is_a_400_naming_the_field(client, meeting, keeper, body, headers):
    client.force_login(keeper)
    response = send(client, meeting, {"payload": HAND, **body}, **headers)
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["idempotency_key"]
    assert not Hand.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_requests_racing_with_one_key_enter_one_hand():
    """Eight threads, each with its own database connection, send one hand with one key at
    the same moment: one enters it, the others get that hand back."""
    if connection.vendor != "postgresql":
        pytest.skip("a real race needs PostgreSQL (SQLite in the suite is one in-memory connection)")
    meeting = meeting_for(LeagueFactory(game="doppelkopf", variant="club"), NAMES)
    user = member(meeting.league, Role.SCOREKEEPER)
    barrier = threading.Barrier(8)
    outcomes = []

    def phone():
        try:
            barrier.wait()
            entered = services.enter_hand(meeting=meeting, payload=HAND, by=user, key=KEY)
            hand, created = entered.hand, entered.created
            outcomes.append((hand.pk, created))
        finally:
            connection.close()

    threads = [threading.Thread(target=phone) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(outcomes) == 8
    assert len({pk for pk, _created in outcomes}) == 1
    assert sorted(created for _pk, created in outcomes) == [False] * 7 + [True]
    assert Hand.objects.filter(meeting=meeting).count() == 1
    assert HandResult.objects.filter(meeting=meeting).count() == 5


# --- the hand form -----------------------------------------------------------------------------


def test_the_form_gets_a_fresh_key_each_time_and_a_double_tap_enters_one_hand(client, meeting, keeper):
    client.force_login(keeper)
    page = reverse("meeting", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    html = client.get(page).content.decode()
    form_html = html[html.index('<form id="hand-form"') : html.index("</form>", html.index('<form id="hand-form"'))]
    rendered = post_from_html(form_html)
    assert uuid.UUID(rendered["idempotency_key"])
    assert rendered["idempotency_key"] not in client.get(page).content.decode()  # a fresh one
    data = {
        "expected_hand": rendered["expected_hand"],
        "idempotency_key": rendered["idempotency_key"],
        "kind": "normal",
        "re": ["Ben", "Dora"],
        "eyes": "131",
        "eyes_for": "re",
    }
    target = reverse("hand_add_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    first = client.post(target, data)
    assert first.status_code == 302
    # The same form again (a double tap, or the POST sent again after a reload): the hand is
    # saved already, so the answer is the same, not "someone just entered hand 1".
    again = client.post(target, data)
    assert again.status_code == 302
    assert client.post(target, data, HTTP_HX_REQUEST="true").status_code == 200
    assert meeting.hands.count() == 1
    assert str(meeting.hands.get().idempotency_key) == data["idempotency_key"]
