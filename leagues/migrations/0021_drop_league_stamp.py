"""LeagueStamp and the triggers that kept it (migration 0013) go: no page is kept under a
league's stamp any more, so no write needs to change one.

The triggers are dropped first (SQLite's per table and operation, PostgreSQL's constraint
triggers and their functions), then the table. Back again, the table and its triggers come
back as 0013 made them, each league with a stamp."""

import importlib

from django.db import migrations

stamp = importlib.import_module("leagues.migrations.0013_league_stamp")


class Migration(migrations.Migration):
    dependencies = [("leagues", "0020_derived_figure")]

    operations = [
        migrations.RunPython(stamp.drop_triggers, stamp.create_triggers),
        migrations.DeleteModel(name="LeagueStamp"),
    ]
