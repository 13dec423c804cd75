"""Special rounds carried from one meeting to the next (Doppelkopf, ``carry_special_rounds``):
the chain of meetings is replayed in playing order, and a correction of an earlier evening
rewrites the results of the evenings it carried into."""

import datetime

import pytest

from leagues import exceptions
from leagues.models import HandResult
from leagues.table import replay, services
from tests.factories import LeagueFactory, meeting_for, member

FOUR = ["Anna", "Ben", "Carl", "Dora"]
DAY = datetime.date(2026, 11, 20)
# 120 against 120: a Bock round of four games follows (club rules, trigger split_120).
SPLIT = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 120}
PLAIN = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}


@pytest.fixture
def league(db):
    return LeagueFactory(game="doppelkopf", variant="club", rule_overrides={"carry_special_rounds": True})


@pytest.fixture
def scorekeeper(league):
    return member(league, "scorekeeper")


def rounds(meeting):
    return list(
        HandResult.objects.filter(meeting=meeting, player__name="Ben")
        .order_by("number")
        .values_list("round", flat=True)
    )


def test_two_meetings_on_one_date_carry_in_their_order_without_looping(league, scorekeeper):
    first = meeting_for(league, FOUR, date=DAY)
    second = meeting_for(league, FOUR, date=DAY)
    services.enter_hand(meeting=first, payload=SPLIT, by=scorekeeper)
    services.enter_hand(meeting=second, payload=PLAIN, by=scorekeeper)
    assert rounds(first) == ["normal"]
    # The Bock round left open by the first evening is played at the second one.
    assert rounds(second) == ["bock"]
    assert replay.carried_rounds_for(first) == ()


def test_a_correction_of_an_earlier_evening_rewrites_the_next_one(league, scorekeeper):
    first = meeting_for(league, FOUR, date=DAY)
    second = meeting_for(league, FOUR, date=DAY + datetime.timedelta(days=7))
    hand = services.enter_hand(meeting=first, payload=SPLIT, by=scorekeeper).hand
    services.enter_hand(meeting=second, payload=PLAIN, by=scorekeeper)
    assert rounds(second) == ["bock"]
    services.change_hand(hand=hand, payload=PLAIN, by=scorekeeper, version=1)
    assert rounds(second) == ["normal"]
    services.delete_hand(hand=hand, by=scorekeeper, version=2)
    assert rounds(second) == ["normal"]
    services.restore_hand(hand=hand, by=scorekeeper, version=3)
    services.change_hand(hand=hand, payload=SPLIT, by=scorekeeper, version=4)
    assert rounds(second) == ["bock"]
    # The cached figures match a fresh replay of the second evening.
    fresh = replay.calculate_meeting(second)
    ben = HandResult.objects.get(meeting=second, player__name="Ben")
    assert (ben.delta, ben.total) == (fresh["hands"][0]["deltas"]["Ben"], fresh["totals"]["Ben"])


def test_an_earlier_evening_that_no_longer_adds_up_is_named_not_a_crash(league, scorekeeper):
    first = meeting_for(league, FOUR, date=DAY)
    second = meeting_for(league, FOUR, date=DAY + datetime.timedelta(days=7))
    hand = services.enter_hand(meeting=first, payload=SPLIT, by=scorekeeper).hand
    type(hand).objects.filter(pk=hand.pk).update(payload={"kind": "nonsense"})
    with pytest.raises(exceptions.InvalidInput) as caught:
        services.enter_hand(meeting=second, payload=PLAIN, by=scorekeeper)
    assert caught.value.errors[0]["field"] == "carried_rounds"
    assert not second.hands.exists()


def test_the_entry_form_names_an_earlier_evening_that_no_longer_adds_up(client, league, scorekeeper):
    """The meeting page's entry asks the carried rounds once for its form and its write; an
    earlier evening broken behind the app's back is a 400 that names it, never a 500."""
    from django.urls import reverse

    first = meeting_for(league, FOUR, date=DAY)
    second = meeting_for(league, FOUR, date=DAY + datetime.timedelta(days=7))
    hand = services.enter_hand(meeting=first, payload=SPLIT, by=scorekeeper).hand
    type(hand).objects.filter(pk=hand.pk).update(payload={"kind": "nonsense"})
    client.force_login(scorekeeper)
    target = reverse("hand_add_hx", kwargs={"slug": league.slug, "pk": second.pk})
    post = {"expected_hand": "1", "kind": "normal", "re": ["Ben", "Dora"], "eyes": "131", "eyes_for": "re"}
    response = client.post(target, post, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "no longer adds up" in response.content.decode()
    assert not second.hands.exists()
