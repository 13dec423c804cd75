"""A club night is one evening with one winner (docs/decisions.md, "Club nights": the evening's
winner): the first of the night's standings, marked on his table's result row once every
table of the night is closed, and on no other row of the night's tables; nobody while any
table is open ("only closed evenings win"). A table's own leader is never marked.

Doppelkopf, club rules: a normal game Re wins at 131 eyes is 1 point (Re +1 each, Kontra -1).
Table 1: Anna, Ben, Carl, Dora; Ben and Dora win three games, Anna and Carl one: Ben +2,
Dora +2, Anna -2, Carl -2 (Ben leads his table, first in seat order). Table 2: Emil, Fritz,
Gabi, Hans; Fritz and Gabi win three, Fritz and Hans one: Fritz +4, Gabi +2, Hans -2,
Emil -4. The tables combined by points: Fritz wins the night with 4."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from leagues.models import Meeting, MeetingResult, Role
from leagues.seasons import services as season_services
from leagues.stats import derived_cache, statistics
from leagues.stats import selectors as stats_selectors
from leagues.table import meetings, night_winner, services, verify
from leagues.table import selectors as table_selectors
from tests.factories import LeagueFactory, member, night_for

pytestmark = pytest.mark.django_db

FIRST = ["Anna", "Ben", "Carl", "Dora"]
SECOND = ["Emil", "Fritz", "Gabi", "Hans"]
NOW = datetime.datetime(2026, 11, 20, 23, 0, tzinfo=timezone.get_current_timezone())


def won_by(*re):
    return {"kind": "normal", "re": list(re), "re_eyes": 131, "announcements": [], "specials": []}


@pytest.fixture(autouse=True)
def fresh_cache():
    derived_cache.clear()
    yield
    derived_cache.clear()


@pytest.fixture
def league():
    return LeagueFactory(game="doppelkopf", variant="club")


@pytest.fixture
def admin(league):
    return member(league, Role.ADMIN, first_name="Keeper")


@pytest.fixture
def tables(league, admin):
    night = night_for(league, [FIRST, SECOND])
    first, second = night.tables.order_by("table_number")
    for payload in (won_by("Ben", "Dora"),) * 3 + (won_by("Anna", "Carl"),):
        services.enter_hand(meeting=first, payload=payload, by=admin, now=NOW)
    for payload in (won_by("Fritz", "Gabi"),) * 3 + (won_by("Fritz", "Hans"),):
        services.enter_hand(meeting=second, payload=payload, by=admin, now=NOW)
    return first, second


def marked(night_id):
    """(table number, name) of every result row of the night marked as the evening's winner."""
    rows = MeetingResult.objects.filter(meeting__club_night_id=night_id, won_evening=True)
    return sorted(rows.values_list("meeting__table_number", "player__name"))


def close(meeting, user):
    meetings.close_meeting(meeting=meeting, user=user, now=NOW)
    meeting.refresh_from_db()


def test_no_row_is_marked_while_the_night_is_played(tables):
    """Decision 1: a table's own leader (Ben) is not the evening's winner."""
    first, _second = tables
    assert marked(first.club_night_id) == []


def test_the_night_wins_only_once_every_table_is_closed(tables, admin):
    """Decision 1: closing one table gives no winner; the last one gives the night's."""
    first, second = tables
    close(first, admin)
    assert marked(first.club_night_id) == []
    assert table_selectors.meeting_winner(meeting=first) is None
    close(second, admin)
    assert marked(first.club_night_id) == [(2, "Fritz")]
    assert table_selectors.meeting_winner(meeting=first).name == "Fritz"


def test_a_reopened_table_takes_the_winner_away_and_its_close_gives_the_new_one(tables, admin):
    """Decision 1: reopen and correct; the mark moves to the new winner, on one row only."""
    first, second = tables
    close(first, admin)
    close(second, admin)
    meetings.reopen_meeting(meeting=first, user=admin, reason="Ben's sheet was short")
    first.refresh_from_db()
    assert marked(first.club_night_id) == []
    # Four more games of Ben and Dora: Ben +6, Dora +6; Ben is first in seat order.
    for _ in range(4):
        services.enter_hand(meeting=first, payload=won_by("Ben", "Dora"), by=admin, now=NOW)
    assert marked(first.club_night_id) == []
    close(first, admin)
    assert marked(first.club_night_id) == [(1, "Ben")]


def test_closing_a_table_writes_the_other_tables_rows_only_when_the_winner_changes(tables, admin):
    """Decision 1: the first table's close writes no result row; the last one writes one."""
    first, second = tables
    with CaptureQueriesContext(connection) as first_close:
        meetings.close_meeting_row(first, user=admin, now=NOW)
    with CaptureQueriesContext(connection) as last_close:
        meetings.close_meeting_row(second, user=admin, now=NOW)
    assert not [q for q in first_close if q["sql"].startswith("UPDATE") and "meetingresult" in q["sql"]]
    assert len([q for q in last_close if q["sql"].startswith("UPDATE") and "meetingresult" in q["sql"]]) == 1


