"""Guessing one account's password from many addresses is limited, and a stranger cannot lock
the owner out: the browser a name logged in with is spared the lockouts of the name (from any
address) and of the name at the club's shared address, and a reset by mail lets a new browser in."""

import base64
import re

import pytest
from django.core import mail
from django.core.cache import caches
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory

LOGIN = reverse("login")
CLUB = "192.0.2.50"
NEW = "Pik-Bube-2026"


def attempt(client, password, *, address, username="anna"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def rotating(n):
    return f"10.{n // 200}.{n % 200}.1"


def guess_from_many_addresses(count, *, username="anna"):
    stranger = Client()
    return [attempt(stranger, f"guess{n}", address=rotating(n), username=username).status_code for n in range(count)]


def owners_browser(address="198.51.100.4"):
    """A browser the owner logged in with once, then logged out of."""
    browser = Client()
    assert attempt(browser, PASSWORD, address=address).status_code == 302
    browser.post(reverse("logout"))
    return browser


def test_the_default_is_thirty_failures_an_hour_per_name(settings):
    from kartenliga.settings import THROTTLE_RATES

    assert THROTTLE_RATES["login_account"] == "30/hour"


def test_guesses_from_rotating_addresses_are_locked_after_thirty(anna):
    codes = guess_from_many_addresses(40)
    # The thirtieth failure is answered with the lockout, as the tenth from one address is.
    assert codes[:29] == [400] * 29
    assert codes[29:] == [429] * 11
    # The right password from yet another new browser and address is refused too.
    response = attempt(Client(), PASSWORD, address="203.0.113.99")
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    html = response.content.decode()
    assert "from many addresses" in html and "reset your password" in html


def test_the_count_is_one_for_every_worker(anna):
    guess_from_many_addresses(30)
    caches["default"].clear()  # what another worker process would start from
    assert attempt(Client(), PASSWORD, address="203.0.113.99").status_code == 429


def test_the_owners_browser_still_logs_in_while_the_name_is_locked(anna):
    browser = owners_browser()
    guess_from_many_addresses(40)
    assert attempt(Client(), PASSWORD, address="203.0.113.5").status_code == 429
    response = attempt(browser, PASSWORD, address="203.0.113.5")
    assert response.status_code == 302
    assert browser.session["_auth_user_id"] == str(anna.pk)


def test_a_stranger_at_the_shared_address_does_not_lock_the_owner_out(anna):
    browser = owners_browser(address=CLUB)
    stranger = Client()
    for _ in range(10):
        attempt(stranger, "wrong", address=CLUB)
    assert attempt(stranger, PASSWORD, address=CLUB).status_code == 429
    assert attempt(browser, PASSWORD, address=CLUB).status_code == 302


def test_a_trusted_browser_is_locked_by_its_own_failures(anna):
    browser = owners_browser()
    codes = [attempt(browser, "wrong", address="198.51.100.4").status_code for _ in range(10)]
    assert codes == [400] * 9 + [429]
    response = attempt(browser, PASSWORD, address="198.51.100.4")
    assert response.status_code == 429
    assert "in this browser" in response.content.decode()
    # Its failures were its own: another browser at the same address still logs in.
    assert attempt(Client(), PASSWORD, address="198.51.100.4").status_code == 302


def test_only_a_browser_the_name_logged_in_with_is_spared(anna):
    UserFactory(username="ben")
    browser_of_ben = Client()
    assert attempt(browser_of_ben, PASSWORD, address=CLUB, username="ben").status_code == 302
    browser_of_ben.post(reverse("logout"))
    forged = Client()
    forged.cookies["kl_browser"] = "anna:forged"
    for _ in range(10):
        attempt(Client(), "wrong", address=CLUB)
    assert attempt(browser_of_ben, PASSWORD, address=CLUB).status_code == 429
    assert attempt(forged, PASSWORD, address=CLUB).status_code == 429
    guess_from_many_addresses(30)
    assert attempt(browser_of_ben, PASSWORD, address="203.0.113.5").status_code == 429
    assert attempt(forged, PASSWORD, address="203.0.113.5").status_code == 429


def test_a_reset_by_mail_lets_the_owner_in_from_a_new_browser(anna):
    guess_from_many_addresses(30)
    phone = Client()
    assert attempt(phone, PASSWORD, address="203.0.113.8").status_code == 429
    phone.post(reverse("password_reset"), {"email": "anna@example.org"}, REMOTE_ADDR="203.0.113.8")
    link = re.search(r"http://testserver(\S+)", mail.outbox[-1].body).group(1)
    form_page = phone.get(link, follow=True)
    set_url = form_page.redirect_chain[-1][0]
    done = phone.post(set_url, {"new_password1": NEW, "new_password2": NEW}, REMOTE_ADDR="203.0.113.8")
    assert done.status_code == 302
    assert attempt(phone, NEW, address="203.0.113.8").status_code == 302
    # The name stays locked for browsers it never logged in with.
    assert attempt(Client(), NEW, address="203.0.113.9").status_code == 429


@pytest.mark.parametrize("username", ["nobody", "x" * 300])
def test_guessing_a_name_that_has_no_account_is_limited_the_same(db, username):
    codes = guess_from_many_addresses(31, username=username)
    assert codes[:29] == [400] * 29 and codes[29:] == [429, 429]


def test_signing_up_makes_the_browser_one_the_name_logs_in_with(db):
    browser = Client()
    data = {"username": "dora", "email": "", "display_name": "", "password1": NEW, "password2": NEW}
    assert browser.post(reverse("signup"), data, REMOTE_ADDR=CLUB).status_code == 302
    browser.post(reverse("logout"))
    for _ in range(10):
        attempt(Client(), "wrong", address=CLUB, username="dora")
    assert attempt(browser, NEW, address=CLUB, username="dora").status_code == 302


def test_the_mark_of_a_browser_does_not_name_the_account(anna):
    value = owners_browser().cookies["kl_browser"].value
    payload = base64.urlsafe_b64decode(value.split(":")[0] + "==")
    assert b"anna" not in payload


@pytest.mark.parametrize("command", [["axes_reset"], ["axes_reset_username", "anna"]])
def test_the_operators_reset_lifts_the_names_lockout(anna, command):
    guess_from_many_addresses(30)
    assert attempt(Client(), PASSWORD, address="203.0.113.5").status_code == 429
    call_command(*command)
    assert attempt(Client(), PASSWORD, address="203.0.113.5").status_code == 302


def test_a_new_password_ends_every_browsers_trust(anna):
    browser = owners_browser()
    anna.set_password(NEW)
    anna.save()
    guess_from_many_addresses(40)
    # Someone who knew the old password and logged in with it is a stranger now.
    assert attempt(browser, NEW, address="203.0.113.5").status_code == 429
