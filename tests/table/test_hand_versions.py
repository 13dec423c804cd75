"""Corrections, deletions and restores name the version of the hand the writer saw. A write
over a newer version changes nothing: the services raise StaleHand, the pages answer 409 with
the hand as it is now, the API a 409 in the error shape with the current hand. The services
read the hand themselves, under the meeting's lock: a Hand object loaded before is never
saved over what another phone wrote meanwhile.

Doppelkopf, club rules, five at the table: Anna deals hand 1 and sits out."""

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues import exceptions
from leagues.models import Hand, HandResult, Role
from leagues.table import services
from tests.factories import LeagueFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]


def normal(re=("Ben", "Dora"), eyes=131):
    return {"kind": "normal", "re": list(re), "re_eyes": eyes, "announcements": [], "specials": []}


# Ben and Dora win hand 1 with 131 eyes (1 point); the correction makes it 100 eyes, Kontra
# (Carl, Emil) wins 2 (gewonnen, gegen die Alten). Hand 2: Carl and Emil win with 151 eyes,
# dealt by Ben or, with hand 1 deleted, by Anna (who sits out either way).
FIRST, CORRECTED, SECOND = normal(), normal(eyes=100), normal(("Carl", "Emil"), 151)


@pytest.fixture
def meeting(db):
    return meeting_for(LeagueFactory(game="doppelkopf", variant="club"), NAMES)


@pytest.fixture
def keeper(meeting):
    return member(meeting.league, Role.SCOREKEEPER, first_name="Kai")


@pytest.fixture
def other(meeting):
    return member(meeting.league, Role.SCOREKEEPER, first_name="Olga")


def totals(meeting):
    """{player: total after the last live hand} from the cached results."""
    rows = HandResult.objects.filter(meeting=meeting).order_by("number")
    return {r.player.name: r.total for r in rows.select_related("player")}


def fresh(hand):
    return Hand.objects.get(pk=hand.pk)


# --- the services ------------------------------------------------------------------------------


def test_a_write_counts_up_the_version(meeting, keeper):
    hand = services.enter_hand(meeting=meeting, payload=FIRST, by=keeper).hand
    assert hand.version == 1
    assert services.change_hand(hand=hand, payload=CORRECTED, by=keeper, version=1).hand.version == 2
    assert services.delete_hand(hand=hand, by=keeper, version=2).version == 3
    assert services.restore_hand(hand=hand, by=keeper, version=3).version == 4
    assert fresh(hand).version == 4 and fresh(hand).payload == CORRECTED


def test_a_correction_of_a_hand_deleted_meanwhile_does_not_bring_it_back(meeting, keeper, other):
    """The tester's race, one step after the other: phone A opened hand 1 (version 1), phone
    B deleted it; A's correction must neither bring it back nor change its payload."""
    seen_by_a = services.enter_hand(meeting=meeting, payload=FIRST, by=keeper).hand
    services.delete_hand(hand=Hand.objects.get(pk=seen_by_a.pk), by=other, version=1)
    with pytest.raises(exceptions.StaleHand) as caught:
        services.change_hand(hand=seen_by_a, payload=CORRECTED, by=keeper, version=1)
    assert caught.value.hand.deleted_at is not None and caught.value.hand.version == 2
    assert caught.value.changed_by == other
    hand = fresh(seen_by_a)
    assert hand.deleted_at is not None and hand.number is None and hand.payload == FIRST
    assert not HandResult.objects.filter(meeting=meeting).exists()
    assert hand.history.count() == 2  # entered, deleted


def test_a_deletion_from_a_stale_page_does_not_undo_a_correction(meeting, keeper, other):
    seen = services.enter_hand(meeting=meeting, payload=FIRST, by=keeper).hand
    services.change_hand(hand=seen, payload=CORRECTED, by=other, version=1)
    with pytest.raises(exceptions.StaleHand):
        services.delete_hand(hand=seen, by=keeper, version=1)
    hand = fresh(seen)
    assert hand.deleted_at is None and hand.payload == CORRECTED and hand.version == 2
    assert totals(meeting) == {"Anna": 0, "Ben": -2, "Carl": 2, "Dora": -2, "Emil": 2}


def test_a_correction_from_a_stale_page_does_not_overwrite_an_acknowledged_one(meeting, keeper, other):
    seen = services.enter_hand(meeting=meeting, payload=FIRST, by=keeper).hand
    services.change_hand(hand=seen, payload=CORRECTED, by=other, version=1)
    with pytest.raises(exceptions.StaleHand) as caught:
        services.change_hand(hand=seen, payload=FIRST, by=keeper, version=1)
    assert caught.value.hand.payload == CORRECTED
    assert fresh(seen).payload == CORRECTED
    assert totals(meeting) == {"Anna": 0, "Ben": -2, "Carl": 2, "Dora": -2, "Emil": 2}


