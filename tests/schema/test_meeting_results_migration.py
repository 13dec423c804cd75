"""Migration 0008 fills MeetingResult for meetings played before it existed: the same rows
services.write_results keeps (checked by verify_replays), and the same standings."""

import datetime
import importlib

import pytest
from django.apps import apps

from leagues.models import MeetingResult, Role
from leagues.stats import selectors
from leagues.table import services, verify
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db

FOUR = ["Anna", "Ben", "Carl", "Dora"]
PLAIN = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
SOLO = {"kind": "solo", "solo": "damen", "re": ["Anna"], "re_eyes": 100}

fill = importlib.import_module("leagues.migrations.0008_meeting_results").fill_meeting_results


def test_the_migration_fills_the_meeting_results_the_writer_keeps():
    league = LeagueFactory(game="doppelkopf", variant="club")
    user = member(league, Role.SCOREKEEPER)
    for week, payloads in enumerate([[PLAIN, SOLO], [SOLO, PLAIN, PLAIN], []]):
        meeting = meeting_for(league, FOUR, date=datetime.date(2026, 10, 2) + datetime.timedelta(days=7 * week))
        for payload in payloads:
            services.enter_hand(meeting=meeting, payload=payload, by=user)
    kept = list(MeetingResult.objects.order_by("meeting", "player").values())
    before = selectors.standings(league=league)
    MeetingResult.objects.all().delete()  # as before migration 0008
    fill(apps, None)
    assert [
        {k: v for k, v in row.items() if k != "id"}
        for row in MeetingResult.objects.order_by("meeting", "player").values()
    ] == [{k: v for k, v in row.items() if k != "id"} for row in kept]
    assert verify.verify_replays(league=league)[1] == []
    after = selectors.standings(league=league)
    assert [(r.player.name, r.total, r.evenings_won) for r in after.table] == [
        (r.player.name, r.total, r.evenings_won) for r in before.table
    ]
    assert len(kept) == 8  # two meetings with hands, four players each; the empty one has none
