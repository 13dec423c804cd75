"""Rate limits on the API (DRF throttling): the anonymous endpoints count per client address,
logged-in calls per account; the 429 is in the API's error shape with Retry-After. The rates
come from the environment (KARTENLIGA_THROTTLE_ANON / _USER); the suite switches them off
(tests/settings.py) and this module sets its own."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache

from leagues.models import Role
from tests.factories import LeagueFactory, member

ROOT = Path(__file__).resolve().parents[2]
CALCULATE = {"game": "doppelkopf", "players": ["Anna", "Ben", "Carl", "Dora"], "hands": []}
BILL = {"total": "40.00", "scores": {"Anna": 3, "Ben": -3}}


@pytest.fixture(autouse=True)
def rates(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "3/min", "user": "4/min"},
    }
    cache.clear()  # the counts live in the default cache
    yield
    cache.clear()


def post(client, path, body, **extra):
    return client.post(path, data=json.dumps(body), content_type="application/json", **extra)


def test_an_address_gets_three_calls_a_minute_then_a_429_in_the_error_shape(client, db):
    for _ in range(3):
        assert post(client, "/api/v1/ping/", {}).status_code == 200
    response = post(client, "/api/v1/ping/", {})
    assert response.status_code == 429
    [error] = response.json()["errors"]
    assert error["hand"] is None and error["field"] is None
    assert "throttled" in error["message"]
    assert 0 < int(response["Retry-After"]) <= 60


def test_the_stateless_endpoints_share_one_count_per_address(client, db):
    assert post(client, "/api/v1/calculate/", CALCULATE).status_code == 200
    assert post(client, "/api/v1/bill-split/", BILL).status_code == 200
    assert post(client, "/api/v1/ping/", {}).status_code == 200
    assert post(client, "/api/v1/calculate/", CALCULATE).status_code == 429
    assert post(client, "/api/v1/bill-split/", BILL).status_code == 429


def test_a_refused_call_does_no_work(client, db):
    for _ in range(3):
        post(client, "/api/v1/ping/", {})
    # An invalid body would be a 400 if it were read: the limit answers first.
    assert post(client, "/api/v1/calculate/", {"game": "nonsense"}).status_code == 429


def test_another_address_has_its_own_count(client, db):
    for _ in range(4):
        post(client, "/api/v1/ping/", {}, REMOTE_ADDR="203.0.113.7")
    assert post(client, "/api/v1/ping/", {}, REMOTE_ADDR="203.0.113.7").status_code == 429
    assert post(client, "/api/v1/ping/", {}, REMOTE_ADDR="198.51.100.4").status_code == 200


def test_a_forged_forwarded_for_header_does_not_make_a_new_address(client, db):
    # One proxy in front (the README's setup): the address it appended last counts.
    statuses = [
        post(client, "/api/v1/ping/", {}, HTTP_X_FORWARDED_FOR=f"10.0.0.{n}, 203.0.113.7").status_code for n in range(5)
    ]
    assert statuses == [200, 200, 200, 429, 429]


def test_a_logged_in_user_is_counted_per_account(client, db):
    league = LeagueFactory()
    client.force_login(member(league, Role.MEMBER))
    statuses = [client.get("/api/v1/leagues/").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]


def test_a_limit_switched_off_lets_everything_through(client, db, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None}}
    assert all(post(client, "/api/v1/ping/", {}).status_code == 200 for _ in range(20))


def test_the_production_defaults():
    # The suite runs with the limits off; a server started without the variables gets these.
    result = _settings_in_a_fresh_process()
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "anon": "120/min",
        "user": "600/min",
        # Counted in the database (tests/accounts/).
        "login_account": "30/hour",
        "invalid_token": "20/min",
        "reset_mail_account": "3/hour",
        "reset_mail_address": "10/hour",
    }
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] == [
        "leagues.accounts.throttling.AnonRateThrottle",
        "leagues.accounts.throttling.UserRateThrottle",
    ]


def test_the_rates_come_from_the_environment():
    result = _settings_in_a_fresh_process(
        KARTENLIGA_THROTTLE_ANON="2000/min", KARTENLIGA_THROTTLE_USER="off", KARTENLIGA_THROTTLE_INVALID_TOKEN="5/s"
    )
    assert result.returncode == 0, result.stderr
    rates = json.loads(result.stdout)
    assert (rates["anon"], rates["user"], rates["invalid_token"]) == ("2000/min", None, "5/s")


def test_a_malformed_rate_stops_the_start_with_a_message():
    result = _settings_in_a_fresh_process(KARTENLIGA_THROTTLE_ANON="lots")
    assert result.returncode != 0
    assert "KARTENLIGA_THROTTLE_ANON" in result.stderr


def _settings_in_a_fresh_process(**env):
    code = (
        "import json, django; django.setup(); from django.conf import settings; "
        "print(json.dumps(settings.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES']))"
    )
    clean = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DJANGO_SETTINGS_MODULE": "kartenliga.settings",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        **env,
    }
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60)
