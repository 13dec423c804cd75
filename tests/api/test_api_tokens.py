"""Personal API tokens: made and revoked under the account menu, shown once,
stored as a digest only; the stateful API accepts them as ``Authorization: Bearer``."""

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from leagues.accounts import tokens
from leagues.models import ApiToken, Hand, Role
from tests.factories import LeagueFactory, UserFactory, meeting_for, member

pytestmark = pytest.mark.django_db

# A plain Doppelkopf game: Re (Ann and Ben) win with 150 eyes, nothing announced.
HAND = {"kind": "normal", "re": ["Ann", "Ben"], "re_eyes": 150}


def bearer(token):
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


@pytest.fixture
def league():
    return LeagueFactory()


@pytest.fixture
def scorer(league):
    return member(league, Role.SCOREKEEPER)


def test_a_token_lists_its_owners_leagues(client, league, scorer):
    _row, token = tokens.create_token(user=scorer, name="script")
    response = Client().get(reverse("api_leagues"), **bearer(token))
    assert response.status_code == 200
    assert [item["slug"] for item in response.json()] == [league.slug]


def test_a_token_enters_a_hand_without_a_session_or_csrf_token(league, scorer):
    meeting = meeting_for(league, ["Ann", "Ben", "Cem", "Dora"])
    _row, token = tokens.create_token(user=scorer, name="script")
    client = Client(enforce_csrf_checks=True)
    url = reverse("api_hands", kwargs={"slug": league.slug, "pk": meeting.pk})
    response = client.post(url, {"payload": HAND, "number": 1}, content_type="application/json", **bearer(token))
    assert response.status_code == 201, response.content
    assert Hand.objects.get(meeting=meeting).entered_by == scorer


def test_a_revoked_token_is_answered_401(league, scorer):
    row, token = tokens.create_token(user=scorer, name="script")
    tokens.revoke_token(token=row)
    response = Client().get(reverse("api_leagues"), **bearer(token))
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert response.json()["errors"][0]["message"]


def test_an_unknown_token_is_answered_401_and_no_login_stays_403(league, scorer):
    assert Client().get(reverse("api_leagues"), **bearer("kl_nothing")).status_code == 401
    assert Client().get(reverse("api_leagues")).status_code == 403


def test_another_users_league_stays_404_with_a_token(league, scorer):
    other = LeagueFactory()
    meeting = meeting_for(other, ["Ann", "Ben", "Cem", "Dora"])
    _row, token = tokens.create_token(user=scorer, name="script")
    client = Client()
    assert client.get(reverse("api_league_export", kwargs={"slug": other.slug}), **bearer(token)).status_code == 404
    url = reverse("api_hands", kwargs={"slug": other.slug, "pk": meeting.pk})
    response = client.post(url, {"payload": HAND}, content_type="application/json", **bearer(token))
    assert response.status_code == 404
    assert not Hand.objects.exists()


def test_a_member_token_cannot_enter_hands(league):
    reader = member(league, Role.MEMBER)
    meeting = meeting_for(league, ["Ann", "Ben", "Cem", "Dora"])
    _row, token = tokens.create_token(user=reader, name="script")
    url = reverse("api_hands", kwargs={"slug": league.slug, "pk": meeting.pk})
    response = Client().post(url, {"payload": HAND}, content_type="application/json", **bearer(token))
    assert response.status_code == 403


def test_the_token_is_never_stored_in_clear(league, scorer):
    row, token = tokens.create_token(user=scorer, name="script")
    row.refresh_from_db()
    assert row.digest == tokens.digest(token) != token
    assert token.startswith(row.prefix) and len(row.prefix) < len(token) // 3
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM leagues_apitoken")
        stored = [str(value) for value in cursor.fetchall()[0]]
    assert not any(token in value for value in stored)


def test_the_token_page_shows_a_new_token_once(client, scorer):
    client.force_login(scorer)
    response = client.post(reverse("api_tokens"), {"name": "my script"})
    assert response.status_code == 200
    token = response.context["new_token"]
    assert token in response.content.decode()
    assert response["Cache-Control"].startswith("max-age=0")
    row = ApiToken.objects.get(user=scorer)
    assert row.name == "my script" and row.digest == tokens.digest(token)
    again = client.get(reverse("api_tokens")).content.decode()
    assert token not in again and row.prefix in again


def test_a_user_revokes_his_token_but_not_anothers(client, scorer):
    row, token = tokens.create_token(user=scorer, name="script")
    someone = UserFactory()
    client.force_login(someone)
    assert client.post(reverse("api_token_revoke", kwargs={"pk": row.pk})).status_code == 404
    client.force_login(scorer)
    response = client.post(reverse("api_token_revoke", kwargs={"pk": row.pk}))
    assert response.status_code == 302
    row.refresh_from_db()
    assert row.revoked_at is not None
    assert Client().get(reverse("api_leagues"), **bearer(token)).status_code == 401


def test_a_token_needs_a_name(client, scorer):
    client.force_login(scorer)
    response = client.post(reverse("api_tokens"), {"name": "   "})
    assert response.status_code == 400
    assert not ApiToken.objects.exists()


def test_the_token_page_needs_a_login(client):
    response = client.get(reverse("api_tokens"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_the_schema_documents_the_bearer_scheme(client):
    schema = client.get(reverse("api_schema"), {"format": "json"}).json()
    assert schema["components"]["securitySchemes"]["tokenAuth"] == {
        "type": "http",
        "scheme": "bearer",
        "description": schema["components"]["securitySchemes"]["tokenAuth"]["description"],
    }
    operation = schema["paths"]["/api/v1/leagues/"]["get"]
    assert {"tokenAuth": []} in operation["security"]


def test_the_schema_documents_401_where_a_token_is_accepted(client):
    schema = client.get(reverse("api_schema"), {"format": "json"}).json()
    assert "401" in schema["paths"]["/api/v1/leagues/"]["get"]["responses"]
    assert "401" not in schema["paths"]["/api/v1/calculate/"]["post"]["responses"]
