"""Each meeting's carried special rounds are cached (MeetingCarry), so that no page
replays the league's history to learn what an evening starts with, and a correction replays
only the later evenings whose carried rounds it changes."""

import datetime

import pytest

from leagues.models import HandResult, MeetingCarry
from leagues.table import chain, replay, results, services, verify
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db

FOUR = ["Anna", "Ben", "Carl", "Dora"]
DAY = datetime.date(2026, 11, 20)
# 120 against 120: a Bock round of four games follows (club rules, trigger split_120).
SPLIT = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 120}
PLAIN = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
OTHER = {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 150}


@pytest.fixture
def league(db):
    return LeagueFactory(game="doppelkopf", variant="club", rule_overrides={"carry_special_rounds": True})


@pytest.fixture
def scorekeeper(league):
    return member(league, "scorekeeper")


def evenings(league, user, count):
    """``count`` weekly evenings; the first ends on a 120:120 split, so its Bock round (four
    games) is carried into the second, whose one plain game plays the first of them."""
    meetings = [meeting_for(league, FOUR, date=DAY + datetime.timedelta(days=7 * i)) for i in range(count)]
    services.enter_hand(meeting=meetings[0], payload=PLAIN, by=user)
    services.enter_hand(meeting=meetings[0], payload=SPLIT, by=user)
    for meeting in meetings[1:]:
        services.enter_hand(meeting=meeting, payload=PLAIN, by=user)
    return meetings


def test_each_meeting_keeps_what_it_was_given_and_what_it_leaves_open(league, scorekeeper):
    first, second, third = evenings(league, scorekeeper, 3)
    assert MeetingCarry.objects.get(meeting=first).carried_in == []
    assert MeetingCarry.objects.get(meeting=first).queue_after == ["bock"]
    # The second evening plays one game of the Bock round; the rest is carried on.
    assert MeetingCarry.objects.get(meeting=second).carried_in == ["bock"]
    assert MeetingCarry.objects.get(meeting=third).carried_in == MeetingCarry.objects.get(meeting=second).queue_after


def test_the_rounds_carried_into_an_evening_are_read_not_replayed(league, scorekeeper, monkeypatch):
    *_, last = evenings(league, scorekeeper, 4)
    expected = tuple(MeetingCarry.objects.get(meeting=last).carried_in)

    def no_replay(*args, **kwargs):
        raise AssertionError("an evening was replayed")

    monkeypatch.setattr(replay, "parse_request", no_replay)
    assert replay.carried_rounds_for(last) == expected


def test_a_correction_that_changes_nothing_carried_stops_at_the_next_evening(league, scorekeeper, monkeypatch):
    meetings = evenings(league, scorekeeper, 7)
    first_hand = meetings[0].hands.get(number=1)
    later_rows = list(HandResult.objects.filter(meeting__in=meetings[1:]).order_by("id").values())
    written = spied_writes(monkeypatch)
    # Hand 1 won by the other party: no trigger, the same Bock round is carried on; and back.
    services.change_hand(hand=first_hand, payload=OTHER, by=scorekeeper, version=1)
    services.change_hand(hand=first_hand, payload=PLAIN, by=scorekeeper, version=2)
    assert written == [meetings[0].pk, meetings[0].pk]
    assert list(HandResult.objects.filter(meeting__in=meetings[1:]).order_by("id").values()) == later_rows
    assert verify.verify_replays(league=league)[1] == []


def test_a_correction_that_changes_the_carried_rounds_rewrites_the_evenings_after_it(league, scorekeeper):
    first, second, third = evenings(league, scorekeeper, 3)
    split = first.hands.get(number=2)
    services.change_hand(hand=split, payload=PLAIN, by=scorekeeper, version=1)
    assert MeetingCarry.objects.get(meeting=second).carried_in == []
    assert HandResult.objects.get(meeting=second, player__name="Ben").round == "normal"
    assert MeetingCarry.objects.get(meeting=third).carried_in == []
    assert verify.verify_replays(league=league)[1] == []


def spied_later_replays(monkeypatch):
    calls = []
    real = chain.replay_later_meetings
    monkeypatch.setattr(
        services, "replay_later_meetings", lambda meeting, result: calls.append(meeting) or real(meeting, result)
    )
    return calls


def spied_writes(monkeypatch):
    """The meetings whose results are written, in order."""
    written = []
    real = results.write_results

    def spy(meeting, *args, **kwargs):
        written.append(meeting.pk)
        return real(meeting, *args, **kwargs)

    real_reached = chain.write_reached

    def spy_reached(reached):
        written.extend(one.meeting.pk for one in reached)
        return real_reached(reached)

    # The hand writes call it for their evening; the cascade writes the later ones together.
    monkeypatch.setattr(services, "write_results", spy)
    monkeypatch.setattr(results, "write_results", spy)
    monkeypatch.setattr(chain, "write_reached", spy_reached)
    return written


