"""Hands get their live number, a version and an idempotency key; the constraints on them
follow in 0004, once every live hand has its number."""

from django.conf import settings
from django.db import migrations, models


def number_live_hands(apps, schema_editor):
    """Give every live hand its number on the sheet: 1, 2, ... in position order per meeting
    (deleted hands keep NULL). Only live hands are written."""
    Hand = apps.get_model("leagues", "Hand")
    live = Hand.objects.filter(deleted_at__isnull=True).order_by("meeting_id", "position").only("id", "meeting_id")
    batch, meeting_id, number = [], None, 0
    for hand in live.iterator(chunk_size=2000):
        if hand.meeting_id != meeting_id:
            meeting_id, number = hand.meeting_id, 0
        number += 1
        hand.number = number
        batch.append(hand)
        if len(batch) >= 1000:
            Hand.objects.bulk_update(batch, ["number"])
            batch = []
    if batch:
        Hand.objects.bulk_update(batch, ["number"])


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0002_handresult_round"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="idempotency_key",
            field=models.UUIDField(blank=True, null=True, verbose_name="idempotency key"),
        ),
        migrations.AddField(
            model_name="hand",
            name="number",
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name="number"),
        ),
        migrations.AddField(
            model_name="hand",
            name="version",
            field=models.PositiveIntegerField(default=1, verbose_name="version"),
        ),
        migrations.AddField(
            model_name="historicalhand",
            name="idempotency_key",
            field=models.UUIDField(blank=True, null=True, verbose_name="idempotency key"),
        ),
        migrations.AddField(
            model_name="historicalhand",
            name="number",
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name="number"),
        ),
        migrations.AddField(
            model_name="historicalhand",
            name="version",
            field=models.PositiveIntegerField(default=1, verbose_name="version"),
        ),
        migrations.RunPython(number_live_hands, migrations.RunPython.noop),
    ]
