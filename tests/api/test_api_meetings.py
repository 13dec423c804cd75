"""The stateful API: reading a meeting and entering, correcting and deleting hands through
the same services as the HTML pages, with the same roles."""

import json

import pytest

from leagues.models import Hand, Role
from tests.factories import LeagueFactory, meeting_for, member

FIVE = ["Anna", "Ben", "Carl", "Dora", "Emil"]
# Anna deals and sits out; Ben and Dora are Re and win with 131 eyes: 1 point each way
# (doppelkopf.md, "Game value": gewonnen 1; Kontra has 109, not under 90).
HAND = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}


@pytest.fixture
def meeting(db):
    league = LeagueFactory(slug="dk")
    return meeting_for(league, FIVE)


def url(meeting, suffix=""):
    return f"/api/v1/leagues/{meeting.league.slug}/meetings/{meeting.pk}/{suffix}"


def post(client, path, body):
    return client.post(path, data=json.dumps(body), content_type="application/json")


def login(client, meeting, role):
    client.force_login(member(meeting.league, role))


def test_anonymous_users_get_nothing(client, meeting):
    assert client.get(url(meeting)).status_code == 403
    assert post(client, url(meeting, "hands/"), {"payload": HAND}).status_code == 403
    assert not Hand.objects.exists()


def test_a_member_of_another_league_gets_a_404(client, meeting):
    client.force_login(member(LeagueFactory(), Role.ADMIN))
    assert client.get(url(meeting)).status_code == 404
    assert post(client, url(meeting, "hands/"), {"payload": HAND}).status_code == 404


def test_a_member_reads_but_may_not_enter(client, meeting):
    login(client, meeting, Role.MEMBER)
    body = client.get(url(meeting)).json()
    assert body["players"] == FIVE
    assert body["result"]["next"]["dealer"] == "Anna"
    assert post(client, url(meeting, "hands/"), {"payload": HAND}).status_code == 403


@pytest.mark.parametrize("role", [Role.SCOREKEEPER, Role.ADMIN])
def test_a_scorekeeper_enters_a_hand_and_gets_the_replay(client, meeting, role):
    login(client, meeting, role)
    response = post(client, url(meeting, "hands/"), {"number": 1, "payload": HAND})
    assert response.status_code == 201
    result = response.json()["result"]
    assert result["totals"] == {"Anna": 0, "Ben": 1, "Carl": -1, "Dora": 1, "Emil": -1}
    assert result["next"]["dealer"] == "Ben"


def test_it_answers_409_when_another_phone_entered_that_hand(client, meeting):
    login(client, meeting, Role.SCOREKEEPER)
    assert post(client, url(meeting, "hands/"), {"number": 1, "payload": HAND}).status_code == 201
    response = post(client, url(meeting, "hands/"), {"number": 1, "payload": HAND})
    assert response.status_code == 409
    assert response.json()["errors"][0]["field"] == "number"
    assert Hand.objects.count() == 1


def test_it_rejects_a_bad_hand_naming_the_field(client, meeting):
    login(client, meeting, Role.SCOREKEEPER)
    response = post(client, url(meeting, "hands/"), {"number": 1, "payload": {**HAND, "re_eyes": 241}})
    assert response.status_code == 400
    assert (1, "re_eyes") in [(e["hand"], e["field"]) for e in response.json()["errors"]]
    assert not Hand.objects.exists()


def test_it_rejects_a_body_without_a_payload(client, meeting):
    login(client, meeting, Role.SCOREKEEPER)
    response = post(client, url(meeting, "hands/"), {"number": "x"})
    assert response.status_code == 400
    assert {e["field"] for e in response.json()["errors"]} == {"number", "payload"}


def test_a_correction_and_a_deletion_recompute_and_keep_the_history(client, meeting):
    login(client, meeting, Role.SCOREKEEPER)
    post(client, url(meeting, "hands/"), {"number": 1, "payload": HAND})
    hand = Hand.objects.get()
    # Re = Ben and Carl with 100 eyes lose; Kontra (Dora, Emil) wins a normal game:
    # gewonnen 1 + gegen die Alten 1 = 2 (doppelkopf.md, "Game value" items 1 and 6).
    corrected = {"kind": "normal", "re": ["Ben", "Carl"], "re_eyes": 100}
    response = client.put(
        url(meeting, f"hands/{hand.pk}/"),
        data=json.dumps({"payload": corrected, "version": 1}),
        content_type="application/json",
    )
    assert response.status_code == 200
    assert response.json()["result"]["totals"] == {"Anna": 0, "Ben": -2, "Carl": -2, "Dora": 2, "Emil": 2}
    response = client.delete(url(meeting, f"hands/{hand.pk}/"), HTTP_IF_MATCH='"2"')
    assert response.json()["result"]["totals"] == dict.fromkeys(FIVE, 0)
    assert response.json()["hands"][0]["deleted"] is True
    assert hand.history.count() == 3  # entered, corrected, deleted


def test_the_league_list_shows_only_my_leagues(client, meeting):
    user = member(meeting.league, Role.MEMBER)
    member(LeagueFactory(slug="other"), Role.ADMIN)
    client.force_login(user)
    assert [row["slug"] for row in client.get("/api/v1/leagues/").json()] == ["dk"]


def test_a_meeting_whose_hands_no_longer_replay_is_a_400_not_a_500(client, meeting):
    login(client, meeting, Role.SCOREKEEPER)
    assert post(client, url(meeting, "hands/"), {"number": 1, "payload": HAND}).status_code == 201
    hand = Hand.objects.get()
    Hand.objects.filter(pk=hand.pk).update(payload={"kind": "nonsense"})
    response = client.get(url(meeting))
    assert response.status_code == 400
    assert response.json()["errors"][0]["hand"] == 1
    # Deleting the broken hand mends the evening.
    assert client.delete(url(meeting, f"hands/{hand.pk}/"), HTTP_IF_MATCH='"1"').status_code == 200
    assert client.get(url(meeting)).status_code == 200
