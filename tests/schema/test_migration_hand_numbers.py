"""Migrations 0003/0004 on a database with hands in it: every live hand gets its number on the
sheet (1, 2, ... by position, per meeting), deleted hands none, every hand version 1; then the
constraints hold."""

import datetime

import pytest
from django.utils import timezone

from tests.migrations import migrate

BEFORE = [("leagues", "0002_handresult_round")]
AFTER = [("leagues", "0004_hand_constraints")]


@pytest.mark.django_db(transaction=True)
def test_existing_hands_get_their_live_numbers(back_to_latest):
    apps = migrate(BEFORE)
    League, Season, Player = (apps.get_model("leagues", m) for m in ("League", "Season", "Player"))
    Meeting, Hand = apps.get_model("leagues", "Meeting"), apps.get_model("leagues", "Hand")
    league = League.objects.create(name="Alt", slug="alt", game="doppelkopf", variant="club")
    season = Season.objects.create(league=league, number=1, started_on=datetime.date(2020, 1, 3))
    host = Player.objects.create(league=league, name="Anna")
    first, second = (
        Meeting.objects.create(
            league=league, season=season, date=datetime.date(2020, 1, day), host=host, game="doppelkopf", variant="c"
        )
        for day in (3, 10)
    )
    deleted = timezone.now()
    # Positions with gaps, out of insertion order, deleted hands in between.
    for meeting, position, gone in [
        (first, 4, False),
        (first, 1, False),
        (first, 2, True),
        (first, 7, False),
        (second, 3, True),
        (second, 5, False),
    ]:
        Hand.objects.create(meeting=meeting, position=position, payload={}, deleted_at=deleted if gone else None)

    apps = migrate(AFTER)
    Hand = apps.get_model("leagues", "Hand")
    rows = Hand.objects.order_by("meeting_id", "position").values_list("meeting_id", "position", "number", "version")
    assert list(rows) == [
        (first.pk, 1, 1, 1),
        (first.pk, 2, None, 1),
        (first.pk, 4, 2, 1),
        (first.pk, 7, 3, 1),
        (second.pk, 3, None, 1),
        (second.pk, 5, 1, 1),
    ]
