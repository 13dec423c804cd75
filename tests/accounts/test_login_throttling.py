"""Login throttling (django-axes): 500 wrong passwords used to be accepted at about two a
second. Now a username and client address that fail 10 times in a row are locked out for 15
minutes, on our login page and the admin's alike, with the reason on the page and a 429."""

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory

LOGIN = reverse("login")
ADMIN_LOGIN = reverse("admin:login")


@pytest.fixture
def user(db):
    return UserFactory(username="anna")


def attempt(client, password, *, username="anna", url=LOGIN, address="203.0.113.7"):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


def test_the_limits_are_ten_failures_and_fifteen_minutes():
    assert settings.AXES_FAILURE_LIMIT == 10
    assert settings.AXES_COOLOFF_TIME.total_seconds() == 15 * 60


def test_it_locks_out_after_ten_failures_even_with_the_right_password(client, user):
    for _ in range(9):
        assert attempt(client, "wrong").status_code == 400
    response = attempt(client, "wrong")  # the tenth
    assert response.status_code == 429
    assert response["Retry-After"] == str(15 * 60)
    html = response.content.decode()
    assert "Too many failed logins" in html and "15 minutes" in html
    assert '<form method="post"' in html  # the login page, not a bare error page

    response = attempt(client, PASSWORD)
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_correct_login_before_the_limit_works_and_starts_the_count_again(client, user):
    for _ in range(9):
        assert attempt(client, "wrong").status_code == 400
    response = attempt(client, PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)
    client.logout()
    # The success reset the count: another nine failures are not yet a lockout.
    for _ in range(9):
        assert attempt(client, "wrong").status_code == 400
    assert attempt(client, PASSWORD).status_code == 302


def test_the_lockout_is_per_name_and_address(client, user):
    UserFactory(username="ben")
    for _ in range(10):
        attempt(client, "wrong")
    assert attempt(client, PASSWORD).status_code == 429
    # Anna from another address, and Ben from the same one, still log in: nobody can lock a
    # member out from elsewhere, and one guesser does not lock the club's shared address.
    assert attempt(client, PASSWORD, address="198.51.100.4").status_code == 302
    client.logout()
    assert attempt(client, PASSWORD, username="ben").status_code == 302


def test_the_admin_login_is_locked_out_too(client, db):
    UserFactory(username="boss", is_staff=True, is_superuser=True)
    for _ in range(9):
        assert attempt(client, "wrong", username="boss", url=ADMIN_LOGIN).status_code == 200
    assert attempt(client, "wrong", username="boss", url=ADMIN_LOGIN).status_code == 429
    assert attempt(client, PASSWORD, username="boss", url=ADMIN_LOGIN).status_code == 429
    # The lockout counts across both doors: the site's login page is closed to the pair too.
    assert attempt(client, PASSWORD, username="boss").status_code == 429


def test_failures_through_the_site_count_for_the_admin_login(client, db):
    UserFactory(username="boss", is_staff=True, is_superuser=True)
    for _ in range(10):
        attempt(client, "wrong", username="boss")
    assert attempt(client, PASSWORD, username="boss", url=ADMIN_LOGIN).status_code == 429


def test_a_forged_forwarded_for_header_does_not_reset_the_count(client, user):
    # One proxy in front (the README's setup): the address is what the proxy appended last,
    # whatever the client wrote before it.
    for n in range(10):
        response = client.post(
            LOGIN,
            {"username": "anna", "password": "wrong"},
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=f"10.0.0.{n}, 203.0.113.7",
        )
    assert response.status_code == 429
