"""The database itself refuses two live hands of one number in a meeting, a live hand
without a number, and two hands of one meeting with one idempotency key."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0003_hand_number_version_key"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.UniqueConstraint(
                condition=models.Q(("deleted_at__isnull", True)),
                fields=("meeting", "number"),
                name="one_live_hand_per_number",
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("deleted_at__isnull", True), ("number__isnull", False)),
                    models.Q(("deleted_at__isnull", False), ("number__isnull", True)),
                    _connector="OR",
                ),
                name="live_hand_has_a_number",
            ),
        ),
        migrations.AddConstraint(
            model_name="hand",
            constraint=models.UniqueConstraint(
                condition=models.Q(("idempotency_key__isnull", False)),
                fields=("meeting", "idempotency_key"),
                name="one_hand_per_idempotency_key",
            ),
        ),
    ]
