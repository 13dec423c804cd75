"""services.write_results writes only the HandResult rows whose figures change (issue 12: a
delete-and-reinsert of the whole meeting on every hand left dead row versions behind on
PostgreSQL). Doppelkopf, club rules, four players; every hand a plain win (+1 / −1)."""

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leagues import services
from leagues.models import HandResult, MeetingResult, Role
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
        services.add_hand(meeting=meeting, payload=BEN_DORA, user=keeper)
    return meeting, keeper


def result_writes(queries):
    """(verb, count) of the statements that wrote leagues_handresult (a statement sent for
    each of a few rows at once, executemany, is logged once as "5 times: INSERT ...")."""
    verbs = [
        re.sub(r"^\d+ times: ", "", q["sql"]).split()[0].upper() for q in queries if "leagues_handresult" in q["sql"]
    ]
    return sorted({(v, verbs.count(v)) for v in verbs if v in ("INSERT", "UPDATE", "DELETE")})


def rows(meeting):
    return {
        (r.hand.number, r.player.name): (r.pk, r.delta, r.total)
        for r in HandResult.objects.filter(meeting=meeting).select_related("hand", "player")
    }


def test_a_new_hand_inserts_its_rows_and_rewrites_none_before_it(setting):
    meeting, keeper = setting
    before = rows(meeting)
    with CaptureQueriesContext(connection) as queries:
        services.add_hand(meeting=meeting, payload=BEN_DORA, user=keeper)
    assert result_writes(queries) == [("INSERT", 1)]
    after = rows(meeting)
    assert {k: v for k, v in after.items() if k[0] <= 3} == before
    # Hand 4: Ben and Dora +1, running total 4.
    assert after[(4, "Ben")][1:] == (1, 4)


def test_a_correction_updates_the_rows_it_changes_in_place(setting):
    meeting, keeper = setting
    before = rows(meeting)
    hand = meeting.hands.get(number=2)
    with CaptureQueriesContext(connection) as queries:
        services.change_hand(hand=hand, payload=ANNA_CARL, user=keeper, version=hand.version)
    assert result_writes(queries) == [("UPDATE", 1)]
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
        services.delete_hand(hand=hand, user=keeper, version=hand.version)
    assert result_writes(queries) == [("DELETE", 1)]
    assert rows(meeting) == {k: v for k, v in before.items() if k[0] != 3}


def test_the_cached_results_equal_a_fresh_replay_after_each_write(setting):
    meeting, keeper = setting
    hand = meeting.hands.get(number=1)
    services.change_hand(hand=hand, payload=ANNA_CARL, user=keeper, version=hand.version)
    services.delete_hand(hand=meeting.hands.get(number=2), user=keeper, version=1)
    services.add_hand(meeting=meeting, payload=ANNA_CARL, user=keeper)
    checked, problems = services.verify_replays(league=meeting.league)
    assert checked == 1 and problems == []


def reads_of(queries, table):
    return [q for q in queries if q["sql"].lstrip().upper().startswith("SELECT") and f'"{table}"' in q["sql"]]


def entered_without_reading(meeting, keeper, payload):
    """Hand 4 entered: no cached row read, hands 1-3's rows as they were; the rows after it.
    Of the sums, the stored ones are read (five rows, selectors.stored_sums) and the new
    hand's rows added to them (services._sums_after)."""
    before = rows(meeting)
    with CaptureQueriesContext(connection) as queries:
        services.add_hand(meeting=meeting, payload=payload, user=keeper)
    assert reads_of(queries, "leagues_handresult") == []
    assert len(reads_of(queries, "leagues_meetingresult")) == 1
    after = rows(meeting)
    assert {k: v for k, v in after.items() if k[0] <= 3} == before
    return after


