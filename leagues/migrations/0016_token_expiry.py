"""API tokens get an optional expiry; counts of failed logins, invented tokens and reset mails
are kept per window of time where every worker sees them (leagues/throttling.py)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0015_carry_digest_orjson"),
    ]

    operations = [
        migrations.AddField(
            model_name="apitoken",
            name="expires_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="expires at"),
        ),
        migrations.CreateModel(
            name="RateCount",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("scope", models.CharField(max_length=30)),
                ("key", models.CharField(max_length=200)),
                ("window_start", models.DateTimeField()),
                ("hits", models.PositiveIntegerField(default=0)),
            ],
            options={
                "indexes": [models.Index(fields=["scope", "window_start"], name="ratecount_scope_window")],
                "constraints": [
                    models.UniqueConstraint(fields=("scope", "key", "window_start"), name="ratecount_once_per_window")
                ],
            },
        ),
    ]