def test_a_second_restore_of_one_hand_is_stale_not_a_crash(meeting, keeper, other):
    hand = services.enter_hand(meeting=meeting, payload=FIRST, by=keeper).hand
    services.enter_hand(meeting=meeting, payload=SECOND, by=keeper)
    services.delete_hand(hand=hand, by=keeper, version=1)
    services.restore_hand(hand=hand, by=other, version=2)
    with pytest.raises(exceptions.StaleHand):
        services.restore_hand(hand=hand, by=keeper, version=2)
    assert list(meeting.hands.order_by("position").values_list("number", "deleted_at")) == [(1, None), (2, None)]
    assert HandResult.objects.filter(meeting=meeting).count() == 10


def test_a_correction_of_a_deleted_hand_at_its_version_asks_to_restore_it_first(meeting, keeper):
    hand = services.enter_hand(meeting=meeting, payload=FIRST, by=keeper).hand
    services.delete_hand(hand=hand, by=keeper, version=1)
    with pytest.raises(exceptions.InvalidInput) as caught:
        services.change_hand(hand=hand, payload=CORRECTED, by=keeper, version=2)
    assert caught.value.errors[0]["field"] == "payload"
    assert fresh(hand).deleted_at is not None


# --- the live numbers --------------------------------------------------------------------------


def four_hands(meeting, user):
    """Four hands, each won by a Re pair that never holds the dealer (who sits out) of any
    number the hand has in the tests below: hand 1 is always dealt by Anna, hand 2 by Anna or
    Ben, hand 3 by Anna, Ben or Carl, hand 4 by Ben, Carl or Dora."""
    payloads = [normal(("Ben", "Dora")), normal(("Carl", "Emil")), normal(("Dora", "Emil")), normal(("Anna", "Emil"))]
    return [services.enter_hand(meeting=meeting, payload=p, by=user).hand for p in payloads]


def numbers(meeting):
    return list(meeting.hands.order_by("position").values_list("number", flat=True))


def test_deleting_and_restoring_keeps_the_live_numbers(meeting, keeper):
    hands = four_hands(meeting, keeper)
    assert numbers(meeting) == [1, 2, 3, 4]
    services.delete_hand(hand=hands[1], by=keeper, version=1)
    assert numbers(meeting) == [1, None, 2, 3]
    services.delete_hand(hand=hands[0], by=keeper, version=1)
    assert numbers(meeting) == [None, None, 1, 2]
    services.restore_hand(hand=hands[1], by=keeper, version=2)
    assert numbers(meeting) == [None, 1, 2, 3]
    services.restore_hand(hand=hands[0], by=keeper, version=2)
    assert numbers(meeting) == [1, 2, 3, 4]
    # The cached results number the hands the same way.
    assert sorted(set(HandResult.objects.filter(meeting=meeting).values_list("hand__number", "number"))) == [
        (1, 1),
        (2, 2),
        (3, 3),
        (4, 4),
    ]


def _hand_updates(queries):
    return [q["sql"] for q in queries if q["sql"].startswith('UPDATE "leagues_hand" ')]


def _written(queries, hands, column=""):
    """The hands (1-based, as entered) whose row a write updated (its ``column``)."""
    updates = [sql for sql in _hand_updates(queries) if f'"{column}"' in sql or not column]
    return sorted(
        i for i, hand in enumerate(hands, 1) if any(re.search(rf'"id" = {hand.pk}\b', sql) for sql in updates)
    )


def test_only_the_hands_whose_number_changes_are_written(meeting, keeper):
    hands = four_hands(meeting, keeper)
    with CaptureQueriesContext(connection) as queries:
        services.delete_hand(hand=hands[3], by=keeper, version=1)
    # The last hand: its own row (the save) and no other.
    assert _written(queries.captured_queries, hands, "number") == [4]
    with CaptureQueriesContext(connection) as queries:
        services.delete_hand(hand=hands[1], by=keeper, version=1)
    # Hand 2: its own row, and hand 3 moving up to 2; hand 1 untouched.
    assert _written(queries.captured_queries, hands, "number") == [2, 3]
    with CaptureQueriesContext(connection) as queries:
        services.change_hand(hand=hands[0], payload=normal(("Ben", "Dora"), 140), by=keeper, version=1)
    # The corrected hand only, and of it what a correction changes (no number is written).
    assert _written(queries.captured_queries, hands, "number") == []
    assert _written(queries.captured_queries, hands) == [1]
    assert all('"payload"' in sql and '"version"' in sql for sql in _hand_updates(queries.captured_queries))


# --- the pages ---------------------------------------------------------------------------------


