"""Changing a password (logged in) and resetting a forgotten one by a link in an e-mail
(Django's views with our pages; the mail goes to Django's locmem outbox in tests)."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory
from tests.infra.test_csp import inline_code

User = get_user_model()
NEW = "Pik-Bube-2026"


@pytest.fixture
def dora(db):
    return UserFactory(username="dora", first_name="Dora", email="dora@example.org")


def logs_in(client, username, password):
    client.logout()
    response = client.post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302


def the_link(message):
    """The one link of the mail, as a path for the test client."""
    urls = re.findall(r"https?://\S+", message.body)
    assert len(urls) == 1, message.body
    assert urls[0].startswith("http://testserver/")
    return urls[0].removeprefix("http://testserver")


# --- password change ------------------------------------------------------------------------------


def test_an_anonymous_visitor_is_sent_to_log_in_before_changing_a_password(client, db):
    for method in (client.get, client.post):
        response = method(reverse("password_change"))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_the_home_page_links_to_the_change_form(client, dora):
    client.force_login(dora)
    assert reverse("password_change") in client.get(reverse("home")).content.decode()
    response = client.get(reverse("password_change"))
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("old_password", "new_password1", "new_password2"):
        assert f'name="{name}"' in html


def test_it_changes_the_password_and_keeps_the_session(client, dora):
    client.force_login(dora)
    response = client.post(
        reverse("password_change"), {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW}
    )
    assert response.status_code == 302 and response["Location"] == reverse("password_change_done")
    assert client.get(response["Location"]).status_code == 200
    assert client.get(reverse("home")).context["user"] == dora  # still logged in on this phone
    assert logs_in(client, "dora", NEW)
    assert not logs_in(client, "dora", PASSWORD)


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"old_password": "wrong"}, "old_password", "Your old password was entered incorrectly."),
        ({"new_password2": "Pik-Bube-2027"}, "new_password2", "The two password fields didn’t match."),
        ({"new_password1": "kurz", "new_password2": "kurz"}, "new_password2", "This password is too short."),
        ({"new_password1": "", "new_password2": ""}, "new_password1", "This field is required."),
    ],
)
def test_it_refuses_a_bad_change_on_its_field_with_400(client, dora, data, field, message):
    client.force_login(dora)
    response = client.post(
        reverse("password_change"), {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW, **data}
    )
    assert response.status_code == 400
    assert message in " ".join(response.context["form"].errors[field])
    assert 'class="errorlist"' in response.content.decode()
    dora.refresh_from_db()
    assert dora.check_password(PASSWORD)


def test_the_change_done_page_needs_a_login_too(client, db):
    response = client.get(reverse("password_change_done"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


# --- password reset by e-mail ----------------------------------------------------------------------


def test_the_login_page_links_to_the_reset_form(client, db):
    assert reverse("password_reset") in client.get(reverse("login")).content.decode()


def test_anyone_may_ask_for_a_link_logged_in_or_not(client, dora):
    assert client.get(reverse("password_reset")).status_code == 200
    client.force_login(dora)
    assert client.get(reverse("password_reset")).status_code == 200


def test_it_mails_a_link_that_sets_a_new_password_once(client, dora):
    response = client.post(reverse("password_reset"), {"email": "dora@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert client.get(response["Location"]).status_code == 200
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["dora@example.org"]
    assert message.subject == "Your new Kartenliga password"
    assert "Hello Dora," in message.body and "Your username: dora" in message.body
    assert "for 3 days" in message.body  # Django's PASSWORD_RESET_TIMEOUT, three days

    link = the_link(message)
    # The link hides its token from the address bar (and Referer) by a redirect.
    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200 and form_page.context["validlink"]
    set_url = form_page.redirect_chain[-1][0]
    response = client.post(set_url, {"new_password1": NEW, "new_password2": NEW})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_complete")
    assert client.get(response["Location"]).status_code == 200
    assert logs_in(client, "dora", NEW)
    assert not logs_in(client, "dora", PASSWORD)

    # Used once, the link is spent: on a fresh phone too.
    client.logout()
    again = client.get(link, follow=True)
    assert again.status_code == 400
    assert not again.context["validlink"]
    assert "This link cannot be used" in again.content.decode()
    assert client.post(set_url, {"new_password1": "Herz-Ass-77", "new_password2": "Herz-Ass-77"}).status_code == 400
    assert logs_in(client, "dora", NEW)


def test_a_new_password_on_the_reset_page_is_checked_like_any_other(client, dora):
    client.post(reverse("password_reset"), {"email": "dora@example.org"})
    form_page = client.get(the_link(mail.outbox[0]), follow=True)
    set_url = form_page.redirect_chain[-1][0]
    response = client.post(set_url, {"new_password1": "12345678901", "new_password2": "12345678901"})
    assert response.status_code == 400
    assert "This password is entirely numeric." in response.context["form"].errors["new_password2"]
    dora.refresh_from_db()
    assert dora.check_password(PASSWORD)
    # The link still works after a refused try.
    assert client.post(set_url, {"new_password1": NEW, "new_password2": NEW}).status_code == 302


def test_the_address_is_found_whatever_its_case(client, dora):
    client.post(reverse("password_reset"), {"email": "Dora@Example.ORG"})
    assert [m.to for m in mail.outbox] == [["dora@example.org"]]


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client, dora):
    UserFactory(username="emil", email="")  # an account without an address gets nothing either
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


@pytest.mark.parametrize("email", ["", "dora-at-example", "x" * 250 + "@example.org"])
def test_it_refuses_a_bad_address_on_its_field_with_400(client, dora, email):
    response = client.post(reverse("password_reset"), {"email": email})
    assert response.status_code == 400
    assert response.context["form"].errors["email"]
    assert mail.outbox == []


@pytest.mark.parametrize("token", ["abc-def", "set-password"])
def test_a_mistyped_link_is_a_400(client, dora, token):
    response = client.get(reverse("password_reset_confirm", kwargs={"uidb64": "Mg", "token": token}))
    assert response.status_code == 400
    assert "This link cannot be used" in response.content.decode()


# --- every account page under the Content-Security-Policy -------------------------------------------


def test_no_account_page_has_inline_code(client, dora):
    anonymous = [reverse("signup"), reverse("password_reset"), reverse("password_reset_done")]
    anonymous += [reverse("password_reset_complete")]
    for path in anonymous:
        response = client.get(path)
        assert response.status_code == 200, path
        assert inline_code(response.content.decode()) == [], path
    client.post(reverse("password_reset"), {"email": "dora@example.org"})
    form_page = client.get(the_link(mail.outbox[0]), follow=True)
    assert form_page.context["validlink"] and inline_code(form_page.content.decode()) == []
    client.force_login(dora)
    for path in (reverse("password_change"), reverse("password_change_done")):
        response = client.get(path)
        assert response.status_code == 200, path
        assert inline_code(response.content.decode()) == [], path
