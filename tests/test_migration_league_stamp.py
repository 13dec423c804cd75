"""Migration 0013 on a database with leagues: each gets its stamp, the triggers keep it from
then on, and going back takes them away again."""

import pytest

from tests.migrations import migrate

BEFORE = [("leagues", "0012_meeting_league_order")]
AFTER = [("leagues", "0013_league_stamp")]


@pytest.mark.django_db(transaction=True)
def test_existing_leagues_get_a_stamp_that_their_writes_change(back_to_latest):
    apps = migrate(BEFORE)
    League, Player = apps.get_model("leagues", "League"), apps.get_model("leagues", "Player")
    league = League.objects.create(name="Alt", slug="alt", game="doppelkopf", variant="club")
    other = League.objects.create(name="Anders", slug="anders", game="doppelkopf", variant="club")

    apps = migrate(AFTER)
    LeagueStamp, Player = apps.get_model("leagues", "LeagueStamp"), apps.get_model("leagues", "Player")
    stamps = dict(LeagueStamp.objects.values_list("league_id", "value"))
    assert set(stamps) == {league.pk, other.pk}
    Player.objects.create(league_id=league.pk, name="Anna")
    after = dict(LeagueStamp.objects.values_list("league_id", "value"))
    assert after[league.pk] != stamps[league.pk]
    assert after[other.pk] == stamps[other.pk]

    # Back again: no trigger is left to write to a table that is gone.
    apps = migrate(BEFORE)
    Player = apps.get_model("leagues", "Player")
    Player.objects.create(league_id=league.pk, name="Ben")
    assert Player.objects.filter(league_id=league.pk).count() == 2
