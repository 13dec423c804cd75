"""Signing up on one's own: an account (login name, e-mail optional, password twice), logged in
at once and sent to "create your league"; bad input is a 400 with the message on its field."""

from io import StringIO

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from leagues.management.commands.seed_demo import PASSWORD as DEMO_PASSWORD
from leagues.management.commands.seed_demo import SLUG
from leagues.models import Invite, League, Membership, Player, Role
from tests.factories import LeagueFactory, UserFactory, member
from tests.form_posts import post_from_html

User = get_user_model()
PASSWORD = "Kreuz-Dame-42"


def signup(**changes):
    data = {"username": "dora", "email": "", "display_name": "", "password1": PASSWORD, "password2": PASSWORD}
    data.update(changes)
    return data


def field_errors(response, name):
    return response.context["form"].errors.get(name, [])


# --- who may use it ------------------------------------------------------------------------------


def test_an_anonymous_visitor_gets_the_form(client, db):
    response = client.get(reverse("signup"))
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("username", "email", "display_name", "password1", "password2"):
        assert f'name="{name}"' in html
    assert reverse("login") in html


def test_someone_logged_in_is_sent_home_and_no_account_is_made(client, db):
    client.force_login(UserFactory(username="anna"))
    assert client.get(reverse("signup"))["Location"] == reverse("home")
    response = client.post(reverse("signup"), signup())
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert not User.objects.filter(username="dora").exists()


def test_it_takes_get_and_post_only(client, db):
    assert client.put(reverse("signup")).status_code == 405


def test_the_landing_page_and_the_login_page_link_to_it(client, db):
    for page in ("home", "login"):
        assert reverse("signup") in client.get(reverse(page)).content.decode(), page


# --- signing up ----------------------------------------------------------------------------------


def test_it_signs_up_logs_in_and_sends_to_create_your_league(client, db):
    response = client.post(reverse("signup"), signup(email="dora@example.org", display_name="Dora"))
    assert response.status_code == 302 and response["Location"] == reverse("league_create")
    user = User.objects.get(username="dora")
    assert user.email == "dora@example.org" and user.first_name == "Dora"
    assert user.check_password(PASSWORD)
    assert not user.is_staff and not user.is_superuser
    assert client.session["_auth_user_id"] == str(user.pk)
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert "Now create your league" in page.content.decode()


def test_the_email_and_the_name_at_the_table_may_stay_empty(client, db):
    response = client.post(reverse("signup"), signup())
    assert response.status_code == 302
    user = User.objects.get(username="dora")
    assert user.email == "" and user.first_name == ""


def create_league(client, name, slug):
    """The create page's form posted as shown (the preset's options), with a name typed in."""
    page = client.get(reverse("league_create"), {"game": "doppelkopf", "variant": "club"})
    assert page.status_code == 200
    data = post_from_html(page.content.decode())
    for field in page.context["rules_form"]:  # selects, which post_from_html leaves out
        if field.html_name not in data and field.value() not in (None, False):
            value = field.value()
            data.setlist(field.html_name, [str(v) for v in value] if isinstance(value, list) else [str(value)])
    data.update({"name": name, "slug": slug, "game": "doppelkopf", "variant": "club"})
    return client.post(reverse("league_create"), data)


def test_a_new_user_creates_a_league_and_plays_in_it_under_his_name_at_the_table(client, db):
    client.post(reverse("signup"), signup(display_name="Dora K."))
    response = create_league(client, "Doko am Donnerstag", "doko-do")
    assert response.status_code == 302
    league = League.objects.get(slug="doko-do")
    user = User.objects.get(username="dora")
    assert Membership.objects.get(league=league).user == user
    assert Membership.objects.get(league=league).role == Role.ADMIN
    assert Player.objects.get(league=league, user=user).name == "Dora K."


def test_without_a_name_at_the_table_the_founder_plays_under_his_username(client, db):
    client.post(reverse("signup"), signup())
    assert create_league(client, "Doko", "doko").status_code == 302
    assert Player.objects.get(league__slug="doko").name == "dora"


