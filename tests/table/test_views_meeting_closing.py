"""The end of the evening on the meeting page and the API: the panel, "End the evening",
refused writes on a closed meeting, reopening with a reason, and who may do each.
Doppelkopf, club rules, four at the table; the meeting's date is in the past, so its end time
(22:00) has passed for the page; hands are entered with ``now`` before or after it."""

import datetime
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Hand, Meeting, MeetingReopening, Role
from leagues.table import meetings, services
from tests.factories import LeagueFactory, meeting_for, member

FOUR = ["Anna", "Ben", "Carl", "Dora"]
# Re (Ben, Dora) wins with 131 eyes: +1 each, Anna and Carl -1 each.
BEN_DORA = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
ANNA_CARL = {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 131}
TZ = timezone.get_current_timezone()
BEFORE_END = datetime.datetime(2026, 11, 20, 21, 0, tzinfo=TZ)
AFTER_END = datetime.datetime(2026, 11, 20, 22, 30, tzinfo=TZ)


@pytest.fixture
def league(db):
    return LeagueFactory(game="doppelkopf", variant="club")


@pytest.fixture
def meeting(league):
    return meeting_for(league, FOUR, date=datetime.date(2026, 11, 20), end_time=datetime.time(22, 0))


@pytest.fixture
def people(league):
    return {
        "member": member(league, Role.MEMBER),
        "scorekeeper": member(league, Role.SCOREKEEPER),
        "admin": member(league, Role.ADMIN),
        "outsider": member(LeagueFactory(), Role.ADMIN),
    }


def enter(meeting, user, payloads, now):
    for payload in payloads:
        services.enter_hand(meeting=meeting, payload=payload, by=user, now=now)


def url(name, meeting, hand=None):
    kwargs = {"slug": meeting.league.slug, "pk": meeting.pk}
    if hand is not None:
        kwargs["hand_pk"] = hand.pk
    return reverse(name, kwargs=kwargs)


@pytest.fixture
def closed(meeting, people):
    # Hands 1 and 2 before 22:00, 3 and 4 after: Dora deals hand 4, the last of the round.
    enter(meeting, people["scorekeeper"], [BEN_DORA, BEN_DORA], BEFORE_END)
    enter(meeting, people["scorekeeper"], [BEN_DORA, ANNA_CARL], AFTER_END)
    meeting.refresh_from_db()
    return meeting


def test_after_hand_2_the_panel_names_the_games_left_and_who_owes_a_solo(client, meeting, people):
    enter(meeting, people["scorekeeper"], [BEN_DORA, BEN_DORA], BEFORE_END)
    client.force_login(people["scorekeeper"])
    html = client.get(url("meeting", meeting)).content.decode()
    # Carl deals hand 3, Dora hand 4: two games left in the host round.
    assert "End time passed" in html and "2 games left in the host round" in html
    # No solo has been played tonight: all four must play one in this last round.
    assert "Last round: must still play a solo" in html and "<b>Anna, Ben, Carl, Dora</b>" in html
    assert "Still owe a solo tonight" not in html  # said once, as the last round's
    assert 'id="hand-form"' in html and "End the evening" not in html


def test_after_hand_4_dealt_by_the_last_seat_the_evening_is_over(client, closed, people):
    assert closed.closed_by == people["scorekeeper"]
    client.force_login(people["member"])
    html = client.get(url("meeting", closed)).content.decode()
    assert "The evening is over" in html
    assert 'id="hand-form"' not in html and "Next: hand" not in html
    # Ben and Dora both end on +2 (+1 +1 +1 -1); Ben sits first: he won and brings the pennant.
    assert "Tonight's winner</span><b>Ben</b>" in html
    assert "⚑ Ben" in html


def test_the_page_offers_no_hand_form_to_a_scorekeeper_once_closed(client, closed, people):
    client.force_login(people["scorekeeper"])
    html = client.get(url("meeting", closed)).content.decode()
    assert 'id="hand-form"' not in html and "End the evening" not in html
    assert "Reopen the evening" not in html  # only an admin may
    client.force_login(people["admin"])
    assert "Reopen the evening" in client.get(url("meeting", closed)).content.decode()


