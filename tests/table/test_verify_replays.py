"""``manage.py verify_replays``: every meeting replayed afresh and compared with its cached
results. A tampered result, a hand that no longer replays or a wrong live number is reported
(exit status 1); a clean database gives one summary line (exit status 0)."""

import datetime
import io

import pytest
from django.core.management import CommandError, call_command

from leagues.models import Hand, HandResult, Role
from leagues.table import services, verify
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
def evenings(league):
    """Two evenings; the first leaves a Bock round open, which the second plays (so its
    cached figures are right only when the check hands the carried round along)."""
    user = member(league, Role.SCOREKEEPER)
    first = meeting_for(league, FOUR, date=DAY)
    second = meeting_for(league, FOUR, date=DAY + datetime.timedelta(days=7))
    services.enter_hand(meeting=first, payload=SPLIT, by=user)
    services.enter_hand(meeting=first, payload=PLAIN, by=user)
    services.enter_hand(meeting=second, payload=PLAIN, by=user)
    assert HandResult.objects.get(meeting=second, player__name="Ben").round == "bock"
    return first, second


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_replays", *args, stdout=out, stderr=err)
    except CommandError as error:
        return error.returncode, out.getvalue(), err.getvalue() + str(error)
    return 0, out.getvalue(), err.getvalue()


def test_a_clean_database_gives_one_summary_line_and_status_0(evenings):
    status, out, err = run()
    assert status == 0
    assert out.strip().splitlines() == ["2 meetings checked: every one matches a fresh replay."]
    assert err == ""


def test_it_reports_a_tampered_result_with_status_1(evenings):
    first, second = evenings
    HandResult.objects.filter(meeting=second, player__name="Ben").update(delta=5)
    status, _out, err = run()
    assert status == 1
    assert f"meeting {second.pk}" in err and "delta cached 5, replayed 2" in err
    assert f"meeting {first.pk}" not in err
    checked, problems = verify.verify_replays()
    assert checked == 2 and [(p.meeting.pk, p.kind) for p in problems] == [(second.pk, "differs")]


def test_it_reports_a_missing_result_row(evenings):
    _first, second = evenings
    HandResult.objects.filter(meeting=second, player__name="Carl").delete()
    _checked, problems = verify.verify_replays()
    assert [(p.meeting.pk, p.kind) for p in problems] == [(second.pk, "differs")]
    assert "Carl: no cached row" in problems[0].detail


def test_it_reports_a_meeting_that_no_longer_replays_and_the_one_it_carries_into(evenings):
    first, second = evenings
    Hand.objects.filter(meeting=first, number=2).update(payload={"kind": "nonsense"})
    status, _out, err = run()
    assert status == 1
    _checked, problems = verify.verify_replays()
    assert [(p.meeting.pk, p.kind) for p in problems] == [(first.pk, "broken"), (second.pk, "broken")]
    assert "the evening before it no longer replays" in problems[1].detail


def test_it_reports_wrong_live_numbers(evenings):
    first, _second = evenings
    Hand.objects.filter(meeting=first, number=2).update(number=7)
    _checked, problems = verify.verify_replays()
    assert [(p.meeting.pk, p.kind) for p in problems] == [(first.pk, "numbers")]


def test_it_checks_one_league_when_asked(evenings, league):
    _first, second = evenings
    HandResult.objects.filter(meeting=second).update(total=99)
    other = LeagueFactory(game="doppelkopf", variant="club")
    meeting_for(other, FOUR, date=DAY)
    status, out, _err = run("--league", other.slug)
    assert (status, out.strip()) == (0, "1 meeting checked: every one matches a fresh replay.")
    assert run("--league", league.slug)[0] == 1
    assert run("--league", "no-such-league")[0] == 2
