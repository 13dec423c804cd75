"""A correction that changes the special rounds carried into many later evenings leaves
every cached figure of theirs as a fresh replay has it, however many it reaches (their
queries: tests/test_query_counts.py). Doppelkopf, club rules, four players: 120 against 120
opens a Bock round of four games, carried from evening to evening."""

import datetime

import pytest

from leagues.models import HandResult, MeetingCarry
from leagues.table import services, verify
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db

FOUR = ["Anna", "Ben", "Carl", "Dora"]
DAY = datetime.date(2026, 11, 20)
SPLIT = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 120}
PLAIN = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}


def carrying_league(count):
    """``count`` weekly evenings of a carrying league: the first ends on a split, whose Bock
    round waits; every later one plays one plain game of it (a round of four games is never
    finished in one evening, so it is carried on whole)."""
    league = LeagueFactory(game="doppelkopf", variant="club", rule_overrides={"carry_special_rounds": True})
    keeper = member(league, "scorekeeper")
    meetings = [meeting_for(league, FOUR, date=DAY + datetime.timedelta(days=7 * i)) for i in range(count)]
    for payload in (PLAIN, SPLIT):
        services.enter_hand(meeting=meetings[0], payload=payload, by=keeper)
    for meeting in meetings[1:]:
        services.enter_hand(meeting=meeting, payload=PLAIN, by=keeper)
    return league, keeper, meetings


def bens(meetings):
    """Ben's game at each evening after the first: (its round, his points)."""
    return [HandResult.objects.values_list("round", "delta").get(meeting=m, player__name="Ben") for m in meetings[1:]]


def corrected(keeper, meetings):
    """The split corrected to a plain game, so that no Bock round waits any more."""
    split = meetings[0].hands.get(number=2)
    services.change_hand(hand=split, payload=PLAIN, by=keeper, version=split.version)


@pytest.mark.parametrize("count", [5, 14])
def test_a_correction_reaching_later_evenings_leaves_them_as_a_replay_has_them(count):
    league, keeper, meetings = carrying_league(count)
    # Re won a Bock game: Ben +2 each evening, with the round carried on.
    assert bens(meetings) == [("bock", 2)] * (count - 1)
    corrected(keeper, meetings)
    assert bens(meetings) == [("normal", 1)] * (count - 1)
    assert {tuple(MeetingCarry.objects.get(meeting=m).carried_in) for m in meetings} == {()}
    assert verify.verify_replays(league=league) == (count, [])
