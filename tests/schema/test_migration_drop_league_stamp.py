"""Migration 0021 on a database with leagues: the league stamps and every trigger that kept
them go, writes of a league go on without them, and going back brings them back as 0013 made
them."""

import pytest
from django.db import connection

from tests.migrations import migrate

BEFORE = [("leagues", "0020_derived_figure")]
AFTER = [("leagues", "0021_drop_league_stamp")]


def stamp_triggers():
    """The names of the database's triggers and functions that kept the league stamps."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE tgname LIKE 'kartenliga_stamp%%'"
                " UNION ALL SELECT proname FROM pg_proc WHERE proname LIKE 'kartenliga_%%'"
            )
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'kartenliga_stamp%'")
        return [name for (name,) in cursor.fetchall()]


@pytest.mark.django_db(transaction=True)
def test_the_stamps_and_their_triggers_go_and_come_back(back_to_latest):
    apps = migrate(BEFORE)
    League = apps.get_model("leagues", "League")
    league = League.objects.create(name="Alt", slug="alt", game="doppelkopf", variant="club")
    assert stamp_triggers()

    apps = migrate(AFTER)
    assert stamp_triggers() == []
    assert "leagues_leaguestamp" not in connection.introspection.table_names()
    Player = apps.get_model("leagues", "Player")
    Player.objects.create(league_id=league.pk, name="Anna")
    apps.get_model("leagues", "League").objects.filter(pk=league.pk).update(name="Neu")

    apps = migrate(BEFORE)
    LeagueStamp, Player = apps.get_model("leagues", "LeagueStamp"), apps.get_model("leagues", "Player")
    before = LeagueStamp.objects.get(league_id=league.pk).value
    Player.objects.create(league_id=league.pk, name="Ben")
    assert LeagueStamp.objects.get(league_id=league.pk).value != before
