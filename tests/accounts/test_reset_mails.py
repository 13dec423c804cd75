"""Password reset mails are limited per account (e-mail address) and per client address,
counted where every worker sees it, without telling anyone which addresses have an account."""

from django.core import mail
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory

RESET = reverse("password_reset")


def ask(client, email, address="198.51.100.9"):
    return client.post(RESET, {"email": email}, REMOTE_ADDR=address)


def test_the_defaults_are_three_an_hour_per_account_and_ten_per_address():
    from kartenliga.settings import THROTTLE_RATES

    assert THROTTLE_RATES["reset_mail_account"] == "3/hour"
    assert THROTTLE_RATES["reset_mail_address"] == "10/hour"


def test_thirty_requests_for_one_account_send_three_mails(anna):
    client = Client()
    codes = [ask(client, "anna@example.org", address=f"10.0.0.{n}").status_code for n in range(30)]
    assert codes == [302] * 3 + [429] * 27
    assert len(mail.outbox) == 3
    response = ask(client, "ANNA@example.org", address="10.0.1.1")
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert "look in its mailbox" in response.content.decode()


def test_an_address_without_an_account_gets_the_same_answers(anna):
    client = Client()
    codes = [ask(client, "nobody@example.org", address=f"10.0.0.{n}").status_code for n in range(5)]
    assert codes == [302] * 3 + [429] * 2
    assert mail.outbox == []


def test_one_client_address_gets_ten_requests(anna):
    for n in range(12):
        UserFactory(username=f"user{n}", email=f"user{n}@example.org")
    client = Client()
    codes = [ask(client, f"user{n}@example.org").status_code for n in range(12)]
    assert codes == [302] * 10 + [429] * 2
    assert "from your address" in ask(client, "anna@example.org").content.decode()
    assert ask(client, "anna@example.org", address="203.0.113.3").status_code == 302


def test_the_count_is_one_for_every_worker(anna):
    client = Client()
    for n in range(3):
        ask(client, "anna@example.org", address=f"10.0.0.{n}")
        caches["default"].clear()
    assert ask(client, "anna@example.org", address="10.0.0.9").status_code == 429
    assert len(mail.outbox) == 3
