"""Sessions go back to Django's own table (``django_session``) and Django's login backend; the
table of ours that also held the user's id (``leagues_session``) is dropped.

Nobody is logged out by the upgrade: every live session is copied with its key, data and
expiry date. A session's data names the login backend that logged it in; Django treats a
session whose backend is no longer configured as logged out, so ``leagues.backends.ModelBackend``
is rewritten to Django's ModelBackend, which it was but for how it read the user. Django's
table is emptied first: it still holds the sessions of before our table, and one of those
logged out since must not come back to life."""

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import migrations
from django.utils import timezone

OURS = "leagues.backends.ModelBackend"
DJANGOS = "django.contrib.auth.backends.ModelBackend"


def _with_djangos_backend(store, session_data):
    # Data that cannot be read (another secret key) is anonymous either way: left as it is.
    data = store.decode(session_data)
    if data.get(BACKEND_SESSION_KEY) != OURS:
        return session_data
    return store.encode({**data, BACKEND_SESSION_KEY: DJANGOS})


def to_djangos_table(apps, schema_editor):
    alias = schema_editor.connection.alias
    Ours = apps.get_model("leagues", "Session")
    Djangos = apps.get_model("sessions", "Session")
    store = SessionStore()
    Djangos.objects.using(alias).all().delete()
    live = Ours.objects.using(alias).filter(expire_date__gt=timezone.now())
    Djangos.objects.using(alias).bulk_create(
        (
            Djangos(
                session_key=session.session_key,
                session_data=_with_djangos_backend(store, session.session_data),
                expire_date=session.expire_date,
            )
            for session in live.iterator(chunk_size=2000)
        ),
        batch_size=500,
    )


def to_our_table(apps, schema_editor):
    # Back: the user column stays empty, and the store of ours reads the user the data names.
    # Django's backend in the data is read as ours there.
    alias = schema_editor.connection.alias
    Ours = apps.get_model("leagues", "Session")
    Djangos = apps.get_model("sessions", "Session")
    live = Djangos.objects.using(alias).filter(expire_date__gt=timezone.now())
    Ours.objects.using(alias).bulk_create(
        (
            Ours(session_key=session.session_key, session_data=session.session_data, expire_date=session.expire_date)
            for session in live.iterator(chunk_size=2000)
        ),
        batch_size=500,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0018_pagat_meetings_keep_more_than_1000"),
        ("sessions", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(to_djangos_table, to_our_table),
        migrations.DeleteModel(name="Session"),
    ]