def test_a_signed_up_user_can_log_out_and_log_in_again(client, db):
    client.post(reverse("signup"), signup())
    client.post(reverse("logout"))
    assert "_auth_user_id" not in client.session
    response = client.post(reverse("login"), {"username": "dora", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert client.session["_auth_user_id"] == str(User.objects.get(username="dora").pk)


def test_a_name_locked_out_before_it_was_taken_gets_its_account_and_the_lockout_page(client, db):
    # Ten failed logins for "dora" from this address, before anyone had that name: signing up
    # logs in through the lockout like the login form does, so it says how long to wait.
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "dora", "password": "wrong"})
    response = client.post(reverse("signup"), signup())
    assert response.status_code == 429
    assert "Too many failed logins" in response.content.decode()
    assert User.objects.filter(username="dora").exists()
    assert "_auth_user_id" not in client.session


# --- bad input: 400, the message on the field, nothing stored --------------------------------------


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"username": ""}, "username", "This field is required."),
        ({"username": "dora lee"}, "username", "Enter a valid username."),
        ({"password2": "Kreuz-Dame-43"}, "password2", "The two password fields didn’t match."),
        ({"password1": "kurz", "password2": "kurz"}, "password2", "This password is too short."),
        ({"password1": "12345678901", "password2": "12345678901"}, "password2", "This password is entirely numeric."),
        ({"password1": "password123", "password2": "password123"}, "password2", "This password is too common."),
        ({"password1": "dora-lee-1", "password2": "dora-lee-1", "username": "dora-lee-1"}, "password2", "too similar"),
        ({"email": "dora-at-example"}, "email", "Enter a valid email address."),
        ({"display_name": "Do\u200bra"}, "display_name", ""),
    ],
)
def test_it_rejects_bad_input_on_its_field_with_400(client, db, changes, field, message):
    response = client.post(reverse("signup"), signup(**changes))
    assert response.status_code == 400
    errors = field_errors(response, field)
    assert errors and message in " ".join(errors)
    assert 'class="errorlist"' in response.content.decode()
    assert User.objects.count() == 0
    assert "_auth_user_id" not in client.session


def test_it_rejects_a_username_taken_in_another_case(client, db):
    UserFactory(username="Dora")
    response = client.post(reverse("signup"), signup(username="dora"))
    assert response.status_code == 400
    assert "A user with that username already exists." in field_errors(response, "username")
    assert User.objects.count() == 1


def test_the_messages_are_german_for_a_german_browser(client, db):
    response = client.post(reverse("signup"), signup(password2="anders-99"), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    html = response.content.decode()
    assert "Die beiden Passwörter sind nicht identisch." in html


# --- what the README says about accounts -----------------------------------------------------------


def test_the_demo_login_is_the_demo_leagues_admin_but_not_staff(client, db):
    call_command("seed_demo", stdout=StringIO())
    demo = User.objects.get(username="demo")
    assert not demo.is_staff and not demo.is_superuser
    assert Membership.objects.get(league__slug=SLUG, user=demo).role == Role.ADMIN
    assert client.post(reverse("login"), {"username": "demo", "password": DEMO_PASSWORD}).status_code == 302
    response = client.get("/admin/")
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")


def test_a_superuser_made_by_createsuperuser_opens_the_admin(client, db):
    call_command("createsuperuser", username="root", email="root@example.org", interactive=False, verbosity=0)
    root = User.objects.get(username="root")
    assert root.is_staff and root.is_superuser
    client.force_login(root)
    assert client.get("/admin/").status_code == 200


def test_signing_up_through_an_invite_keeps_the_email_too(client, db):
    league = LeagueFactory(slug="doko")
    invite = Invite.objects.create(league=league, role=Role.MEMBER, created_by=member(league, Role.ADMIN))
    response = client.post(invite.get_absolute_url(), signup(email="dora@example.org", display_name="Dora"))
    assert response.status_code == 302
    assert User.objects.get(username="dora").email == "dora@example.org"
    assert Membership.objects.get(league=league, user__username="dora").role == Role.MEMBER


def test_an_invite_still_asks_for_the_name_at_the_table(client, db):
    league = LeagueFactory(slug="doko")
    invite = Invite.objects.create(league=league, role=Role.MEMBER, created_by=member(league, Role.ADMIN))
    response = client.post(invite.get_absolute_url(), signup())
    assert response.status_code == 400
    assert response.context["form"].errors["display_name"] == ["This field is required."]
    assert not User.objects.filter(username="dora").exists()
