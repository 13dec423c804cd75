"""Migration 0019: the live sessions move back to Django's table and stay logged in under
Django's login backend; an expired one and the stale ones left in Django's table do not."""

import datetime

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone

from tests.migrations import migrate

BEFORE = [("leagues", "0018_pagat_meetings_keep_more_than_1000"), ("sessions", "0001_initial")]
AFTER = [("leagues", "0019_django_sessions")]
OURS = "leagues.backends.ModelBackend"
DJANGOS = "django.contrib.auth.backends.ModelBackend"


def login_data(user, backend):
    return {SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: backend, HASH_SESSION_KEY: user.get_session_auth_hash()}


@pytest.mark.django_db(transaction=True)
def test_live_sessions_move_to_djangos_table_and_stay_logged_in(client, back_to_latest):
    apps = migrate(BEFORE)
    Ours, Djangos = apps.get_model("leagues", "Session"), apps.get_model("sessions", "Session")
    anna = get_user_model().objects.create_user(username="anna", password="ein-langes-passwort-42")
    encode = SessionStore().encode
    later = timezone.now() + datetime.timedelta(days=1)
    logged_in = login_data(anna, OURS)
    stored = {
        "a": encode(logged_in),
        "b": encode({"lang": "de"}),
        "c": "not a session",
        "d": encode(logged_in),
        "e": encode(login_data(anna, DJANGOS)),
    }
    for key, data in stored.items():
        expires = timezone.now() - datetime.timedelta(days=1) if key == "d" else later
        Ours.objects.create(session_key=key * 32, session_data=data, expire_date=expires)
    # Left in Django's table from before ours, and logged out since.
    Djangos.objects.create(session_key="z" * 32, session_data=encode(logged_in), expire_date=later)

    apps = migrate(AFTER)
    moved = apps.get_model("sessions", "Session").objects.all()
    assert sorted(s.session_key for s in moved) == ["a" * 32, "b" * 32, "c" * 32, "e" * 32]
    decode = SessionStore().decode
    assert decode(moved.get(pk="a" * 32).session_data) == {**logged_in, BACKEND_SESSION_KEY: DJANGOS}
    # Anonymous, unreadable or already Django's: as they were.
    for key in "bce":
        assert moved.get(pk=key * 32).session_data == stored[key]

    # Today's pages read today's tables: the later migrations first (none touches sessions).
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    client.cookies["sessionid"] = "a" * 32
    assert client.get(reverse("home")).wsgi_request.user == anna