def test_a_hand_at_a_table_never_reads_the_other_tables(tables, admin):
    """Decision 1: while the night is played a hand locks and reads its own table only."""
    first, _second = tables
    with CaptureQueriesContext(connection) as entry:
        services.enter_hand(meeting=first, payload=won_by("Ben", "Dora"), by=admin, now=NOW)
    assert not [q for q in entry if "clubnight" in q["sql"]]
    assert not [q for q in entry if '"club_night_id" =' in q["sql"] or '"club_night_id" IN' in q["sql"]]


def test_the_season_closing_its_open_tables_gives_the_night_its_winner(tables, admin):
    """Decision 1: a season closed with the night's tables open closes the night too."""
    first, _second = tables
    season = first.season
    season.closed_on = first.date
    season.save(update_fields=["closed_on"])
    season_services.close_season(season=season, user=admin, now=NOW)
    assert marked(first.club_night_id) == [(2, "Fritz")]


def test_keeping_many_nights_costs_the_same_queries(league, admin, tables):
    """Decision 1: a fixed number of queries whatever the number of nights and tables."""
    first, second = tables
    other = night_for(league, [FIRST, SECOND], date=datetime.date(2026, 11, 27))
    for meeting in (first, second, *other.tables.all()):
        Meeting.objects.filter(pk=meeting.pk).update(closed_at=NOW)
    with CaptureQueriesContext(connection) as one:
        night_winner.keep_night_winners(night_ids=[first.club_night_id])
    MeetingResult.objects.update(won_evening=False)
    with CaptureQueriesContext(connection) as two:
        night_winner.keep_night_winners(night_ids=[first.club_night_id, other.pk])
    assert len(one) == len(two)


def test_the_standings_and_statistics_count_one_evening_won(league, tables, admin):
    """Decision 1: the ★ and "evenings won" count the night once, for its winner."""
    first, second = tables
    close(first, admin)
    assert {r.player.name: r.evenings_won for r in stats_selectors.standings(league=league).table}["Ben"] == 0
    close(second, admin)
    won = {r.player.name: r.evenings_won for r in stats_selectors.standings(league=league).table}
    assert won["Fritz"] == 1 and sum(won.values()) == 1
    pennants = {p.player.name: p.pennants for p in statistics.league_statistics(league=league).players}
    assert pennants["Fritz"] == 1 and sum(pennants.values()) == 1


def test_statistics_kept_before_the_last_table_closes_count_the_winner_after(league, tables, admin):
    """Decision 1: a table closed while another is open is counted with the night, so its
    kept statistics never miss the night's winner sitting at it."""
    first, second = tables
    # Four more games of Ben and Dora: Ben +6 leads the night, at table 1, closed first.
    for _ in range(4):
        services.enter_hand(meeting=first, payload=won_by("Ben", "Dora"), by=admin, now=NOW)
    close(first, admin)
    before = {p.player.name: p.pennants for p in statistics.league_statistics(league=league).players}
    assert sum(before.values()) == 0
    close(second, admin)
    after = {p.player.name: p.pennants for p in statistics.league_statistics(league=league).players}
    assert after["Ben"] == 1 and sum(after.values()) == 1


def test_verify_replays_agrees_with_the_night_and_mends_a_wrong_mark(league, tables, admin):
    """Decision 1: verify_replays knows the night's winner: nothing to report as written; a
    table leader's mark is reported and mended by --rebuild."""
    first, second = tables
    close(first, admin)
    close(second, admin)
    assert verify.verify_replays(league=league)[1] == []
    MeetingResult.objects.filter(meeting=first, player__name="Ben").update(won_evening=True)
    problems = verify.verify_replays(league=league, rebuild=True)[1]
    assert [p.kind for p in problems] == ["differs"]
    assert "cached Ben, Fritz, replayed Fritz" in problems[0].detail
    assert marked(first.club_night_id) == [(2, "Fritz")]
    assert verify.verify_replays(league=league)[1] == []


def test_verify_replays_finds_a_winner_of_a_night_still_open(league, tables, admin):
    """Decision 1: a mark while a table is open is wrong."""
    first, _second = tables
    MeetingResult.objects.filter(meeting=first, player__name="Ben").update(won_evening=True)
    (problem,) = verify.verify_replays(league=league)[1]
    assert "cached Ben, replayed nobody" in problem.detail


def test_end_the_evening_names_the_nights_leader_at_its_last_open_table(tables, admin):
    """Decision 1: "End the evening?" at a table names the night's winner-to-be only when
    ending it ends the night."""
    first, second = tables
    assert table_selectors.evening_leader(meeting=first) is None
    close(first, admin)
    assert table_selectors.evening_leader(meeting=second).name == "Fritz"


def test_a_tables_share_names_the_nights_winner_and_its_table(tables, admin, rf):
    """Decision 1 (sharing): table 1's share names Fritz, the night's winner at table 2."""
    from leagues.table import sharing
    from leagues.table.selectors import seats_of

    first, second = tables
    close(first, admin)
    close(second, admin)
    first.league.refresh_from_db()
    share = sharing.evening(rf.get("/"), first, seats=seats_of(first))
    assert "Table 1" in share["title"]
    assert "Tonight's winner: Fritz" in share["text"]
