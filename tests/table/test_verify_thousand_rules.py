"""A 1000 evening whose cached results were written under the earlier count of zero hands is
found and mended by ``verify_replays --rebuild``, the upgrade step that brings every cached
figure to what the engine scores now (README, production steps).

pagat with ``zero_rounds_penalty`` 120: Anna sits on the barrel (880) and takes no trick in
three hands while Ben, Carl and Ben make 100 each. thousand.md: hands played on the barrel
don't count towards the three zeros, so she stays at 880. The earlier count charged her 120
in hand 3 (760): the cached rows below are those figures."""

import io

import pytest
from django.core.management import CommandError, call_command

from leagues.models import HandResult, MeetingResult, Role
from leagues.table import services
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db

HANDS = [
    {"declarer": "Ben", "bid": 100, "points": {"Anna": 0, "Ben": 100, "Carl": 20}},
    {"declarer": "Carl", "bid": 100, "points": {"Anna": 0, "Ben": 20, "Carl": 100}},
    {"declarer": "Ben", "bid": 100, "points": {"Anna": 0, "Ben": 100, "Carl": 20}},
]


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_replays", *args, stdout=out, stderr=err)
    except CommandError as error:
        return error.returncode, out.getvalue(), err.getvalue() + str(error)
    return 0, out.getvalue(), err.getvalue()


@pytest.fixture
def meeting(db):
    league = LeagueFactory(game="thousand", variant="pagat", rule_overrides={"zero_rounds_penalty": 120})
    user = member(league, Role.SCOREKEEPER)
    meeting = meeting_for(league, ["Anna", "Ben", "Carl"], start_totals={"Anna": 880})
    for payload in HANDS:
        services.enter_hand(meeting=meeting, payload=payload, by=user)
    return meeting


def test_the_engine_keeps_anna_on_the_barrel(meeting):
    rows = HandResult.objects.filter(meeting=meeting, player__name="Anna").order_by("number")
    assert list(rows.values_list("delta", "total")) == [(0, 880), (0, 880), (0, 880)]
    assert MeetingResult.objects.get(meeting=meeting, player__name="Anna").total == 0


def test_results_cached_under_the_earlier_count_are_found_and_rebuilt(meeting):
    HandResult.objects.filter(meeting=meeting, player__name="Anna", number=3).update(delta=-120, total=760)
    MeetingResult.objects.filter(meeting=meeting, player__name="Anna").update(total=-120, points=-120)
    status, _out, err = run()
    assert status == 1
    assert "Anna: delta cached -120, replayed 0 (and 1 more)" in err
    status, out, _err = run("--rebuild")
    assert status == 0 and "1 rebuilt from a fresh replay" in out
    third = HandResult.objects.get(meeting=meeting, player__name="Anna", number=3)
    assert (third.delta, third.total) == (0, 880)
    assert MeetingResult.objects.get(meeting=meeting, player__name="Anna").total == 0
    assert run()[0] == 0
