"""The table of CACHES["derived"] (leagues/derived_cache.py): the statistics' season parts and
the rating states, kept across restarts and shared by every worker (issue 14).

Created as ``manage.py createcachetable`` creates a cache table (the same command, so the
same schema on SQLite and PostgreSQL), here so that ``migrate`` alone sets a database up, the
test database too. The name is written here, not read from the settings: a later change of
the settings must not change what this migration did. Going back drops the table (it holds
nothing that is not worked out again from the hands)."""

from django.core.management import call_command
from django.db import migrations

TABLE = "kartenliga_derived_cache"


def create_table(apps, schema_editor):
    # Skips a table that exists already (an operator who ran createcachetable first).
    call_command("createcachetable", TABLE, database=schema_editor.connection.alias, verbosity=0)


def drop_table(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name(TABLE)}")


class Migration(migrations.Migration):
    dependencies = [("leagues", "0010_league_history")]

    operations = [migrations.RunPython(create_table, drop_table)]
