"""``manage.py verify_replays`` checks the per-meeting caches too (MeetingResult,
MeetingCarry), and ``--rebuild`` rewrites whatever it found wrong from a fresh replay."""

import datetime
import io

import pytest
from django.core.management import CommandError, call_command

from leagues.models import MeetingCarry, MeetingResult, Role
from leagues.table import services
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db

FOUR = ["Anna", "Ben", "Carl", "Dora"]
SPLIT = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 120}
PLAIN = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}


@pytest.fixture
def evenings(db):
    league = LeagueFactory(game="doppelkopf", variant="club", rule_overrides={"carry_special_rounds": True})
    user = member(league, Role.SCOREKEEPER)
    first = meeting_for(league, FOUR, date=datetime.date(2026, 11, 6))
    second = meeting_for(league, FOUR, date=datetime.date(2026, 11, 13))
    services.enter_hand(meeting=first, payload=SPLIT, by=user)
    services.enter_hand(meeting=second, payload=PLAIN, by=user)
    return first, second


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_replays", *args, stdout=out, stderr=err)
    except CommandError as error:
        return error.returncode, out.getvalue(), err.getvalue() + str(error)
    return 0, out.getvalue(), err.getvalue()


def test_a_tampered_meeting_result_is_reported_and_rebuilt(evenings):
    first, second = evenings
    MeetingResult.objects.filter(meeting=second, player__name="Ben").update(total=99)
    status, _out, err = run()
    assert status == 1
    assert "Ben: meeting total cached 99" in err
    # Mended: reported, and the command succeeds (an upgrade runs it as a step).
    status, out, err = run("--rebuild")
    assert status == 0 and "Ben: meeting total cached 99" in err
    assert out == "2 meetings checked: 1 rebuilt from a fresh replay.\n"
    assert run() == (0, "2 meetings checked: every one matches a fresh replay.\n", "")


def test_a_tampered_carried_queue_is_reported_and_rebuilt(evenings):
    first, second = evenings
    MeetingCarry.objects.filter(meeting=second).update(carried_in=[])
    status, _out, err = run()
    assert status == 1 and "carried rounds: carried_in cached []" in err
    run("--rebuild")
    assert MeetingCarry.objects.get(meeting=second).carried_in == ["bock"]
    assert run()[0] == 0


def test_a_missing_meeting_result_is_reported(evenings):
    _first, second = evenings
    MeetingResult.objects.filter(meeting=second).delete()
    status, _out, err = run()
    assert status == 1 and "no cached meeting result" in err