def test_it_refuses_a_hand_posted_to_a_closed_meeting(client, closed, people):
    client.force_login(people["scorekeeper"])
    data = {"expected_hand": "5", "kind": "normal", "re": ["Ben", "Dora"], "eyes": "131", "eyes_for": "re"}
    response = client.post(url("hand_add_hx", closed), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "This evening is closed" in response.content.decode()
    assert closed.hands.count() == 4


def test_it_refuses_corrections_deletions_and_restores_on_a_closed_meeting(client, closed, people):
    client.force_login(people["admin"])
    first = closed.hands.get(number=1)
    data = {"version": "1", "kind": "normal", "re": ["Anna", "Carl"], "eyes": "131", "eyes_for": "re"}
    response = client.post(url("hand_edit", closed, first), data)
    assert response.status_code == 400 and "This evening is closed" in response.content.decode()
    response = client.post(url("hand_delete", closed, first), {"version": "1"})
    assert response.status_code == 400 and "This evening is closed" in response.content.decode()
    response = client.post(url("hand_restore", closed, first), {"version": "1"})
    assert response.status_code == 400
    assert Hand.objects.get(pk=first.pk).version == 1


def test_the_api_refuses_writes_on_a_closed_meeting(client, closed, people):
    client.force_login(people["scorekeeper"])
    base = f"/api/v1/leagues/{closed.league.slug}/meetings/{closed.pk}/hands/"
    body = json.dumps({"payload": BEN_DORA, "idempotency_key": "6f1c7a52-4f0e-4a8e-9a57-0d2f8a1c3b11"})
    response = client.post(base, data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "meeting"
    first = closed.hands.get(number=1)
    body = json.dumps({"payload": ANNA_CARL, "version": 1})
    assert client.put(f"{base}{first.pk}/", data=body, content_type="application/json").status_code == 400
    assert client.delete(f"{base}{first.pk}/", HTTP_IF_MATCH='"1"').status_code == 400
    assert closed.hands.count() == 4 and Hand.objects.get(pk=first.pk).version == 1


@pytest.fixture
def round_done(meeting, people):
    """Four hands saved before 22:00: the round is complete, the end time passed since."""
    enter(meeting, people["scorekeeper"], [BEN_DORA] * 4, BEFORE_END)
    return meeting


def test_a_finished_evening_not_yet_closed_offers_end_the_evening_to_scorekeepers(client, round_done, people):
    client.force_login(people["member"])
    html = client.get(url("meeting", round_done)).content.decode()
    assert "The evening is over" in html and "End the evening" not in html
    client.force_login(people["scorekeeper"])
    html = client.get(url("meeting", round_done)).content.decode()
    assert "End the evening" in html and 'id="hand-form"' not in html


def test_who_may_end_the_evening(client, round_done, people):
    target = url("meeting_close", round_done)
    response = client.post(target)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    for role, status in (("member", 403), ("outsider", 404)):
        client.force_login(people[role])
        assert client.post(target).status_code == status, role
    round_done.refresh_from_db()
    assert round_done.closed_at is None
    client.force_login(people["scorekeeper"])
    assert client.post(target).status_code == 302
    round_done.refresh_from_db()
    assert round_done.closed_by == people["scorekeeper"]


def test_end_the_evening_is_refused_while_the_round_is_running(client, meeting, people):
    enter(meeting, people["scorekeeper"], [BEN_DORA, BEN_DORA], BEFORE_END)
    client.force_login(people["scorekeeper"])
    response = client.post(url("meeting_close", meeting))
    assert response.status_code == 400
    assert "The round is not finished yet" in response.content.decode()
    meeting.refresh_from_db()
    assert meeting.closed_at is None


def test_who_may_reopen(client, closed, people):
    target = url("meeting_reopen", closed)
    response = client.get(target)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    for role, status in (("member", 403), ("scorekeeper", 403), ("outsider", 404)):
        client.force_login(people[role])
        assert client.get(target).status_code == status, role
        assert client.post(target, {"reason": "x"}).status_code == status, role
    client.force_login(people["admin"])
    assert client.get(target).status_code == 200
    assert not MeetingReopening.objects.exists()


def test_an_admin_reopens_with_a_reason_shown_in_the_history(client, closed, people):
    client.force_login(people["admin"])
    target = url("meeting_reopen", closed)
    response = client.post(target, {"reason": "  "})
    assert response.status_code == 400 and "Say why the evening is reopened" in response.content.decode()
    response = client.post(target, {"reason": "Hand 3 was written for the wrong party"})
    assert response.status_code == 302
    closed.refresh_from_db()
    assert closed.closed_at is None
    html = client.get(url("meeting_history", closed)).content.decode()
    assert "Evening reopened" in html and "Hand 3 was written for the wrong party" in html
    # Open again: a scorekeeper corrects hand 3 (Anna and Carl won it).
    client.force_login(people["scorekeeper"])
    third = closed.hands.get(number=3)
    assert services.change_hand(hand=third, payload=ANNA_CARL, by=people["scorekeeper"], version=1).hand.version == 2


def test_reopening_an_open_evening_is_refused(client, meeting, people):
    client.force_login(people["admin"])
    response = client.post(url("meeting_reopen", meeting), {"reason": "why not"})
    assert response.status_code == 400 and "This evening is not closed" in response.content.decode()


def test_the_hand_that_ends_the_round_answers_with_the_evening_closed(client, meeting, people):
    enter(meeting, people["scorekeeper"], [BEN_DORA, BEN_DORA], BEFORE_END)
    enter(meeting, people["scorekeeper"], [BEN_DORA], AFTER_END)
    client.force_login(people["scorekeeper"])
    data = {"expected_hand": "4", "kind": "normal", "re": ["Anna", "Carl"], "eyes": "131", "eyes_for": "re"}
    response = client.post(url("hand_add_hx", meeting), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert "The evening is over" in html and 'class="closed-by"' in html
    assert "End the evening" not in html and 'id="hand-form"' not in html
    meeting.refresh_from_db()
    assert meeting.closed_by == people["scorekeeper"]


def test_a_closed_evening_offers_no_correct_delete_or_restore(client, closed, people):
    client.force_login(people["admin"])
    first = closed.hands.get(number=1)
    html = client.get(url("hand_why", closed, first)).content.decode()
    assert url("hand_edit", closed, first) not in html and url("hand_delete", closed, first) not in html
    meetings.reopen_meeting(meeting=closed, user=people["admin"], reason="check")
    html = client.get(url("hand_why", closed, first)).content.decode()
    assert url("hand_edit", closed, first) in html


def test_the_api_says_when_the_evening_was_closed(client, closed, people):
    client.force_login(people["member"])
    body = client.get(f"/api/v1/leagues/{closed.league.slug}/meetings/{closed.pk}/").json()
    assert body["closed_at"] is not None
    assert meetings.reopen_meeting(meeting=closed, user=people["admin"], reason="check")
    body = client.get(f"/api/v1/leagues/{closed.league.slug}/meetings/{closed.pk}/").json()
    assert body["closed_at"] is None


def test_the_django_admin_shows_reopenings_read_only(admin_client, closed, people):
    reopening = meetings.reopen_meeting(meeting=closed, user=people["admin"], reason="Hand 3 was wrong")
    assert "Hand 3 was wrong" in admin_client.get("/admin/leagues/meetingreopening/").content.decode()
    change = f"/admin/leagues/meetingreopening/{reopening.pk}/change/"
    assert admin_client.get(change).status_code == 200
    assert admin_client.post(change, {"reason": "other"}).status_code == 403
    assert admin_client.get(f"/admin/leagues/meeting/{closed.pk}/change/").status_code == 200


def test_the_correction_page_of_a_closed_evening_says_so_and_offers_no_save(client, closed, people):
    client.force_login(people["scorekeeper"])
    response = client.get(url("hand_edit", closed, closed.hands.get(number=1)))
    html = response.content.decode()
    assert response.status_code == 200
    assert "This evening is closed" in html and "Save correction" not in html


def test_the_django_admin_saves_only_what_its_form_changed(admin_client, closed, people, monkeypatch):
    Meeting.objects.filter(pk=closed.pk).update(created_by=people["admin"])
    closed.refresh_from_db()
    change = f"/admin/leagues/meeting/{closed.pk}/change/"
    html = admin_client.get(change).content.decode()
    assert 'name="imported_totals"' not in html  # read only
    saved = []
    original = Meeting.save

    def spy(self, *args, **kwargs):
        saved.append(kwargs.get("update_fields"))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Meeting, "save", spy)
    data = {"host": closed.host_id, "end_time": "23:45", "created_by": closed.created_by_id}
    data.update({"seats-TOTAL_FORMS": "0", "seats-INITIAL_FORMS": "0"})
    response = admin_client.post(change, data)
    assert response.status_code == 302
    closed.refresh_from_db()
    assert closed.end_time.strftime("%H:%M") == "23:45"
    assert closed.closed_at is not None
    # Only the field it changed is written: a close made meanwhile by the app would stay.
    assert [set(fields) for fields in saved] == [{"end_time"}]
