"""No accepted input produces a figure the results table cannot store (HandResult.delta and
.total are 32-bit on PostgreSQL; the reasoning is in scoring/limits.py), and rules or carried
scores stored before the limits existed are a 400, never a 500."""

import datetime

import pytest
from django.urls import reverse

from leagues import exceptions
from leagues.models import Hand, HandResult, Meeting, Role
from leagues.table import results
from scoring.limits import INT32_MAX
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db

TEN = [f"P{i}" for i in range(10)]
MAX_SPOIL = {"stake": 1000, "dealer_extra": 1000, "spoil_stake": 1000}


def test_the_worst_spoil_five_evening_is_stored():
    # P1 jinks the largest pot in each of 2,000 hands: 1800 x 19,000 + 200 x 18,000 (he deals
    # 200 of them) = 37,800,000 chips, the largest total an evening can reach (limits.py).
    league = LeagueFactory(game="spoil_five", variant="standard", rule_overrides=MAX_SPOIL)
    meeting = meeting_for(league, TEN)
    jink = {"tricks": ["P1"] * 5, "jink": True}
    Hand.objects.bulk_create(Hand(meeting=meeting, position=n, number=n, payload=jink) for n in range(1, 2001))
    results.replay_meeting(meeting=meeting)
    last = {r.player.name: r for r in HandResult.objects.filter(meeting=meeting, number=2000).select_related("player")}
    assert last["P1"].total == 37_800_000
    assert last["P0"].total == -(1800 * 2000 + 200 * 3000)
    assert HandResult.objects.filter(meeting=meeting).count() == 20_000
    assert max(abs(r.total) for r in last.values()) < INT32_MAX


def test_a_league_whose_stored_stake_is_out_of_range_cannot_start_a_meeting():
    # Stored before the limits (a Spoil Five stake of 2**31 made every hand a 500 on
    # PostgreSQL): starting a meeting now says which rule is wrong.
    league = LeagueFactory(game="spoil_five", variant="standard", rule_overrides={"stake": 2**31})
    with pytest.raises(exceptions.InvalidInput) as caught:
        meeting_for(league, TEN[:4])
    [error] = caught.value.errors
    assert error["field"] == "rules" and "“stake”" in error["message"]


@pytest.fixture
def old_meeting():
    """A meeting stored before the limits: a stake of 2**31 copied into its rules and a start
    total beyond 64 bits (its JSON answer used to fail in orjson)."""
    league = LeagueFactory(game="auction_45", variant="barker")
    meeting = meeting_for(league, ["Anna", "Ben"], date=datetime.date(2026, 11, 20))
    Meeting.objects.filter(pk=meeting.pk).update(
        rules={**meeting.rules, "bid_30": [2**31, -(2**31)]}, start_totals={"Anna": 2**70}
    )
    meeting.refresh_from_db()
    return meeting


def test_the_api_answers_such_a_meeting_with_a_400(client, old_meeting):
    client.force_login(member(old_meeting.league, Role.SCOREKEEPER))
    url = reverse("api_meeting", kwargs={"slug": old_meeting.league.slug, "pk": old_meeting.pk})
    response = client.get(url)
    assert response.status_code == 400
    fields = {e["field"] for e in response.json()["errors"]}
    assert fields == {"rules", "start_totals"}


def test_the_meeting_page_shows_such_a_meeting_as_broken_not_a_500(client, old_meeting):
    client.force_login(member(old_meeting.league, Role.SCOREKEEPER))
    response = client.get(old_meeting.get_absolute_url())
    assert response.status_code == 200
    assert "hands no longer add up" in response.content.decode()
