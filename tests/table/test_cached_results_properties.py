"""Property: whatever hands are entered, corrected, deleted and restored, in any
order over evenings that carry special rounds into each other, every cached figure
(HandResult, MeetingResult, MeetingCarry) equals a fresh replay: ``verify_replays`` finds
nothing, and the standings read from MeetingResult equal sums of HandResult."""

import datetime
import random

import pytest
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues import exceptions
from leagues.models import Hand, HandResult, Role
from leagues.stats import selectors
from leagues.table import replay, services, verify
from scoring.doppelkopf_example import random_hand
from scoring.doppelkopf_rules import Rules
from scoring.doppelkopf_value import Context
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db

FIVE = ["Anna", "Ben", "Carl", "Dora", "Emil"]
DAY = datetime.date(2026, 9, 4)

operation = st.tuples(
    st.sampled_from(["add", "add", "add", "change", "delete", "restore"]),
    st.integers(0, 2),  # which meeting
    st.integers(0, 30),  # which hand (modulo the meeting's hands)
)


def next_hand(rng, meeting, payloads):
    """A random hand that fits after ``payloads`` (its dealer, round and soloist)."""
    upcoming = replay.calculate_meeting(meeting, payloads=payloads)["next"]
    ctx = Context(tuple(p.name for p in replay.seated_players(meeting)), Rules(meeting.rules))
    ctx.active = tuple(upcoming["active"])
    ctx.active_set = frozenset(ctx.active)
    ctx.round = upcoming["round"]
    ctx.soloist = upcoming.get("soloist")
    return random_hand(rng, ctx)


def apply(rng, user, meetings, kind, which, index):
    meeting = meetings[which]
    live = list(meeting.hands.live())
    try:
        if kind == "add":
            services.enter_hand(meeting=meeting, payload=next_hand(rng, meeting, [h.payload for h in live]), by=user)
        elif kind == "change" and live:
            hand = live[index % len(live)]
            before = [h.payload for h in live[: live.index(hand)]]
            payload = next_hand(rng, meeting, before)
            services.change_hand(hand=hand, payload=payload, by=user, version=hand.version)
        elif kind == "delete" and live:
            hand = live[index % len(live)]
            services.delete_hand(hand=hand, by=user, version=hand.version)
        elif kind == "restore":
            deleted = list(meeting.hands.exclude(deleted_at=None).order_by("position"))
            if deleted:
                hand = deleted[index % len(deleted)]
                services.restore_hand(hand=hand, by=user, version=hand.version)
    except exceptions.InvalidInput:
        pass  # refused (a later hand would no longer fit): nothing was saved


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), operations=st.lists(operation, min_size=5, max_size=40), carry=st.booleans())
def test_cached_results_always_equal_a_fresh_replay(seed, operations, carry):
    rng = random.Random(seed)
    league = LeagueFactory(
        game="doppelkopf", variant="club", rule_overrides={"carry_special_rounds": True} if carry else {}
    )
    user = member(league, Role.SCOREKEEPER)
    meetings = [meeting_for(league, FIVE[i:] + FIVE[:i], date=DAY + datetime.timedelta(days=7 * i)) for i in range(3)]
    for kind, which, index in operations:
        apply(rng, user, meetings, kind, which, index)
    checked, problems = verify.verify_replays(league=league)
    assert checked == 3
    assert problems == []
    # The standings (from MeetingResult) add up to the hands' own rows.
    s = selectors.standings(league=league)
    totals = dict(
        HandResult.objects.filter(league=league).values_list("player__name").annotate(Sum("delta")).order_by()
    )
    assert {row.player.name: row.total for row in s.all_time} == totals
    assert sum(m.hands for m in s.meetings) == Hand.objects.filter(meeting__league=league, deleted_at=None).count()
