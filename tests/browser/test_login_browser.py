"""On a phone: log in, find the league under "my leagues", open it; and the invite link of an
admin opened by a newcomer who signs up. Screenshots go to test-artifacts/screenshots/."""

import datetime

import pytest

from leagues.models import Invite, Meeting, Player, Role, Season
from tests.factories import LeagueFactory, member


@pytest.fixture
def league(transactional_db):
    league = LeagueFactory(name="Doko-Runde Kreuzberg", slug="kreuzberg", game="doppelkopf", variant="club")
    admin = member(league, Role.ADMIN, username="anna", first_name="Anna")
    for name in ("Ben", "Carla", "Dieter", "Emil"):
        Player.objects.create(league=league, name=name)
    season = Season.objects.create(league=league, number=1, started_on=datetime.date(2026, 9, 4))
    for day, host in ((4, "Anna"), (18, "Ben")):
        Meeting.objects.create(
            league=league,
            season=season,
            date=datetime.date(2026, 9, day),
            host=Player.objects.get(league=league, name=host),
            game="doppelkopf",
            variant="club",
        )
    Invite.objects.create(league=league, role=Role.SCOREKEEPER, created_by=admin)
    return league


@pytest.mark.django_db(transaction=True)
def test_it_logs_in_on_a_phone_and_opens_a_league(phone, live_server, login, shot, league):
    admin = league.memberships.get(role=Role.ADMIN).user
    phone.goto(f"{live_server.url}/")
    shot(phone, "accounts-landing-phone")
    phone.goto(f"{live_server.url}/accounts/login/")
    shot(phone, "accounts-login-phone")
    login(phone, admin)
    phone.wait_for_selector("text=My leagues")
    shot(phone, "accounts-my-leagues-phone")
    phone.click("text=Doko-Runde Kreuzberg")
    phone.wait_for_selector("h1:has-text('Doko-Runde Kreuzberg')")
    assert phone.is_visible("text=Season 1")
    assert phone.is_visible("text=Carla")
    # Nothing may be wider than the phone: no sideways scrolling on the league page.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "leagues-league-phone")
    phone.click("#house-rules summary")
    shot(phone, "leagues-league-rules-open-phone")


@pytest.mark.django_db(transaction=True)
def test_a_wrong_password_shows_a_message_on_the_phone(phone, live_server, shot, league):
    phone.goto(f"{live_server.url}/accounts/login/")
    phone.fill("input[name=username]", "anna")
    phone.fill("input[name=password]", "not-her-password")
    phone.click("button[type=submit]")
    phone.wait_for_selector(".errorlist")
    shot(phone, "accounts-login-error-phone")


@pytest.mark.django_db(transaction=True)
def test_a_newcomer_signs_up_by_invite_on_a_phone(phone, live_server, shot, league):
    invite = Invite.objects.get(league=league)
    phone.goto(f"{live_server.url}{invite.get_absolute_url()}")
    shot(phone, "accounts-invite-phone")
    phone.fill("input[name=username]", "frieda")
    phone.fill("input[name=display_name]", "Frieda")
    phone.fill("input[name=password1]", "Herz-Dame-2026")
    phone.fill("input[name=password2]", "Herz-Dame-2026")
    phone.click("button[type=submit]")
    phone.wait_for_selector("h1:has-text('Doko-Runde Kreuzberg')")
    assert phone.is_visible("text=Welcome to Doko-Runde Kreuzberg")
    shot(phone, "accounts-invite-joined-phone")


@pytest.mark.django_db(transaction=True)
def test_creating_a_league_reloads_the_options_with_the_game(desktop, live_server, login, shot, league):
    admin = league.memberships.get(role=Role.ADMIN).user
    login(desktop, admin)
    desktop.goto(f"{live_server.url}/leagues/new/")
    desktop.fill("#id_name", "Tausender Treff")
    assert desktop.input_value("#id_slug") == "tausender-treff"
    games = desktop.eval_on_selector_all("#id_game option", "options => options.map(o => o.value)")
    other_game = next(g for g in games if g != desktop.input_value("#id_game"))
    before = desktop.inner_html("#rules-part")
    with desktop.expect_response(lambda r: "_hx" in r.url):
        desktop.select_option("#id_game", other_game)
    desktop.wait_for_function("before => document.querySelector('#rules-part').innerHTML !== before", arg=before)
    shot(desktop, "leagues-create-desktop")
    desktop.click("form.league-form button[type=submit]")  # not the topbar's "Log out"
    desktop.wait_for_selector("h1:has-text('Tausender Treff')")
    shot(desktop, "leagues-created-desktop")
