"""API tokens under attack: invented tokens are refused 429 per address once too many failed,
counted where every worker sees it; a token ends when its owner's password changes, and may be
made to expire."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.core.cache import caches
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from leagues.accounts import tokens
from leagues.models import ApiToken
from tests.factories import PASSWORD, UserFactory

LEAGUES = reverse("api_leagues")
NEW = "Pik-Bube-2026"


def bearer(token, address="198.51.100.9"):
    return {"HTTP_AUTHORIZATION": f"Bearer {token}", "REMOTE_ADDR": address}


def test_the_default_is_twenty_bad_tokens_a_minute_per_address():
    from kartenliga.settings import THROTTLE_RATES

    assert THROTTLE_RATES["invalid_token"] == "20/min"


def test_invented_tokens_are_answered_429_after_twenty(anna):
    client = Client()
    codes = [client.get(LEAGUES, **bearer(f"kl_invented{n}")).status_code for n in range(30)]
    assert codes == [401] * 20 + [429] * 10
    response = client.get(LEAGUES, **bearer("kl_another"))
    assert int(response["Retry-After"]) > 0
    assert response.json()["errors"][0]["message"]
    # Another address is not held up by this one.
    assert client.get(LEAGUES, **bearer("kl_invented", address="203.0.113.2")).status_code == 401


def test_the_count_of_bad_tokens_is_one_for_every_worker(anna):
    client = Client()
    for n in range(20):
        client.get(LEAGUES, **bearer(f"kl_invented{n}"))
        caches["default"].clear()  # each request as if in another worker process
    assert client.get(LEAGUES, **bearer("kl_invented")).status_code == 429


def test_good_tokens_are_not_counted(anna):
    _row, token = tokens.create_token(user=anna, name="script")
    client = Client()
    assert all(client.get(LEAGUES, **bearer(token)).status_code == 200 for _ in range(25))
    codes = [client.get(LEAGUES, **bearer(f"kl_invented{n}")).status_code for n in range(21)]
    assert codes == [401] * 20 + [429]


def test_an_expired_token_is_answered_401_and_says_so(anna):
    row, token = tokens.create_token(user=anna, name="script", days=30)
    assert Client().get(LEAGUES, **bearer(token)).status_code == 200
    ApiToken.objects.filter(pk=row.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    response = Client().get(LEAGUES, **bearer(token))
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert "expired" in response.json()["errors"][0]["message"]


def test_a_token_made_on_the_page_gets_the_chosen_expiry(client, anna):
    client.force_login(anna)
    page = client.get(reverse("api_tokens"))
    assert 'name="expires"' in page.content.decode()
    response = client.post(reverse("api_tokens"), {"name": "script", "expires": "30"})
    assert response.status_code == 200
    row = ApiToken.objects.get(user=anna)
    assert timedelta(days=29, hours=23) < row.expires_at - timezone.now() <= timedelta(days=30)
    assert "valid until" in response.content.decode()
    client.post(reverse("api_tokens"), {"name": "forever", "expires": ""})
    assert ApiToken.objects.get(user=anna, name="forever").expires_at is None


def test_a_bad_expiry_is_refused_on_its_field(client, anna):
    client.force_login(anna)
    response = client.post(reverse("api_tokens"), {"name": "script", "expires": "7"})
    assert response.status_code == 400
    assert "expires" in response.context["form"].errors
    assert not ApiToken.objects.exists()


def test_the_page_shows_an_expired_token_as_expired(client, anna):
    row, _token = tokens.create_token(user=anna, name="script", days=30)
    ApiToken.objects.filter(pk=row.pk).update(expires_at=timezone.now() - timedelta(days=1))
    client.force_login(anna)
    html = client.get(reverse("api_tokens")).content.decode()
    assert "expired" in html
    assert f'action="{reverse("api_token_revoke", args=[row.pk])}"' not in html


def test_a_password_change_ends_the_tokens_and_the_page_says_so(client, anna):
    _row, token = tokens.create_token(user=anna, name="script")
    client.force_login(anna)
    form = client.get(reverse("password_change")).content.decode()
    assert "ends the API tokens" in form
    response = client.post(
        reverse("password_change"), {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW}, follow=True
    )
    assert response.status_code == 200
    assert "API tokens you made before have ended" in response.content.decode()
    assert Client().get(LEAGUES, **bearer(token)).status_code == 401
    assert ApiToken.objects.get(user=anna).revoked_at is not None


def test_a_password_reset_ends_the_tokens(client, anna):
    _row, token = tokens.create_token(user=anna, name="script")
    client.post(reverse("password_reset"), {"email": "anna@example.org"})
    link = re.search(r"http://testserver(\S+)", mail.outbox[-1].body).group(1)
    set_url = client.get(link, follow=True).redirect_chain[-1][0]
    response = client.post(set_url, {"new_password1": NEW, "new_password2": NEW}, follow=True)
    assert "API tokens you made before have ended" in response.content.decode()
    assert Client().get(LEAGUES, **bearer(token)).status_code == 401


def test_a_password_set_by_the_operator_ends_the_tokens_too(anna, monkeypatch):
    _row, token = tokens.create_token(user=anna, name="script")
    _row, token_of_ben = tokens.create_token(user=UserFactory(username="ben"), name="script")
    answers = iter([NEW, NEW])
    monkeypatch.setattr("getpass.getpass", lambda *args, **kwargs: next(answers))
    call_command("changepassword", "anna")
    assert Client().get(LEAGUES, **bearer(token)).status_code == 401
    assert Client().get(LEAGUES, **bearer(token_of_ben)).status_code == 200


@pytest.mark.parametrize("header", ["Bearer", "Bearer a b", "Bearer \xff"])
def test_malformed_bearer_headers_count_as_bad_tokens(anna, header):
    client = Client()
    codes = [client.get(LEAGUES, HTTP_AUTHORIZATION=header, REMOTE_ADDR="198.51.100.9").status_code for _ in range(21)]
    assert codes == [401] * 20 + [429]
