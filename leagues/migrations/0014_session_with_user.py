"""Sessions move to a table of ours that holds the logged-in user's id (leagues/sessions.py,
issue 12). The sessions alive in Django's table are copied, with their user's id, so nobody
is logged out by the upgrade. Django's table is left as it was: nothing reads or writes it
any more."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def copy_sessions(apps, schema_editor):
    from django.contrib.sessions.backends.db import SessionStore
    from django.utils import timezone

    Old = apps.get_model("sessions", "Session")
    New = apps.get_model("leagues", "Session")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    alias = schema_editor.connection.alias
    live = list(Old.objects.using(alias).filter(expire_date__gt=timezone.now()))
    decode = SessionStore().decode  # {} for data it cannot read (another secret key)
    wanted = {}
    for session in live:
        try:
            wanted[session.session_key] = User._meta.pk.to_python(decode(session.session_data).get("_auth_user_id"))
        except Exception:  # noqa: BLE001 (no user id, or not a valid one: a session without a user)
            wanted[session.session_key] = None
    users = set(User.objects.using(alias).filter(pk__in={u for u in wanted.values() if u}).values_list("pk", flat=True))
    New.objects.using(alias).bulk_create(
        New(
            session_key=session.session_key,
            session_data=session.session_data,
            expire_date=session.expire_date,
            user_id=wanted[session.session_key] if wanted[session.session_key] in users else None,
        )
        for session in live
    )


def copy_back(apps, schema_editor):
    Old = apps.get_model("sessions", "Session")
    New = apps.get_model("leagues", "Session")
    alias = schema_editor.connection.alias
    Old.objects.using(alias).all().delete()
    Old.objects.using(alias).bulk_create(
        Old(session_key=s.session_key, session_data=s.session_data, expire_date=s.expire_date)
        for s in New.objects.using(alias).all()
    )


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0013_league_stamp"),
        ("sessions", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Session",
            fields=[
                (
                    "session_key",
                    models.CharField(max_length=40, primary_key=True, serialize=False, verbose_name="session key"),
                ),
                ("session_data", models.TextField(verbose_name="session data")),
                ("expire_date", models.DateTimeField(db_index=True, verbose_name="expire date")),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "session",
                "verbose_name_plural": "sessions",
                "db_table": "leagues_session",
                "abstract": False,
            },
        ),
        migrations.RunPython(copy_sessions, copy_back),
    ]
