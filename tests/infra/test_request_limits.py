"""Limits on requests: the body size cap (leagues/middleware.py), hands per calculate request,
players per bill, and token paths that never reach the database with a NUL."""

import json
import random

import pytest
from django.test import override_settings
from django.urls import reverse

from leagues.models import Invite, Role
from scoring.registry import example_request
from tests.factories import LeagueFactory, member

CAP = 1_000_000


def big_json(size):
    """A calculate request padded with spaces (still valid JSON) to ``size`` bytes."""
    body = json.dumps({"game": "doppelkopf", "players": ["A", "B", "C", "D"], "hands": []})
    return body[:-1] + " " * (size - len(body)) + "}"


def test_the_cap_is_the_documented_setting(settings):
    assert settings.MAX_REQUEST_BODY_BYTES == CAP


def test_a_body_over_the_cap_is_a_413_in_the_apis_error_shape(client):
    response = client.post(reverse("api_calculate"), big_json(CAP + 1), content_type="application/json")
    assert response.status_code == 413
    assert response.json() == {
        "errors": [
            {"hand": None, "field": None, "message": "The request is too large: at most 1,000,000 bytes are accepted."}
        ]
    }


def test_a_body_at_the_cap_is_read(client):
    response = client.post(reverse("api_calculate"), big_json(CAP), content_type="application/json")
    assert response.status_code == 200


def test_the_cap_holds_for_the_bill_split_too(client):
    response = client.post(reverse("api_bill_split"), big_json(CAP + 1), content_type="application/json")
    assert response.status_code == 413


def test_a_form_post_over_the_cap_is_a_413_page(client):
    response = client.post(reverse("login"), {"username": "x" * (CAP + 1), "password": "y"})
    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/html")
    assert "The request is too large" in response.content.decode()


def test_only_the_declared_length_is_looked_at(client):
    # The middleware answers before a byte of the body is read: a declared 60 MB with a
    # short body (a client that would go on sending) is refused at once.
    response = client.generic(
        "POST", reverse("api_calculate"), b"{}", content_type="application/json", CONTENT_LENGTH=str(60 * 10**6)
    )
    assert response.status_code == 413


@pytest.mark.parametrize("length", ["١٠", "abc", "-1", "1e9"])
def test_a_length_that_is_not_a_number_is_refused(client, length):
    response = client.generic(
        "POST", reverse("api_calculate"), b"{}", content_type="application/json", CONTENT_LENGTH=length
    )
    assert response.status_code == 413


@override_settings(MAX_REQUEST_BODY_BYTES=100)
def test_the_setting_moves_the_cap(client):
    response = client.post(reverse("api_calculate"), big_json(101), content_type="application/json")
    assert response.status_code == 413
    assert "at most 100 bytes" in response.json()["errors"][0]["message"]


def test_2000_hands_fit_well_under_the_cap(client):
    request = example_request("doppelkopf", random.Random(5), 2000)
    body = json.dumps(request)
    assert len(body) < CAP / 2
    response = client.post(reverse("api_calculate"), body, content_type="application/json")
    assert response.status_code == 200
    assert len(response.json()["hands"]) == 2000


def test_more_than_2000_hands_are_a_400_on_hands(client):
    request = example_request("thousand", random.Random(5), 2000)
    request["hands"].append(request["hands"][0])
    response = client.post(reverse("api_calculate"), request, content_type="application/json")
    assert response.status_code == 400
    assert [(e["hand"], e["field"]) for e in response.json()["errors"]] == [(None, "hands")]


def test_a_bill_of_more_than_1000_players_is_a_400_on_scores(client):
    scores = {f"P{i}": i for i in range(1001)}
    response = client.post(
        reverse("api_bill_split"), {"total": "100", "scores": scores}, content_type="application/json"
    )
    assert response.status_code == 400
    assert [(e["hand"], e["field"]) for e in response.json()["errors"]] == [(None, "scores")]


def test_a_spoil_five_stake_of_two_to_the_31_is_a_400_on_rules(client):
    request = {"game": "spoil_five", "rules": {"stake": 2**31}, "players": ["A", "B"], "hands": []}
    response = client.post(reverse("api_calculate"), request, content_type="application/json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "rules" and "“stake”" in error["message"]


# --- tokens in paths ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/invite/%00/", "/p/%00/", "/p/%00/m/1/", "/invite/abc%00def/", "/p/a%20b/", "/invite/" + "a" * 65 + "/"],
)
def test_a_token_path_with_other_characters_is_a_404(client, db, path):
    assert client.get(path).status_code == 404


def test_real_tokens_still_open_their_pages(client, db):
    league = LeagueFactory(public_token="Ab-9_" * 6)
    invite = Invite.objects.create(league=league, role=Role.MEMBER, created_by=member(league, Role.ADMIN))
    assert client.get(f"/p/{league.public_token}/").status_code == 200
    assert client.get(invite.get_absolute_url()).status_code == 200
