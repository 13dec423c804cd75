"""Ending an evening and its end time, in the services and on the pages.

A scorekeeper ends any open evening at a round's end: Doppelkopf once the player before the
host has dealt the round's last game (doppelkopf.md, "A round"), with or without an end time
and before it too; a race game after any stored hand (race games have no rounds). Ending an
evening that could still go on asks first ("End the evening?", a page of its own, away from
the hand form); the end time can be set, changed or cleared while the evening is open.
Doppelkopf, club rules, four at the table (Anna hosts and deals first, Dora deals last)."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from leagues import exceptions
from leagues.models import Role
from leagues.table import evening, meetings, replay, services
from tests.factories import LeagueFactory, meeting_for, member

FOUR = ["Anna", "Ben", "Carl", "Dora"]
# Re (Ben, Dora) wins with 131 eyes: +1 each, Anna and Carl -1 each.
BEN_DORA = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
FORTY_FIVE_HAND = {"tricks": ["Anna", "Ben", "Anna", "Carl", "Anna"], "top_trump_trick": 3}
TZ = timezone.get_current_timezone()
EVENING = datetime.datetime(2026, 11, 20, 21, 0, tzinfo=TZ)


@pytest.fixture
def league(db):
    return LeagueFactory(game="doppelkopf", variant="club")


@pytest.fixture
def people(league):
    return {
        "member": member(league, Role.MEMBER),
        "scorekeeper": member(league, Role.SCOREKEEPER),
        "admin": member(league, Role.ADMIN),
        "outsider": member(LeagueFactory(), Role.ADMIN),
    }


@pytest.fixture
def open_ended(league):
    """An evening started without an end time."""
    return meeting_for(league, FOUR, date=datetime.date(2026, 11, 20))


def enter(meeting, user, count, payload=BEN_DORA, now=EVENING):
    for _number in range(count):
        services.enter_hand(meeting=meeting, payload=payload, by=user, now=now)


def url(name, meeting):
    return reverse(name, kwargs={"slug": meeting.league.slug, "pk": meeting.pk})


# --- the services ------------------------------------------------------------------------------


def test_an_evening_without_an_end_time_ends_at_a_rounds_end_and_not_mid_round(open_ended, people):
    keeper = people["scorekeeper"]
    enter(open_ended, keeper, 2)  # Anna and Ben dealt: Carl and Dora still deal this round
    with pytest.raises(exceptions.MeetingClosed, match="round is not finished"):
        meetings.close_meeting(meeting=open_ended, user=keeper, now=EVENING)
    enter(open_ended, keeper, 6)  # two whole rounds: Dora dealt hand 8
    assert evening.can_close(open_ended, replay.calculate_meeting(open_ended), now=EVENING)
    meetings.close_meeting(meeting=open_ended, user=keeper, now=EVENING)
    open_ended.refresh_from_db()
    assert (open_ended.closed_at, open_ended.closed_by) == (EVENING, keeper)


def test_an_evening_ends_at_a_rounds_end_before_its_end_time(league, people):
    keeper = people["scorekeeper"]
    meeting = meeting_for(league, FOUR, date=datetime.date(2026, 11, 20), end_time=datetime.time(23, 0))
    enter(meeting, keeper, 4)  # one whole round, 21:00: two hours before the end time
    meetings.close_meeting(meeting=meeting, user=keeper, now=EVENING)
    meeting.refresh_from_db()
    assert meeting.closed_at == EVENING


def test_a_race_game_without_an_end_time_ends_after_any_hand(db):
    league = LeagueFactory(game="forty_five", variant="bruff")
    keeper = member(league, Role.SCOREKEEPER)
    meeting = meeting_for(league, ["Anna", "Ben", "Carl"], date=datetime.date(2026, 11, 20))
    with pytest.raises(exceptions.MeetingClosed, match="No hand"):
        meetings.close_meeting(meeting=meeting, user=keeper, now=EVENING)
    enter(meeting, keeper, 1, FORTY_FIVE_HAND)
    meetings.close_meeting(meeting=meeting, user=keeper, now=EVENING)
    meeting.refresh_from_db()
    assert meeting.closed_by == keeper


def test_the_end_time_is_set_changed_and_cleared_while_the_evening_runs(open_ended, people):
    keeper = people["scorekeeper"]
    enter(open_ended, keeper, 4)  # a whole round at 21:00
    meetings.set_end_time(meeting=open_ended, end_time=datetime.time(23, 0))
    open_ended.refresh_from_db()
    assert open_ended.end_time == datetime.time(23, 0)
    # Moved to 20:30: it has passed with the round complete, so the evening is over (no
    # further hand) and the scorekeeper ends it.
    meetings.set_end_time(meeting=open_ended, end_time=datetime.time(20, 30))
    open_ended.refresh_from_db()
    result = replay.calculate_meeting(open_ended)
    assert evening.evening_over(open_ended, result, now=EVENING)
    with pytest.raises(exceptions.MeetingClosed):
        enter(open_ended, keeper, 1)
    # Cleared: the evening goes on.
    meetings.set_end_time(meeting=open_ended, end_time=None)
    open_ended.refresh_from_db()
    assert open_ended.end_time is None
    enter(open_ended, keeper, 1)
    assert open_ended.hands.count() == 5


def test_a_closed_evenings_end_time_is_not_changed(open_ended, people):
    keeper = people["scorekeeper"]
    enter(open_ended, keeper, 4)
    meetings.close_meeting(meeting=open_ended, user=keeper, now=EVENING)
    with pytest.raises(exceptions.MeetingClosed) as error:
        meetings.set_end_time(meeting=open_ended, end_time=datetime.time(23, 0))
    assert error.value.errors[0]["field"] == "meeting"
    open_ended.refresh_from_db()
    assert open_ended.end_time is None


# --- the pages: who may, and the confirmation ------------------------------------------------------


def test_who_may_end_the_evening_and_change_its_end_time(client, open_ended, people):
    enter(open_ended, people["scorekeeper"], 4)
    for name in ("meeting_close", "meeting_end_time"):
        target = url(name, open_ended)
        response = client.get(target)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], name
        response = client.post(target, {"confirm": "1", "end_time": "23:00"})
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], name
        for role, status in (("member", 403), ("outsider", 404)):
            client.force_login(people[role])
            assert client.get(target).status_code == status, (name, role)
            assert client.post(target, {"confirm": "1", "end_time": "23:00"}).status_code == status, (name, role)
        client.logout()
    open_ended.refresh_from_db()
    assert open_ended.closed_at is None and open_ended.end_time is None
    client.force_login(people["scorekeeper"])
    assert client.post(url("meeting_end_time", open_ended), {"end_time": "23:00"}).status_code == 302
    assert client.post(url("meeting_close", open_ended), {"confirm": "1"}).status_code == 302
    open_ended.refresh_from_db()
    assert open_ended.end_time == datetime.time(23, 0) and open_ended.closed_by == people["scorekeeper"]


def test_ending_a_running_evening_asks_first(client, open_ended, people):
    enter(open_ended, people["scorekeeper"], 4)
    client.force_login(people["scorekeeper"])
    page = client.get(url("meeting", open_ended)).content.decode()
    entry = page[page.index('id="at-entry"') : page.index('id="sheet"')]
    # The way to end it is below the sheet, a link to the question, never beside the form.
    assert url("meeting_close", open_ended) not in entry
    assert f'href="{url("meeting_close", open_ended)}"' in page[page.index('id="sheet"') :]
    question = client.get(url("meeting_close", open_ended))
    html = question.content.decode()
    assert question.status_code == 200 and "End the evening?" in html
    assert 'name="confirm"' in html and "Back to the sheet" in html
    # A post without the answer (an old page's one-tap button) only asks.
    response = client.post(url("meeting_close", open_ended))
    assert response.status_code == 200 and "End the evening?" in response.content.decode()
    open_ended.refresh_from_db()
    assert open_ended.closed_at is None
    assert client.post(url("meeting_close", open_ended), {"confirm": "1"}).status_code == 302
    open_ended.refresh_from_db()
    assert open_ended.closed_at is not None


def test_the_question_says_mid_round_that_the_round_is_not_finished(client, open_ended, people):
    enter(open_ended, people["scorekeeper"], 2)
    client.force_login(people["scorekeeper"])
    page = client.get(url("meeting", open_ended)).content.decode()
    assert url("meeting_close", open_ended) not in page
    html = client.get(url("meeting_close", open_ended)).content.decode()
    assert "The round is not finished yet" in html and 'name="confirm"' not in html
    response = client.post(url("meeting_close", open_ended), {"confirm": "1"})
    assert response.status_code == 400 and "The round is not finished yet" in response.content.decode()
    open_ended.refresh_from_db()
    assert open_ended.closed_at is None


def test_the_end_time_form_refuses_a_time_that_is_none_naming_the_field(client, open_ended, people):
    client.force_login(people["scorekeeper"])
    page = client.get(url("meeting", open_ended)).content.decode()
    assert f'href="{url("meeting_end_time", open_ended)}"' in page
    response = client.post(url("meeting_end_time", open_ended), {"end_time": "25:61"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "End time: enter a time such as 23:00, or leave it empty." in html
    open_ended.refresh_from_db()
    assert open_ended.end_time is None
    # Empty: no end time.
    meetings.set_end_time(meeting=open_ended, end_time=datetime.time(23, 0))
    assert client.post(url("meeting_end_time", open_ended), {"end_time": ""}).status_code == 302
    open_ended.refresh_from_db()
    assert open_ended.end_time is None


def test_the_end_time_of_a_closed_evening_is_refused_with_a_reason(client, open_ended, people):
    enter(open_ended, people["scorekeeper"], 4)
    meetings.close_meeting(meeting=open_ended, user=people["scorekeeper"], now=EVENING)
    client.force_login(people["scorekeeper"])
    response = client.post(url("meeting_end_time", open_ended), {"end_time": "23:00"})
    assert response.status_code == 400 and "This evening is closed" in response.content.decode()
    open_ended.refresh_from_db()
    assert open_ended.end_time is None
    page = client.get(url("meeting", open_ended)).content.decode()
    assert url("meeting_end_time", open_ended) not in page


def test_the_end_time_help_of_a_race_game_speaks_of_no_round(db):
    league = LeagueFactory(game="forty_five", variant="bruff")
    keeper = member(league, Role.SCOREKEEPER)
    from django.test import Client

    client = Client()
    client.force_login(keeper)
    with translation.override("en"):
        start = client.get(reverse("meeting_start", kwargs={"slug": league.slug})).content.decode()
    assert "the round" not in start and "This game has no rounds" in start
    dk = LeagueFactory(game="doppelkopf", variant="club")
    client.force_login(member(dk, Role.SCOREKEEPER))
    start = client.get(reverse("meeting_start", kwargs={"slug": dk.slug})).content.decode()
    assert "the round the host started is finished" in start


def test_the_hand_that_completes_the_round_brings_end_the_evening_with_its_row(client, open_ended, people):
    """The answer that appends hand 4's row to the phone's sheet sends the card below the
    sheet too (out of band): the round is complete, the evening can end."""
    enter(open_ended, people["scorekeeper"], 3)
    client.force_login(people["scorekeeper"])
    page = client.get(url("meeting", open_ended)).content.decode()
    assert url("meeting_close", open_ended) not in page
    mark = re.search(r'name="sheet_mark" value="([^"]*)"', page).group(1)
    data = {"expected_hand": "4", "sheet_mark": mark, "kind": "normal", "re": ["Ben", "Dora"], "eyes": "131"}
    response = client.post(url("hand_add_hx", open_ended), {**data, "eyes_for": "re"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and 'hx-swap-oob="beforeend:#sheet-rows"' in html  # appended
    card = re.search(r'<section class="card evening-end" id="evening-end"[^>]*>.*?</section>', html, re.S).group(0)
    assert 'hx-swap-oob="true"' in card and f'href="{url("meeting_close", open_ended)}"' in card
