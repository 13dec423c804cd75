"""Property (docs/decisions.md, "Club nights": the evening's winner): whatever hands are entered
at the tables of a club night, in whatever order its tables are closed and reopened, and
however the league combines them, a closed night has exactly one winner, the first of its
standings who played, marked on one result row of its tables; a night with a table open has
none; and ``verify_replays`` finds nothing. Closing goes through ``close_meeting_row``, the
one place an evening at the table closes (the page's "End the evening", the hand that ends it
after the end time), so that a test is not held to a Doppelkopf round's end."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.models import Combine, MeetingResult, Role
from leagues.table import meetings, night_selectors, replay, services, verify
from scoring.doppelkopf_example import random_hand
from scoring.doppelkopf_rules import Rules
from scoring.doppelkopf_value import Context
from tests.factories import LeagueFactory, member, night_for

pytestmark = pytest.mark.django_db

TABLES = [["Anna", "Ben", "Carl", "Dora"], ["Emil", "Fritz", "Gabi", "Hans", "Ida"], ["Jan", "Kai", "Lea", "Max"]]

operation = st.tuples(st.sampled_from(["hand", "hand", "hand", "close", "reopen"]), st.integers(0, 2))


def next_hand(rng, meeting):
    """A random hand that fits next at ``meeting`` (its dealer, round and soloist)."""
    payloads = list(meeting.hands.live().values_list("payload", flat=True))
    upcoming = replay.calculate_meeting(meeting, payloads=payloads)["next"]
    ctx = Context(tuple(p.name for p in replay.seated_players(meeting)), Rules(meeting.rules))
    ctx.active = tuple(upcoming["active"])
    ctx.active_set = frozenset(ctx.active)
    ctx.round = upcoming["round"]
    ctx.soloist = upcoming.get("soloist")
    return random_hand(rng, ctx)


def winners(night):
    return list(
        MeetingResult.objects.filter(meeting__club_night=night, won_evening=True).values_list("player__name", flat=True)
    )


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 10**6),
    operations=st.lists(operation, min_size=3, max_size=25),
    method=st.sampled_from([c.value for c in Combine]),
)
def test_a_closed_night_has_exactly_one_winner_and_an_open_one_none(seed, operations, method):
    rng = random.Random(seed)
    league = LeagueFactory(game="doppelkopf", variant="club", combine_tables=method)
    admin = member(league, Role.ADMIN)
    night = night_for(league, TABLES)
    tables = list(night.tables.order_by("table_number"))
    for kind, which in operations:
        table = tables[which]
        table.refresh_from_db()
        if kind == "hand" and table.closed_at is None:
            services.enter_hand(meeting=table, payload=next_hand(rng, table), by=admin)
        elif kind == "close" and table.closed_at is None:
            meetings.close_meeting_row(table, user=admin)
        elif kind == "reopen" and table.closed_at is not None:
            meetings.reopen_meeting(meeting=table, user=admin, reason="a check")
        found = winners(night)
        closed = all(t.closed_at is not None for t in night.tables.all())
        played = MeetingResult.objects.filter(meeting__club_night=night).values_list("player__name", flat=True)
        if not closed or not played:
            assert found == []
            continue
        first = next(row.name for row in night_selectors.night_standings(night=night) if row.name in set(played))
        assert found == [first]
    assert verify.verify_replays(league=league)[1] == []
