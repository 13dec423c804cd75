"""Who did what, as text, beside each link to an account: an imported league's file names the
people who entered hands, closed and reopened evenings and seasons and saved bills, and no
account of this instance is theirs (leagues/exchange.py). NULL for everything else: added
without a default, so that SQLite adds each column in place instead of copying its table,
which would drop the league stamp's triggers on it (migration 0013)."""

from django.db import migrations, models


def who_field():
    return models.CharField(blank=True, max_length=40, null=True, verbose_name="by (as imported)")


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0016_token_expiry"),
    ]

    operations = [
        migrations.AddField(model_name="historicalhand", name="history_user_name", field=who_field()),
        migrations.AddField(model_name="meeting", name="closed_by_name", field=who_field()),
        migrations.AddField(model_name="meetingreopening", name="reopened_by_name", field=who_field()),
        migrations.AddField(model_name="meetingreopening", name="was_closed_by_name", field=who_field()),
        migrations.AddField(model_name="season", name="locked_by_name", field=who_field()),
        migrations.AddField(model_name="seasonbill", name="settled_by_name", field=who_field()),
        migrations.AddField(model_name="seasonreopening", name="reopened_by_name", field=who_field()),
    ]
