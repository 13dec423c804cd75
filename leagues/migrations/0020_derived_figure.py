"""The statistics' season parts and the rating states in a table of their own
(``DerivedFigure``), written by the ORM, in place of the cache table of migration 0011. What
that table held is worked out again on the next read, so it is dropped, not copied; going
back creates it empty."""

import django.db.models.deletion
from django.core.management import call_command
from django.db import migrations, models

OLD_TABLE = "kartenliga_derived_cache"


def drop_old_table(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name(OLD_TABLE)}")


def create_old_table(apps, schema_editor):
    call_command("createcachetable", OLD_TABLE, database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("leagues", "0019_django_sessions")]

    operations = [
        migrations.CreateModel(
            name="DerivedFigure",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("key", models.CharField(max_length=200, unique=True)),
                ("value", models.BinaryField()),
                (
                    "league",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="+", to="leagues.league"
                    ),
                ),
            ],
        ),
        migrations.RunPython(drop_old_table, create_old_table),
    ]
