"""services.write_results writes only the cached rows whose figures change (a delete-and-reinsert
of the whole meeting on every hand left dead row versions behind on PostgreSQL). Doppelkopf,
club rules, four players; every hand a plain win (+1 / −1)."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leagues import locks
from leagues.models import HandResult, MeetingResult, Role
from leagues.table import replay, selectors, services, verify
from tests.factories import LeagueFactory, meeting_for, member

FOUR = ["Anna", "Ben", "Carl", "Dora"]
BEN_DORA = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
ANNA_CARL = {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 131}


@pytest.fixture
def setting(db):
    league = LeagueFactory(game="doppelkopf", variant="club")
    keeper = member(league, Role.SCOREKEEPER)
    meeting = meeting_for(league, FOUR, date=datetime.date(2026, 11, 20))
    for _ in range(3):
        services.enter_hand(meeting=meeting, payload=BEN_DORA, by=keeper)
    return meeting, keeper


def result_writes(queries, table="leagues_handresult"):
    """How ``table`` was written (INSERT, UPSERT: an insert that updates the rows it finds,
    UPDATE, DELETE): a write of rows that did not change would leave dead row versions behind
    on PostgreSQL."""
    verbs = {_verb(q["sql"]) for q in queries if f'"{table}"' in q["sql"]}
    return sorted(verbs & {"INSERT", "UPSERT", "UPDATE", "DELETE"})


def _verb(sql):
    verb = sql.split()[0].upper()
    return "UPSERT" if verb == "INSERT" and "ON CONFLICT" in sql.upper() else verb


def rows(meeting):
    return {
        (r.hand.number, r.player.name): (r.pk, r.delta, r.total)
        for r in HandResult.objects.filter(meeting=meeting).select_related("hand", "player")
    }


def test_a_new_hand_inserts_its_rows_and_rewrites_none_before_it(setting):
    meeting, keeper = setting
    before = rows(meeting)
    with CaptureQueriesContext(connection) as queries:
        services.enter_hand(meeting=meeting, payload=BEN_DORA, by=keeper)
    assert result_writes(queries) == ["INSERT"]
    # Every player's sums change, and the evening's carry (its digest).
    assert result_writes(queries, "leagues_meetingresult") == ["UPSERT"]
    assert result_writes(queries, "leagues_meetingcarry") == ["UPDATE"]
    after = rows(meeting)
    assert {k: v for k, v in after.items() if k[0] <= 3} == before
    # Hand 4: Ben and Dora +1, running total 4.
    assert after[(4, "Ben")][1:] == (1, 4)


def test_a_correction_updates_the_rows_it_changes_in_place(setting):
    meeting, keeper = setting
    before = rows(meeting)
    hand = meeting.hands.get(number=2)
    with CaptureQueriesContext(connection) as queries:
        services.change_hand(hand=hand, payload=ANNA_CARL, by=keeper, version=hand.version)
    assert result_writes(queries) == ["UPSERT"]
    after = rows(meeting)
    assert {k: v[0] for k, v in after.items()} == {k: v[0] for k, v in before.items()}  # same rows
    # Hand 1 unchanged; hand 2 now Anna +1 (total 0), Ben −1 (total 0); hand 3: Ben total 1.
    assert after[(1, "Ben")] == before[(1, "Ben")]
    assert after[(2, "Anna")][1:] == (1, 0) and after[(2, "Ben")][1:] == (-1, 0)
    assert after[(3, "Ben")][1:] == (1, 1)


def test_a_deletion_deletes_only_that_hands_rows(setting):
    meeting, keeper = setting
    before = rows(meeting)
    hand = meeting.hands.get(number=3)
    with CaptureQueriesContext(connection) as queries:
        services.delete_hand(hand=hand, by=keeper, version=hand.version)
    assert result_writes(queries) == ["DELETE"]
    assert rows(meeting) == {k: v for k, v in before.items() if k[0] != 3}


def test_the_cached_results_equal_a_fresh_replay_after_each_write(setting):
    meeting, keeper = setting
    hand = meeting.hands.get(number=1)
    services.change_hand(hand=hand, payload=ANNA_CARL, by=keeper, version=hand.version)
    services.delete_hand(hand=meeting.hands.get(number=2), by=keeper, version=1)
    services.enter_hand(meeting=meeting, payload=ANNA_CARL, by=keeper)
    checked, problems = verify.verify_replays(league=meeting.league)
    assert checked == 1 and problems == []


def test_a_correction_to_what_is_stored_writes_no_cached_row(setting):
    meeting, keeper = setting
    hand = meeting.hands.get(number=2)
    with CaptureQueriesContext(connection) as queries:
        services.change_hand(hand=hand, payload=BEN_DORA, by=keeper, version=hand.version)
    for table in ("leagues_handresult", "leagues_meetingresult", "leagues_meetingcarry"):
        assert result_writes(queries, table) == []


def test_a_replay_before_that_is_not_the_stored_one_spoils_no_row(setting):
    meeting, keeper = setting
    hands = list(meeting.hands.all())
    seated = selectors.seats_of(meeting)
    wrong = replay.calculate_meeting(meeting, payloads=[ANNA_CARL] * 3)  # not what is stored
    services.enter_hand(
        meeting=locks.lock_meeting(meeting.pk),
        payload=BEN_DORA,
        by=keeper,
        locked=services.Locked(hands=hands, seated=seated, before=wrong),
    )
    assert verify.verify_replays()[1] == []
    assert dict(MeetingResult.objects.filter(meeting=meeting).values_list("player__name", "total")) == {
        "Anna": -4,
        "Ben": 4,
        "Carl": -4,
        "Dora": 4,
    }


@pytest.mark.parametrize("stale", ["hands", "missing", "none"])
def test_a_hand_appended_to_sums_that_are_not_its_evenings_sums_them_from_every_row(setting, stale):
    # The stored sums are not those of hands 1-3 (a writer's bug, a restored backup): the
    # entry sums every row, and the evening's sums come out right.
    meeting, keeper = setting
    replay.calculate_meeting(meeting)
    stored = MeetingResult.objects.filter(meeting=meeting)
    if stale == "hands":
        stored.filter(player__name="Anna").update(hands=2, total=99)
    elif stale == "missing":
        stored.filter(player__name="Dora").delete()
    else:
        stored.delete()
    services.enter_hand(meeting=meeting, payload=BEN_DORA, by=keeper)
    sums = dict(MeetingResult.objects.filter(meeting=meeting).values_list("player__name", "total"))
    assert sums == {"Anna": -4, "Ben": 4, "Carl": -4, "Dora": 4}
    assert set(MeetingResult.objects.filter(meeting=meeting).values_list("hands", flat=True)) == {4}
    assert verify.verify_replays()[1] == []
