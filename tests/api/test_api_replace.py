"""In the API: a hand entered offline replaces the hand another phone stored under its
number (POST .../hands/<id>/replace/): a correction at the version the client saw, once per
idempotency key, with the same roles as a correction.

Five at the table, Anna deals the first hand and sits out (doppelkopf.md, "Seats"). The stored
hand: Ben and Dora Re with 131 eyes, 1 point each way ("Game value": gewonnen 1). The one that
replaces it: Carl and Emil Re with 160 eyes, 2 points each way (gewonnen 1, Kontra under 90).
"""

import json
import uuid

import pytest

from leagues.models import Hand, Role
from leagues.table import services, verify
from tests.factories import LeagueFactory, meeting_for, member

FIVE = ["Anna", "Ben", "Carl", "Dora", "Emil"]
THEIRS = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
MINE = {"kind": "normal", "re": ["Carl", "Emil"], "re_eyes": 160}
KEY = "3d0c9b8e-6a51-4f2e-8b7c-1e2d3f4a5b6c"


@pytest.fixture
def meeting(db):
    return meeting_for(LeagueFactory(slug="dk"), FIVE)


@pytest.fixture
def theirs(meeting):
    keeper = member(meeting.league, Role.SCOREKEEPER)
    return services.enter_hand(meeting=meeting, payload=THEIRS, by=keeper, number=1, key=uuid.uuid4()).hand


def url(meeting, hand):
    return f"/api/v1/leagues/{meeting.league.slug}/meetings/{meeting.pk}/hands/{hand.pk}/replace/"


def replace(client, meeting, hand, **body):
    body = {"payload": MINE, "version": 1, "idempotency_key": KEY, **body}
    return client.post(url(meeting, hand), data=json.dumps(body), content_type="application/json")


def test_anonymous_users_replace_nothing(client, meeting, theirs):
    assert replace(client, meeting, theirs).status_code == 403
    assert Hand.objects.get(pk=theirs.pk).payload == THEIRS


def test_a_member_may_not_replace(client, meeting, theirs):
    client.force_login(member(meeting.league, Role.MEMBER))
    assert replace(client, meeting, theirs).status_code == 403
    assert Hand.objects.get(pk=theirs.pk).payload == THEIRS


def test_a_member_of_another_league_gets_a_404(client, meeting, theirs):
    client.force_login(member(LeagueFactory(), Role.ADMIN))
    assert replace(client, meeting, theirs).status_code == 404
    assert Hand.objects.get(pk=theirs.pk).payload == THEIRS


@pytest.mark.parametrize("role", [Role.SCOREKEEPER, Role.ADMIN])
def test_a_scorekeeper_replaces_the_hand_and_gets_the_replay(client, meeting, theirs, role):
    client.force_login(member(meeting.league, role))
    response = replace(client, meeting, theirs, entered_as=1)
    assert response.status_code == 200
    body = response.json()
    assert body["hand"]["payload"] == MINE and body["hand"]["version"] == 2 and body["hand"]["number"] == 1
    assert response["ETag"] == '"2"'
    assert body["result"]["totals"] == {"Anna": 0, "Ben": -2, "Carl": 2, "Dora": -2, "Emil": 2}
    # The stored hand keeps its own key: the phone that entered it still finds it.
    assert body["hand"]["idempotency_key"] == str(theirs.idempotency_key)
    record = Hand.objects.get(pk=theirs.pk).history.order_by("-history_id").first()
    assert record.history_change_reason == f"outbox:replace:1:{KEY}"
    assert verify.verify_replays(league=meeting.league)[1] == []


def test_a_retried_key_replaces_once(client, meeting, theirs):
    client.force_login(member(meeting.league, Role.SCOREKEEPER))
    assert replace(client, meeting, theirs).status_code == 200
    again = replace(client, meeting, theirs)  # the answer was lost: the same request again
    assert again.status_code == 200
    assert again.json()["hand"]["version"] == 2
    assert Hand.objects.get(pk=theirs.pk).history.count() == 2


def test_the_key_in_the_header_replaces_once_too(client, meeting, theirs):
    client.force_login(member(meeting.league, Role.SCOREKEEPER))
    body = json.dumps({"payload": MINE})
    headers = {"HTTP_IDEMPOTENCY_KEY": KEY, "HTTP_IF_MATCH": '"1"'}
    for _attempt in range(2):
        response = client.post(url(meeting, theirs), data=body, content_type="application/json", **headers)
        assert response.status_code == 200
    assert Hand.objects.get(pk=theirs.pk).version == 2


def test_a_stale_version_is_refused_with_the_hand_as_it_is(client, meeting, theirs):
    keeper = member(meeting.league, Role.SCOREKEEPER)
    services.change_hand(hand=theirs, payload={**THEIRS, "re_eyes": 135}, by=keeper, version=1)
    client.force_login(keeper)
    response = replace(client, meeting, theirs)
    assert response.status_code == 409
    assert response.json()["errors"][0]["field"] == "version"
    assert response.json()["hand"]["payload"]["re_eyes"] == 135
    assert Hand.objects.get(pk=theirs.pk).payload["re_eyes"] == 135


def test_it_needs_an_idempotency_key(client, meeting, theirs):
    client.force_login(member(meeting.league, Role.SCOREKEEPER))
    body = {"payload": MINE, "version": 1}
    response = client.post(url(meeting, theirs), data=json.dumps(body), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "idempotency_key"
    assert Hand.objects.get(pk=theirs.pk).version == 1


def test_a_key_of_a_hand_on_the_sheet_cannot_replace_another(client, meeting, theirs):
    keeper = member(meeting.league, Role.SCOREKEEPER)
    second = {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 131}  # Ben deals hand 2
    services.enter_hand(meeting=meeting, payload=second, by=keeper, key=uuid.UUID(KEY))
    client.force_login(keeper)
    response = replace(client, meeting, theirs)
    assert response.status_code == 409
    assert response.json()["errors"][0]["field"] == "idempotency_key"
    assert Hand.objects.get(pk=theirs.pk).version == 1


def test_a_retry_with_another_hand_under_the_same_key_is_refused(client, meeting, theirs):
    client.force_login(member(meeting.league, Role.SCOREKEEPER))
    assert replace(client, meeting, theirs).status_code == 200
    response = replace(client, meeting, theirs, payload={**MINE, "re_eyes": 170}, version=2)
    assert response.status_code == 409
    assert Hand.objects.get(pk=theirs.pk).payload == MINE


def test_a_bad_hand_is_refused_naming_the_field(client, meeting, theirs):
    client.force_login(member(meeting.league, Role.SCOREKEEPER))
    response = replace(client, meeting, theirs, payload={**MINE, "re_eyes": 241})
    assert response.status_code == 400
    assert "re_eyes" in [e["field"] for e in response.json()["errors"]]
    assert Hand.objects.get(pk=theirs.pk).payload == THEIRS
