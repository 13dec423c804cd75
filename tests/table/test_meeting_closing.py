"""The end of the evening in the services (seed 003: "Ist sie erreicht, wird die laufende
Runde zu Ende gespielt"): the hand that finishes the running round after the end time closes
the meeting; a closed meeting refuses every write to its hands; an admin reopens it with a
reason. Doppelkopf, club rules, four at the table (Anna hosts and deals first, Dora deals last)."""

import datetime

import pytest
from django.utils import timezone

from leagues import exceptions
from leagues.models import Hand, MeetingReopening, Role
from leagues.table import evening, meetings, replay, services
from tests.factories import LeagueFactory, meeting_for, member

FOUR = ["Anna", "Ben", "Carl", "Dora"]
# Re (Ben, Dora) wins with 131 eyes: gewonnen 1, Kontra has 109 (not under 90): +1 / -1.
BEN_DORA = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
ANNA_CARL = {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 131}


def at(hour, minute=0, day=20):
    return datetime.datetime(2026, 11, day, hour, minute, tzinfo=timezone.get_current_timezone())


BEFORE_END = at(21, 0)
AFTER_END = at(22, 30)


@pytest.fixture
def league(db):
    return LeagueFactory(game="doppelkopf", variant="club")


@pytest.fixture
def meeting(league):
    return meeting_for(league, FOUR, date=datetime.date(2026, 11, 20), end_time=datetime.time(22, 0))


@pytest.fixture
def keeper(league):
    return member(league, Role.SCOREKEEPER)


def enter(meeting, user, payload, now):
    return services.enter_hand(meeting=meeting, payload=payload, by=user, now=now).hand


def test_the_hand_dealt_by_the_last_seat_after_the_end_time_closes_the_meeting(meeting, keeper):
    enter(meeting, keeper, BEN_DORA, BEFORE_END)  # Anna deals
    enter(meeting, keeper, BEN_DORA, BEFORE_END)  # Ben deals
    # 22:00 has passed: the round Anna started is played to its end, Carl and Dora still deal.
    result = replay.calculate_meeting(meeting)
    assert result["next"]["dealer"] == "Carl"
    assert result["next"]["host_round_games_left"] == 2
    assert evening.evening_over(meeting, result, now=AFTER_END) is False
    enter(meeting, keeper, BEN_DORA, AFTER_END)  # Carl deals
    meeting.refresh_from_db()
    assert meeting.closed_at is None
    enter(meeting, keeper, ANNA_CARL, at(22, 40))  # Dora deals the last game
    meeting.refresh_from_db()
    assert meeting.closed_at == at(22, 40)
    assert meeting.closed_by == keeper
    # Ben: +1 +1 +1 -1 = 2, Dora the same; Ben sits first: he won and holds the pennant.
    assert replay.calculate_meeting(meeting)["totals"] == {"Anna": -2, "Ben": 2, "Carl": -2, "Dora": 2}


def test_a_round_finished_before_the_end_time_does_not_close(meeting, keeper):
    for _number in range(4):
        enter(meeting, keeper, BEN_DORA, BEFORE_END)
    meeting.refresh_from_db()
    assert meeting.closed_at is None
    # Later that night the end time has passed with the round complete: no fifth hand.
    result = replay.calculate_meeting(meeting)
    assert evening.evening_over(meeting, result, now=AFTER_END) is True
    with pytest.raises(exceptions.MeetingClosed) as error:
        enter(meeting, keeper, BEN_DORA, AFTER_END)
    assert error.value.errors[0]["field"] == "meeting"
    assert meeting.hands.count() == 4


def test_an_end_time_after_midnight_ends_the_round_the_next_morning(league, keeper):
    meeting = meeting_for(league, FOUR, date=datetime.date(2026, 11, 20), end_time=datetime.time(1, 0))
    for _number in range(6):
        enter(meeting, keeper, BEN_DORA, at(23, 30))
    meeting.refresh_from_db()
    assert meeting.closed_at is None  # 23:30 is before 1 o'clock the next morning
    enter(meeting, keeper, BEN_DORA, at(1, 10, day=21))  # hand 7, Carl deals
    meeting.refresh_from_db()
    assert meeting.closed_at is None
    enter(meeting, keeper, BEN_DORA, at(1, 15, day=21))  # hand 8, Dora deals the last
    meeting.refresh_from_db()
    assert meeting.closed_at == at(1, 15, day=21)


@pytest.fixture
def closed(meeting, keeper):
    for payload in (BEN_DORA, BEN_DORA, BEN_DORA, ANNA_CARL):
        enter(meeting, keeper, payload, AFTER_END)
    meeting.refresh_from_db()
    assert meeting.closed_at is not None
    return meeting


def test_it_refuses_every_write_to_a_closed_meeting(closed, keeper):
    first = closed.hands.get(number=1)
    before = list(Hand.history.values_list("history_id", flat=True))
    with pytest.raises(exceptions.MeetingClosed):
        enter(closed, keeper, BEN_DORA, AFTER_END)
    with pytest.raises(exceptions.MeetingClosed):
        services.change_hand(hand=first, payload=ANNA_CARL, by=keeper, version=1)
    with pytest.raises(exceptions.MeetingClosed):
        services.delete_hand(hand=first, by=keeper, version=1)
    with pytest.raises(exceptions.MeetingClosed):
        services.restore_hand(hand=first, by=keeper, version=1)
    assert list(Hand.history.values_list("history_id", flat=True)) == before