def test_a_hand_entered_after_its_evening_was_replayed_reads_no_cached_rows(setting):
    # The replay of the first three hands is known (this process kept it: the entries just
    # made it), so the new hand's rows are inserted and the sums upserted without reading
    # what is stored (services.write_results, ``before``).
    meeting, keeper = setting
    services.calculate_meeting(meeting)  # the evening as it stands, replayed (and kept)
    after = entered_without_reading(meeting, keeper, BEN_DORA)
    # Hand 4: Ben and Dora win again, +1 each, 4 in all; Anna and Carl -1, -4 in all.
    assert after[(4, "Ben")][1:] == (1, 4)
    assert after[(4, "Anna")][1:] == (-1, -4)
    sums = dict(MeetingResult.objects.filter(meeting=meeting).values_list("player__name", "total"))
    assert sums == {"Anna": -4, "Ben": 4, "Carl": -4, "Dora": 4}
    assert services.verify_replays()[1] == []


def test_a_hand_entered_where_no_replay_was_kept_reads_no_cached_rows_either(setting):
    # Another worker entered the hands before (this process kept no replay of them): the
    # entry replays them itself and still writes the new hand's rows without reading what
    # is stored (services.enter_locked_hand).
    meeting, keeper = setting
    with services._REPLAYS_LOCK:
        services._REPLAYS.clear()
    after = entered_without_reading(meeting, keeper, ANNA_CARL)
    # Hand 4: Anna and Carl win, +1 each after three hands at -1: -2; Ben and Dora 3 - 1 = 2.
    assert after[(4, "Anna")][1:] == (1, -2)
    assert after[(4, "Ben")][1:] == (-1, 2)
    sums = dict(MeetingResult.objects.filter(meeting=meeting).values_list("player__name", "total"))
    assert sums == {"Anna": -2, "Ben": 2, "Carl": -2, "Dora": 2}
    assert services.verify_replays()[1] == []


def test_a_replay_that_does_not_match_the_one_before_falls_back_to_the_stored_rows(setting):
    meeting, keeper = setting
    hands = list(meeting.hands.live())
    seated = services.seats_of(meeting)
    wrong = services.calculate_meeting(meeting, payloads=[ANNA_CARL] * 3)  # not what is stored
    with CaptureQueriesContext(connection) as queries:
        services.enter_locked_hand(
            meeting=services._lock(meeting.pk), every=hands, seated=seated, payload=BEN_DORA, user=keeper, before=wrong
        )
    assert len(reads_of(queries, "leagues_handresult")) == 1
    assert services.verify_replays()[1] == []
    assert dict(MeetingResult.objects.filter(meeting=meeting).values_list("player__name", "total")) == {
        "Anna": -4,
        "Ben": 4,
        "Carl": -4,
        "Dora": 4,
    }


def test_an_upsert_of_unchanged_sums_writes_no_row(setting):
    meeting, _keeper = setting
    stored = list(MeetingResult.objects.filter(meeting=meeting))
    for row in stored:
        row.pk = None
    update = services.MEETING_FIGURES
    conflict = ("meeting", "player")
    assert services._insert_rows(MeetingResult, stored, conflict=conflict, update=update, only_changed=True) == 0
    stored[0].total += 1
    assert services._insert_rows(MeetingResult, stored, conflict=conflict, update=update, only_changed=True) == 1
    assert MeetingResult.objects.get(meeting=meeting, player=stored[0].player_id).total == stored[0].total


@pytest.mark.parametrize("stale", ["hands", "missing", "none"])
def test_a_hand_appended_to_sums_that_are_not_its_evenings_sums_them_from_every_row(setting, stale):
    # The stored sums are not those of hands 1-3 (a writer's bug, a restored backup): the
    # entry does not add to them, it sums every row, and the evening's sums come out right.
    meeting, keeper = setting
    services.calculate_meeting(meeting)
    stored = MeetingResult.objects.filter(meeting=meeting)
    if stale == "hands":
        stored.filter(player__name="Anna").update(hands=2, total=99)
    elif stale == "missing":
        stored.filter(player__name="Dora").delete()
    else:
        stored.delete()
    services.add_hand(meeting=meeting, payload=BEN_DORA, user=keeper)
    sums = dict(MeetingResult.objects.filter(meeting=meeting).values_list("player__name", "total"))
    assert sums == {"Anna": -4, "Ben": 4, "Carl": -4, "Dora": 4}
    assert set(MeetingResult.objects.filter(meeting=meeting).values_list("hands", flat=True)) == {4}
    assert services.verify_replays()[1] == []