def test_a_hand_added_to_an_earlier_evening_that_carries_more_rewrites_the_next_one(league, scorekeeper, monkeypatch):
    first, second, third = evenings(league, scorekeeper, 3)
    calls = spied_later_replays(monkeypatch)
    # A second 120:120 split: another special round waits after the first evening now.
    services.enter_hand(meeting=first, payload=SPLIT, by=scorekeeper)
    queue = MeetingCarry.objects.get(meeting=first).queue_after
    assert len(queue) == 2 and queue[0] == "bock"
    assert calls == [first]
    assert MeetingCarry.objects.get(meeting=second).carried_in == queue
    assert verify.verify_replays(league=league)[1] == []


def test_a_hand_added_to_an_earlier_evening_that_carries_the_same_rewrites_no_later_one(
    league, scorekeeper, monkeypatch
):
    first, second, third = evenings(league, scorekeeper, 3)
    later_rows = list(HandResult.objects.filter(meeting__in=[second, third]).order_by("id").values())
    written = spied_writes(monkeypatch)
    # A plain game after the split: the Bock round it started still waits, as before.
    services.enter_hand(meeting=first, payload=OTHER, by=scorekeeper)
    assert MeetingCarry.objects.get(meeting=first).queue_after == ["bock"]
    assert written == [first.pk]
    assert list(HandResult.objects.filter(meeting__in=[second, third]).order_by("id").values()) == later_rows
    assert verify.verify_replays(league=league)[1] == []


def test_a_meeting_cached_before_the_cache_existed_is_replayed_once_and_cached(league, scorekeeper):
    first, second, third = evenings(league, scorekeeper, 3)
    MeetingCarry.objects.all().delete()  # as after migration 0008, which leaves it to be filled
    assert replay.carried_rounds_for(third) == tuple(replay.calculate_meeting(second)["next"]["queue_after_meeting"])
    assert set(MeetingCarry.objects.values_list("meeting_id", flat=True)) == {first.pk, second.pk}
    assert verify.verify_replays(league=league)[1] == []


def test_the_previous_meeting_is_the_one_played_before_with_its_cache_and_live_hands(league, scorekeeper):
    first, second, third = evenings(league, scorekeeper, 3)
    # A second meeting on the third's date, with a higher id: played after it (date, then id).
    same_day = meeting_for(league, FOUR, date=third.date)
    services.delete_hand(hand=first.hands.order_by("position").first(), by=scorekeeper, version=1)
    MeetingCarry.objects.filter(meeting=second).delete()  # a meeting not cached yet
    cached = MeetingCarry.objects.get(meeting=first)
    assert replay._previous_carry(first) is None
    # The first evening, its first hand deleted: its live hands are the split alone.
    assert replay._previous_carry(second) == (first.pk, cached.hands_digest, cached.queue_after, [SPLIT])
    assert replay._previous_carry(third) == (second.pk, None, None, [PLAIN])
    assert replay._previous_carry(same_day)[0] == third.pk


def test_a_correction_that_leaves_what_is_carried_rewrites_no_later_evening(league, scorekeeper, monkeypatch):
    first, second, third = evenings(league, scorekeeper, 3)
    later_rows = list(HandResult.objects.filter(meeting__in=[second, third]).order_by("id").values())
    written = spied_writes(monkeypatch)
    # Hand 1 won by the other party: no trigger, the same Bock round is carried on.
    hand = first.hands.get(number=1)
    services.change_hand(hand=hand, payload=OTHER, by=scorekeeper, version=hand.version)
    assert written == [first.pk]
    assert list(HandResult.objects.filter(meeting__in=[second, third]).order_by("id").values()) == later_rows
    # The split corrected away: nothing is carried any more, and the later evenings change.
    split = first.hands.get(number=2)
    services.change_hand(hand=split, payload=PLAIN, by=scorekeeper, version=split.version)
    assert written[1:3] == [first.pk, second.pk]
    assert MeetingCarry.objects.get(meeting=second).carried_in == []
    assert verify.verify_replays(league=league)[1] == []


def test_what_tonights_evening_leaves_open_is_where_the_next_evening_starts(league, scorekeeper):
    *_, last = evenings(league, scorekeeper, 2)
    before = MeetingCarry.objects.get(meeting=last).queue_after
    services.enter_hand(meeting=last, payload=SPLIT, by=scorekeeper)  # another round waits after it
    assert MeetingCarry.objects.get(meeting=last).queue_after != before
    # An evening started after it then starts from what it leaves open.
    later = meeting_for(league, FOUR, date=DAY + datetime.timedelta(days=21))
    assert replay.carried_rounds_for(later) == tuple(MeetingCarry.objects.get(meeting=last).queue_after)
    assert verify.verify_replays(league=league)[1] == []