def test_a_retry_of_the_hand_that_closed_the_meeting_returns_it(meeting, keeper):
    for payload in (BEN_DORA, BEN_DORA, BEN_DORA):
        enter(meeting, keeper, payload, AFTER_END)
    key = "0b8f7a39-6c0e-4c55-8f1d-3a2a9b7c1d20"
    entered = services.enter_hand(meeting=meeting, payload=ANNA_CARL, by=keeper, key=key, now=AFTER_END)
    last, created = entered.hand, entered.created
    entered = services.enter_hand(meeting=meeting, payload=ANNA_CARL, by=keeper, key=key)
    again, created_again = entered.hand, entered.created
    assert (created, created_again) == (True, False) and again.pk == last.pk


def test_close_meeting_waits_for_the_round_not_for_the_end_time(meeting, keeper):
    enter(meeting, keeper, BEN_DORA, BEFORE_END)
    for now in (BEFORE_END, AFTER_END):
        with pytest.raises(exceptions.MeetingClosed, match="round is not finished"):
            meetings.close_meeting(meeting=meeting, user=keeper, now=now)
    for _number in range(3):
        enter(meeting, keeper, BEN_DORA, BEFORE_END)
    # The round is complete at 21:00: a table that stops before its end time ends here.
    meetings.close_meeting(meeting=meeting, user=keeper, now=BEFORE_END)
    meeting.refresh_from_db()
    assert (meeting.closed_at, meeting.closed_by) == (BEFORE_END, keeper)


def test_an_admin_reopens_with_a_reason_and_the_hands_can_be_corrected(closed, league, keeper):
    admin = member(league, Role.ADMIN)
    with pytest.raises(exceptions.InvalidInput) as error:
        meetings.reopen_meeting(meeting=closed, user=admin, reason="   ")
    assert error.value.errors[0]["field"] == "reason"
    closed_at = closed.closed_at
    reopening = meetings.reopen_meeting(meeting=closed, user=admin, reason="Hand 2 was Anna and Carl", now=AFTER_END)
    closed.refresh_from_db()
    assert closed.closed_at is None
    assert (reopening.reason, reopening.reopened_by, reopening.was_closed_at, reopening.was_closed_by) == (
        "Hand 2 was Anna and Carl",
        admin,
        closed_at,
        keeper,
    )
    second = closed.hands.get(number=2)
    services.change_hand(hand=second, payload=ANNA_CARL, by=keeper, version=1)
    # Ben and Dora: +1 -1 +1 -1 = 0; Anna and Carl the same.
    assert replay.calculate_meeting(closed)["totals"] == {"Anna": 0, "Ben": 0, "Carl": 0, "Dora": 0}
    with pytest.raises(exceptions.InvalidInput):
        meetings.reopen_meeting(meeting=closed, user=admin, reason="again")  # not closed
    assert MeetingReopening.objects.count() == 1


def test_a_reopened_evening_takes_a_hand_and_closes_again_after_the_next_round(closed, league, keeper):
    meetings.reopen_meeting(meeting=closed, user=member(league, Role.ADMIN), reason="One more round")
    for _number in range(3):
        enter(closed, keeper, BEN_DORA, AFTER_END)
    closed.refresh_from_db()
    assert closed.closed_at is None
    enter(closed, keeper, BEN_DORA, at(23, 0))
    closed.refresh_from_db()
    assert closed.closed_at == at(23, 0)


# --- race games: no rounds, the evening ends by "End the evening" ------------------------------

FORTY_FIVE_HAND = {"tricks": ["Anna", "Ben", "Anna", "Carl", "Anna"], "top_trump_trick": 3}


def test_a_race_game_goes_on_after_the_end_time_until_the_scorekeeper_ends_it(db):
    league = LeagueFactory(game="forty_five", variant="bruff")
    keeper = member(league, Role.SCOREKEEPER)
    meeting = meeting_for(
        league, ["Anna", "Ben", "Carl"], date=datetime.date(2026, 11, 20), end_time=datetime.time(22, 0)
    )
    with pytest.raises(exceptions.MeetingClosed, match="No hand"):
        meetings.close_meeting(meeting=meeting, user=keeper, now=AFTER_END)
    for _number in range(3):  # the clock ends nothing: a game is played out
        enter(meeting, keeper, FORTY_FIVE_HAND, AFTER_END)
    meeting.refresh_from_db()
    assert meeting.closed_at is None
    assert evening.evening_over(meeting, replay.calculate_meeting(meeting), now=AFTER_END) is False
    meetings.close_meeting(meeting=meeting, user=keeper, now=AFTER_END)
    meeting.refresh_from_db()
    assert meeting.closed_by == keeper
    with pytest.raises(exceptions.MeetingClosed):
        enter(meeting, keeper, FORTY_FIVE_HAND, AFTER_END)
