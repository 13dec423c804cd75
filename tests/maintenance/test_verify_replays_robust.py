"""``manage.py verify_replays`` never dies on one bad row. The README's production steps run
it with ``--rebuild`` at every upgrade, so a meeting whose row does not read, whose rules are
not what the engine takes or whose rebuild fails in the database is reported with its league,
its meeting and the error; every other meeting is still checked (and mended); the command
exits 1 at the end with the list."""

import datetime

import pytest
from django.db import connection

from leagues.models import HandResult, Meeting, Role
from leagues.table import results, services, verify
from tests.factories import LeagueFactory, meeting_for, member
from tests.table.test_verify_replays import run

pytestmark = pytest.mark.django_db

FOUR = ["Anna", "Ben", "Carl", "Dora"]
DAY = datetime.date(2026, 11, 20)
PLAIN = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
# A closed_at each database stores but Python cannot read back: PostgreSQL keeps year 1 at
# +14:00 as a date before year 1 (UTC); SQLite keeps any text, and 30 February is no date.
UNREADABLE_CLOSED_AT = {"postgresql": "0001-01-01 00:00:00+14:00", "sqlite": "2026-02-30 10:00:00"}


def league_with_two_evenings(slug):
    league = LeagueFactory(slug=slug, game="doppelkopf", variant="club")
    user = member(league, Role.SCOREKEEPER)
    evenings = []
    for week in range(2):
        meeting = meeting_for(league, FOUR, date=DAY + datetime.timedelta(weeks=week))
        services.enter_hand(meeting=meeting, payload=PLAIN, by=user)
        evenings.append(meeting)
    return evenings


@pytest.fixture
def broken_and_sound():
    """League "a-broken" (checked first) and league "b-sound", two evenings each."""
    return league_with_two_evenings("a-broken"), league_with_two_evenings("b-sound")


def break_closed_at(meeting):
    # Straight into the table: no model field would write this value.
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Meeting._meta.db_table} SET closed_at = %s WHERE id = %s",
            [UNREADABLE_CLOSED_AT[connection.vendor], meeting.pk],
        )


def test_a_meeting_whose_row_does_not_read_is_reported_and_the_rest_checked(broken_and_sound):
    (broken, _next), (sound, _later) = broken_and_sound
    break_closed_at(broken)
    HandResult.objects.filter(meeting=sound, player__name="Ben").update(delta=5)
    status, _out, err = run()
    assert status == 1
    assert f"a-broken meeting {broken.pk}" in err and "error" in err
    # The league and meeting after it are still checked: the tampered one is found.
    assert f"b-sound meeting {sound.pk}" in err and "delta cached 5" in err
    assert "1 of 4 meetings" not in err and "2 of 4 meetings do not match" in err


def test_a_rebuild_goes_on_past_a_meeting_that_does_not_read(broken_and_sound):
    (broken, _next), (sound, _later) = broken_and_sound
    break_closed_at(broken)
    HandResult.objects.filter(meeting=sound, player__name="Ben").update(delta=5)
    status, _out, err = run("--rebuild")
    assert status == 1 and f"a-broken meeting {broken.pk}" in err
    assert HandResult.objects.get(meeting=sound, player__name="Ben").delta != 5


def test_rules_that_are_not_an_object_are_reported_with_the_error(broken_and_sound):
    (broken, following), (sound, _later) = broken_and_sound
    Meeting.objects.filter(pk=broken.pk).update(rules=["not", "rules"])
    checked, problems = verify.verify_replays()
    assert checked == 4
    assert [(p.meeting.pk, p.kind) for p in problems] == [(broken.pk, "error")]
    assert "AttributeError" in problems[0].detail
    assert str(problems[0]).startswith(f"a-broken meeting {broken.pk}")


def test_a_database_error_in_one_rebuild_spoils_no_other_meeting(broken_and_sound, monkeypatch):
    (broken, following), (sound, later) = broken_and_sound
    HandResult.objects.filter(meeting__in=[broken, following, sound, later], player__name="Ben").update(delta=5)
    write_results = results.write_results

    def failing_for_the_first(meeting, *args, **kwargs):
        if meeting.pk == broken.pk:
            # A statement the database refuses: PostgreSQL then aborts the transaction.
            with connection.cursor() as cursor:
                cursor.execute("SELECT * FROM no_such_table_at_all")
        return write_results(meeting, *args, **kwargs)

    monkeypatch.setattr(verify, "write_results", failing_for_the_first)
    checked, problems = verify.verify_replays(rebuild=True)
    assert checked == 4
    kinds = {p.meeting.pk: p.kind for p in problems if p.kind == "error"}
    assert kinds == {broken.pk: "error"}
    for meeting in (following, sound, later):
        assert HandResult.objects.get(meeting=meeting, player__name="Ben").delta != 5
    assert HandResult.objects.get(meeting=broken, player__name="Ben").delta == 5


@pytest.mark.parametrize("number", [0, 2**31 - 1])
def test_wrong_hand_numbers_are_reported_and_the_rest_checked(broken_and_sound, number):
    (broken, _following), (sound, _later) = broken_and_sound
    broken.hands.update(number=number)
    HandResult.objects.filter(meeting=sound, player__name="Ben").update(delta=5)
    status, _out, err = run("--rebuild")
    assert status == 1
    assert f"a-broken meeting {broken.pk}" in err and f"has number {number}, expected 1" in err
    assert HandResult.objects.get(meeting=sound, player__name="Ben").delta != 5
