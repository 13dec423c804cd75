"""The session store and login backend that read by SQL of their own (leagues/sessions.py,
leagues/backends.py; issue 12): the same logged-in user as Django's, the session and its user
in one query, and every way out of a session still works."""

import datetime
import re

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, SESSION_KEY, get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from leagues.backends import ModelBackend
from leagues.models import Session
from leagues.sessions import SessionStore, preloaded
from tests.factories import LeagueFactory, UserFactory, member

pytestmark = pytest.mark.django_db

PASSWORD = "ein-langes-passwort-42"


@pytest.fixture
def league():
    return LeagueFactory(slug="kreuz-dame")


def logged_in(client, user):
    # Through the login page, as a member logs in (the backend it records is the one read).
    response = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302
    return client


def user_of_member_page(client):
    """Who the league page (a member page) is shown to."""
    response = client.get(reverse("league", args=["kreuz-dame"]))
    assert response.status_code == 200
    return response.wsgi_request.user


def _fields(user):
    return [getattr(user, f.attname) for f in user._meta.concrete_fields]


def test_it_reads_the_session_and_its_user_in_one_query(client, league, django_assert_num_queries):
    user = member(league, password=PASSWORD)
    logged_in(client, user)
    store = SessionStore(client.session.session_key)
    with django_assert_num_queries(1):
        data = store.load()
    assert data[SESSION_KEY] == str(user.pk)
    assert data[BACKEND_SESSION_KEY] == "leagues.backends.ModelBackend"
    user_id, found = store.loaded_user
    stored = get_user_model().objects.get(pk=user.pk)
    assert user_id == user.pk
    assert _fields(found) == _fields(stored)
    assert timezone.is_aware(found.date_joined) and timezone.is_aware(found.last_login)
    assert found.is_superuser is False and found.is_active is True
    # The backend takes it as it is...
    with preloaded(store), django_assert_num_queries(0):
        assert _fields(ModelBackend().get_user(user.pk)) == _fields(stored)
    # ...and reads the user itself when no session read it along.
    with django_assert_num_queries(1):
        assert _fields(ModelBackend().get_user(user.pk)) == _fields(stored)


def test_a_member_page_reads_session_and_user_once(client, league):
    user = member(league, password=PASSWORD)
    logged_in(client, user)
    # The session and its user in one query: no other query reads either from its own table
    # (the page's list of members joins the users for their names).
    with CaptureQueriesContext(connection) as queries:
        assert user_of_member_page(client) == user
    sessions = [q["sql"] for q in queries if Session._meta.db_table in q["sql"]]
    users = [q["sql"] for q in queries if re.search(rf'FROM "?{get_user_model()._meta.db_table}\b', q["sql"])]
    assert len(sessions) == 1 and users == []


def test_the_session_row_names_its_user_from_login_to_logout(client, league):
    user = member(league, password=PASSWORD)
    logged_in(client, user)
    key = client.session.session_key
    assert Session.objects.get(pk=key).user_id == user.pk
    client.post(reverse("logout"))
    assert not Session.objects.filter(pk=key).exists()
    assert not Session.objects.filter(user_id=user.pk).exists()


def test_an_anonymous_session_names_no_user(client):
    session = client.session  # a session without a login (the test client saves it)
    session["something"] = 1
    session.save()
    assert Session.objects.get(pk=session.session_key).user_id is None
    store = SessionStore(session.session_key)
    assert store.load() == {"something": 1}
    assert store.loaded_user is None


def test_a_user_column_that_disagrees_with_the_data_is_not_trusted(client, league):
    # The data decides who is logged in: a session whose column names someone else (written
    # by hand, say) gets the user of its data, read by the backend itself.
    user, other = member(league, password=PASSWORD), member(league, password=PASSWORD)
    logged_in(client, user)
    Session.objects.filter(pk=client.session.session_key).update(user_id=other.pk)
    assert user_of_member_page(client) == user


def test_deleting_a_user_ends_their_sessions(client, league):
    user = member(league, password=PASSWORD)
    logged_in(client, user)
    key = client.session.session_key
    user.delete()
    assert not Session.objects.filter(pk=key).exists()
    response = client.get(reverse("league", args=["kreuz-dame"]))
    assert response.status_code == 302


def test_a_member_page_is_shown_to_the_logged_in_member(client, league):
    user = member(league, password=PASSWORD)
    assert user_of_member_page(logged_in(client, user)) == user


def test_a_session_begun_under_djangos_backend_stays_logged_in(client, league):
    # Sessions stored before leagues.backends.ModelBackend name Django's.
    user = member(league, password=PASSWORD)
    logged_in(client, user)
    session = client.session
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session.save()
    assert user_of_member_page(client) == user


def test_an_expired_session_is_anonymous(client, league):
    user = member(league, password=PASSWORD)
    logged_in(client, user)
    Session.objects.filter(pk=client.session.session_key).update(
        expire_date=timezone.now() - datetime.timedelta(seconds=1)
    )
    response = client.get(reverse("league", args=["kreuz-dame"]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_an_unknown_session_key_is_anonymous_and_forgotten():
    store = SessionStore("k" * 32)
    assert store.load() == {}
    assert store.session_key is None


def test_a_copied_cookie_is_dead_after_logout(client, league):
    user = member(league, password=PASSWORD)
    logged_in(client, user)
    cookie = client.cookies["sessionid"].value
    client.post(reverse("logout"))
    copy = type(client)()
    copy.cookies["sessionid"] = cookie
    response = copy.get(reverse("league", args=["kreuz-dame"]))
    assert response.status_code == 302


def test_a_deactivated_user_is_logged_out(client, league):
    user = member(league, password=PASSWORD)
    logged_in(client, user)
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)
    response = client.get(reverse("league", args=["kreuz-dame"]))
    assert response.status_code == 302


def test_a_changed_password_ends_other_sessions(client, league):
    user = member(league, password=PASSWORD)
    logged_in(client, user)
    user.set_password("ein-anderes-passwort-43")
    user.save()
    response = client.get(reverse("league", args=["kreuz-dame"]))
    assert response.status_code == 302


def test_a_deleted_user_is_anonymous():
    user = UserFactory()
    pk = user.pk
    user.delete()
    assert ModelBackend().get_user(pk) is None
