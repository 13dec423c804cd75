"""Migration 0014: the sessions alive in Django's table move to ours with their user's id, so
an upgrade logs nobody out; an expired one stays behind."""

import datetime

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone

from tests.migrations import migrate

BEFORE = [("leagues", "0013_league_stamp"), ("sessions", "0001_initial")]
AFTER = [("leagues", "0014_session_with_user")]


@pytest.mark.django_db(transaction=True)
def test_live_sessions_are_copied_with_their_user(back_to_latest):
    apps = migrate(BEFORE)
    User = apps.get_model("auth", "User")
    Old = apps.get_model("sessions", "Session")
    anna = User.objects.create(username="anna")
    encode = SessionStore().encode
    later = timezone.now() + datetime.timedelta(days=1)
    Old.objects.create(session_key="a" * 32, session_data=encode({"_auth_user_id": str(anna.pk)}), expire_date=later)
    Old.objects.create(session_key="b" * 32, session_data=encode({"lang": "de"}), expire_date=later)
    Old.objects.create(session_key="c" * 32, session_data="not a session", expire_date=later)
    Old.objects.create(
        session_key="d" * 32,
        session_data=encode({"_auth_user_id": str(anna.pk)}),
        expire_date=timezone.now() - datetime.timedelta(days=1),
    )
    Old.objects.create(session_key="e" * 32, session_data=encode({"_auth_user_id": "999999"}), expire_date=later)

    apps = migrate(AFTER)
    New = apps.get_model("leagues", "Session")
    copied = dict(New.objects.values_list("session_key", "user_id"))
    # Anna's live session with her id; the one without a login, the unreadable one and the one
    # of a user who is gone without one (the data still decides: those are anonymous).
    assert copied == {"a" * 32: anna.pk, "b" * 32: None, "c" * 32: None, "e" * 32: None}
    assert New.objects.get(pk="a" * 32).session_data == Old.objects.get(pk="a" * 32).session_data
