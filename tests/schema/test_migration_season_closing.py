"""Migration 0007 on a database with finished seasons: a complete season followed by another,
or with every evening closed, is closed with its evenings; the running one is left open."""

import datetime

import pytest
from django.utils import timezone

from tests.migrations import migrate

BEFORE = [("leagues", "0006_meeting_closing")]
AFTER = [("leagues", "0007_season_closing")]


@pytest.mark.django_db(transaction=True)
def test_finished_seasons_are_closed_with_their_evenings(back_to_latest):
    apps = migrate(BEFORE)
    League, Season, Player = (apps.get_model("leagues", m) for m in ("League", "Season", "Player"))
    Meeting = apps.get_model("leagues", "Meeting")
    league = League.objects.create(name="Alt", slug="alt", game="doppelkopf", variant="club")
    host = Player.objects.create(league=league, name="Anna")
    day = datetime.date(2020, 1, 3)
    done = timezone.now()
    # 1: complete, a later season exists, its last evening never closed. 2: complete, every
    # evening closed. 3: complete, its last evening still open (tonight). 4: running.
    seasons = {
        1: (day, [None]),
        2: (day, [done]),
        3: (day, [done, None]),
        4: (None, [None]),
    }
    for number, (closed_on, evenings) in seasons.items():
        season = Season.objects.create(league=league, number=number, started_on=day, closed_on=closed_on)
        for closed_at in evenings:
            Meeting.objects.create(
                league=league,
                season=season,
                date=day,
                host=host,
                game="doppelkopf",
                variant="club",
                closed_at=closed_at,
            )

    apps = migrate(AFTER)
    Season, Meeting = apps.get_model("leagues", "Season"), apps.get_model("leagues", "Meeting")
    closed = {s.number: s.locked_at is not None for s in Season.objects.all()}
    # Season 3 is followed by season 4: closed too, its open evening with it.
    assert closed == {1: True, 2: True, 3: True, 4: False}
    assert list(Meeting.objects.filter(closed_at=None).values_list("season__number", flat=True)) == [4]