def url(name, meeting, hand):
    return reverse(name, kwargs={"slug": meeting.league.slug, "pk": meeting.pk, "hand_pk": hand.pk})


def form(*, eyes="131", version=None):
    data = {"kind": "normal", "re": ["Ben", "Dora"], "eyes": eyes, "eyes_for": "re"}
    if version is not None:
        data["version"] = str(version)
    return data


def test_the_forms_carry_the_version_of_the_hand_they_show(client, meeting, keeper):
    hand = services.enter_hand(meeting=meeting, payload=FIRST, by=keeper).hand
    services.change_hand(hand=hand, payload=CORRECTED, by=keeper, version=1)
    client.force_login(keeper)
    assert 'name="version" value="2"' in client.get(url("hand_edit", meeting, hand)).content.decode()
    assert 'name="version" value="2"' in client.get(url("hand_why", meeting, hand)).content.decode()
    services.delete_hand(hand=hand, by=keeper, version=2)
    page = client.get(reverse("meeting", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})).content.decode()
    assert 'name="version" value="3"' in page  # the restore button


def test_a_stale_correction_is_a_409_showing_the_hand_as_it_is_now(client, meeting, keeper, other):
    hand = services.enter_hand(meeting=meeting, payload=FIRST, by=keeper).hand
    services.change_hand(hand=hand, payload=CORRECTED, by=other, version=1)
    client.force_login(keeper)
    response = client.post(url("hand_edit", meeting, hand), form(eyes="140", version=1))
    assert response.status_code == 409
    html = response.content.decode()
    assert "someone else changed this hand" in html and "Last changed by Olga" in html
    assert "Re 100 : Kontra 140" in html  # the hand as it is now
    assert 'value="140"' in html  # what this phone typed, to save again if meant
    assert 'name="version" value="2"' in html  # saving now overwrites what it has seen
    assert fresh(hand).payload == CORRECTED


def test_a_correction_of_a_hand_deleted_meanwhile_is_a_409_not_a_404(client, meeting, keeper, other):
    hand = services.enter_hand(meeting=meeting, payload=FIRST, by=keeper).hand
    services.delete_hand(hand=hand, by=other, version=1)
    client.force_login(keeper)
    response = client.post(url("hand_edit", meeting, hand), form(eyes="100", version=1))
    assert response.status_code == 409
    html = response.content.decode()
    assert "someone else deleted this hand" in html and "Last changed by Olga" in html
    assert url("hand_restore", meeting, hand) in html and 'name="version" value="2"' in html
    assert fresh(hand).deleted_at is not None and fresh(hand).payload == FIRST


def test_a_stale_delete_and_a_stale_restore_are_409s(client, meeting, keeper, other):
    hand = services.enter_hand(meeting=meeting, payload=FIRST, by=keeper).hand
    services.change_hand(hand=hand, payload=CORRECTED, by=other, version=1)
    client.force_login(keeper)
    response = client.post(url("hand_delete", meeting, hand), {"version": "1"})
    assert response.status_code == 409
    assert "Re 100 : Kontra 140" in response.content.decode()
    assert fresh(hand).deleted_at is None
    services.delete_hand(hand=hand, by=other, version=2)
    services.restore_hand(hand=hand, by=other, version=3)
    response = client.post(url("hand_restore", meeting, hand), {"version": "3"})
    assert response.status_code == 409
    hand = fresh(hand)
    assert hand.deleted_at is None and hand.version == 4 and hand.number == 1


def test_a_form_without_its_version_changes_nothing(client, meeting, keeper):
    hand = services.enter_hand(meeting=meeting, payload=FIRST, by=keeper).hand
    client.force_login(keeper)
    response = client.post(url("hand_edit", meeting, hand), form(eyes="100"))
    assert response.status_code == 400
    assert "This form is out of date" in response.content.decode()
    response = client.post(url("hand_delete", meeting, hand), {"version": "one"})
    assert response.status_code == 400
    assert "This form is out of date" in response.content.decode()
    assert fresh(hand).version == 1 and fresh(hand).deleted_at is None


# --- the API -----------------------------------------------------------------------------------


def api(meeting, hand, suffix=""):
    return f"/api/v1/leagues/{meeting.league.slug}/meetings/{meeting.pk}/hands/{hand.pk}/{suffix}"


def put(client, path, body, **headers):
    return client.put(path, data=json.dumps(body), content_type="application/json", headers=headers)


def test_the_api_shows_each_hands_version_and_an_etag(client, meeting, keeper):
    hand = services.enter_hand(meeting=meeting, payload=FIRST, by=keeper).hand
    services.change_hand(hand=hand, payload=CORRECTED, by=keeper, version=1)
    client.force_login(keeper)
    body = client.get(f"/api/v1/leagues/{meeting.league.slug}/meetings/{meeting.pk}/").json()
    assert [(h["number"], h["version"]) for h in body["hands"]] == [(1, 2)]
    response = client.get(api(meeting, hand))
    assert response["ETag"] == '"2"' and response.json()["version"] == 2


