"""What if for 1000: an evening played before the Pagat rule set won at exactly 1000, asked
under that rule set as it is now (thousand.md, presets: ``target_inclusive`` on for ``pagat``).

The league keeps "more than 1000" as a house rule (its meetings copy it, as an evening started
under the earlier preset did). Anna starts on the barrel (880), three at the table:

1. Anna bids 120: 100 card points + spades 40 = 140, made: 880 + 120 = 1000; Ben and Carl +10.
   As played: not a win. Under ``pagat``: 1000 wins game 1.
2. Ben bids 100 and makes it with 100; Anna and Carl take 10 each. As played: Anna on the
   barrel scores nothing (1000), Ben 110, Carl 20. Under ``pagat``: a new game from 0: Anna
   10, Ben 100, Carl 10.

Sums of deltas (resets included): as played Anna 120, Ben 110, Carl 20; under ``pagat`` Anna
120 − 990 = −870, Ben 10 + 90 = 100, Carl 10 + 0 = 10. Points scored (resets undone): under
``pagat`` Anna 120 + 10 = 130, Ben 110, Carl 20.
"""

import pytest

from leagues.models import Role
from leagues.seasons import selectors
from leagues.seasons.what_if import season_what_if
from leagues.table import services
from tests.factories import LeagueFactory, meeting_for, member

HANDS = [
    {"declarer": "Anna", "bid": 120, "points": {"Anna": 100, "Ben": 10, "Carl": 10}, "marriages": {"Anna": ["spades"]}},
    {"declarer": "Ben", "bid": 100, "points": {"Anna": 10, "Ben": 100, "Carl": 10}},
]


@pytest.fixture
def season(db):
    league = LeagueFactory(game="thousand", variant="pagat", rule_overrides={"target_inclusive": False})
    keeper = member(league, Role.SCOREKEEPER)
    meeting = meeting_for(league, ["Anna", "Ben", "Carl"], start_totals={"Anna": 880})
    assert meeting.rules["target_inclusive"] is False
    for payload in HANDS:
        services.enter_hand(meeting=meeting, payload=payload, by=keeper)
    return meeting.season


def by_name(table, *fields):
    return {row.player.name: tuple(getattr(row, f) for f in fields) for row in table}


def test_under_the_pagat_preset_exactly_1000_wins_the_game(season):
    result = season_what_if(season=season, variant="pagat", overrides={})
    assert by_name(result.played, "games_won", "total") == {"Anna": (0, 120), "Ben": (0, 110), "Carl": (0, 20)}
    assert by_name(result.what_if, "games_won", "total", "points") == {
        "Anna": (1, -870, 130),
        "Ben": (0, 100, 110),
        "Carl": (0, 10, 20),
    }
    (evening,) = result.evenings
    assert evening.changes == [("Anna", 120, -870), ("Ben", 110, 100), ("Carl", 20, 10)]
    # as played, the stored standings are unchanged by asking
    stored = selectors.season_table(season=season)
    assert by_name(stored, "games_won", "total") == by_name(result.played, "games_won", "total")


def test_with_more_than_1000_kept_nothing_changes(season):
    result = season_what_if(season=season, variant="pagat", overrides={"target_inclusive": False})
    assert all(not evening.changes for evening in result.evenings)
