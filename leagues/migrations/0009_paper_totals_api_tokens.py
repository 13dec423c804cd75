# Issue 14 §4: a meeting copied from paper as each player's totals, and personal API tokens.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0008_meeting_results"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="meeting",
            name="imported_totals",
            field=models.BooleanField(default=False, verbose_name="imported totals"),
        ),
        migrations.CreateModel(
            name="ApiToken",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=60, verbose_name="name")),
                ("digest", models.CharField(max_length=64, unique=True)),
                ("prefix", models.CharField(max_length=12)),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created at")),
                ("last_used_at", models.DateTimeField(blank=True, null=True, verbose_name="last used")),
                ("revoked_at", models.DateTimeField(blank=True, null=True, verbose_name="revoked at")),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="api_tokens",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={"ordering": ["-created_at", "-id"]},
        ),
    ]