@pytest.mark.parametrize(
    "body, headers", [({"version": 1}, {}), ({}, {"If-Match": '"1"'}), ({}, {"If-Match": 'W/"1"'})], ids=str
)
def test_a_put_names_the_version_in_the_body_or_in_if_match(client, meeting, keeper, body, headers):
    hand = services.enter_hand(meeting=meeting, payload=FIRST, by=keeper).hand
    client.force_login(keeper)
    response = put(client, api(meeting, hand), {"payload": CORRECTED, **body}, **headers)
    assert response.status_code == 200
    assert response["ETag"] == '"2"' and response.json()["hand"]["version"] == 2
    assert response.json()["result"]["totals"] == {"Anna": 0, "Ben": -2, "Carl": 2, "Dora": -2, "Emil": 2}


@pytest.mark.parametrize(
    "body, headers",
    [({}, {}), ({}, {"If-Match": "*"}), ({}, {"If-Match": '"١"'}), ({"version": 1}, {"If-Match": '"2"'})],
    ids=["none", "star", "arabic-digit", "differ"],
)
def test_a_put_without_a_clear_version_is_a_400_naming_it(client, meeting, keeper, body, headers):
    hand = services.enter_hand(meeting=meeting, payload=FIRST, by=keeper).hand
    client.force_login(keeper)
    response = put(client, api(meeting, hand), {"payload": CORRECTED, **body}, **headers)
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["version"]
    assert fresh(hand).version == 1


def test_a_stale_put_is_a_409_with_the_hand_as_it_is_now(client, meeting, keeper, other):
    hand = services.enter_hand(meeting=meeting, payload=FIRST, by=keeper).hand
    services.change_hand(hand=hand, payload=CORRECTED, by=other, version=1)
    client.force_login(keeper)
    response = put(client, api(meeting, hand), {"payload": FIRST, "version": 1})
    assert response.status_code == 409
    body = response.json()
    assert [(e["hand"], e["field"]) for e in body["errors"]] == [(1, "version")]
    assert body["hand"]["version"] == 2 and body["hand"]["payload"] == CORRECTED
    assert body["hand"]["changed_by"] == "Olga" and body["hand"]["changed_at"]
    assert response["ETag"] == '"2"'
    assert fresh(hand).payload == CORRECTED


def test_a_stale_delete_and_restore_through_the_api_are_409s(client, meeting, keeper, other):
    hand = services.enter_hand(meeting=meeting, payload=FIRST, by=keeper).hand
    client.force_login(keeper)
    assert client.delete(api(meeting, hand)).status_code == 400  # no version
    services.change_hand(hand=hand, payload=CORRECTED, by=other, version=1)
    response = client.delete(api(meeting, hand), headers={"If-Match": '"1"'})
    assert response.status_code == 409 and response.json()["hand"]["deleted"] is False
    assert client.delete(api(meeting, hand), headers={"If-Match": '"2"'}).status_code == 200
    restore = api(meeting, hand, "restore/")
    assert client.post(restore, {"version": 3}, content_type="application/json").status_code == 200
    response = client.post(restore, {"version": 3}, content_type="application/json")
    assert response.status_code == 409 and response.json()["hand"]["version"] == 4
    assert fresh(hand).deleted_at is None and fresh(hand).number == 1


def test_a_put_is_refused_as_every_write_and_changes_nothing(client, meeting, keeper):
    # The API's correction reads the meeting, its league and the membership under the
    # meeting's lock; who may not write, or names a hand of another evening, is
    # refused before anything is read of the body.
    hand = services.enter_hand(meeting=meeting, payload=FIRST, by=keeper).hand
    elsewhere = meeting_for(meeting.league, ["Anna", "Ben", "Carl", "Dora", "Emil"])
    theirs = services.enter_hand(meeting=elsewhere, payload=FIRST, by=keeper).hand
    body = {"payload": CORRECTED, "version": 1}
    client.force_login(member(meeting.league, Role.MEMBER, username="mia"))
    assert put(client, api(meeting, hand), body).status_code == 403
    client.force_login(member(LeagueFactory(), Role.ADMIN, username="otto"))
    assert put(client, api(meeting, hand), body).status_code == 404
    client.force_login(keeper)
    assert put(client, api(meeting, theirs), body).status_code == 404  # another evening's hand
    assert put(client, api(meeting, hand) + "x", body).status_code == 404
    assert fresh(hand).payload == FIRST and fresh(theirs).payload == FIRST
    assert put(client, api(meeting, hand), body).status_code == 200
    assert fresh(hand).payload == CORRECTED
