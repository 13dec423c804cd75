"""A new club starts on its own, on a phone (390x844) in German: from the start page to sign-up,
logged in at once, on "create your league", and the league made. Screenshots signup-de-*.png."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from leagues.models import League, Membership, Role
from tests.browser.conftest import PHONE

PASSWORD = "Kreuz-Dame-42"


def top(page):
    page.evaluate("window.scrollTo(0, 0)")
    return page


def overflow(page):
    """How far the page is wider than the screen (a word or field sticking out)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


@pytest.mark.django_db(transaction=True)
def test_a_new_club_signs_up_and_creates_its_league_on_a_phone_in_german(live_server, browser, shot):
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    context.set_default_timeout(10_000)
    page = context.new_page()
    url = live_server.url

    page.goto(f"{url}/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.locator(".hero a[href='/accounts/signup/']").click()
    expect(page).to_have_url(f"{url}/accounts/signup/")
    shot(top(page), "signup-de-01-form")

    # A first try with passwords that differ: the message sits on the field, nothing is made.
    page.fill("#id_username", "hanne")
    page.fill("#id_email", "hanne@example.org")
    page.fill("#id_display_name", "Hanne")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", "Kreuz-Dame-24")
    page.locator("form.card button[type=submit]").click()
    error = page.locator(".field-error .errorlist")
    expect(error).to_contain_text("Die beiden Passwörter sind nicht identisch.")  # Django's German
    assert overflow(page) <= 0
    shot(top(page), "signup-de-02-passwords-differ")
    assert not get_user_model().objects.filter(username="hanne").exists()

    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.locator("form.card button[type=submit]").click()

    # Logged in and on "create your league".
    expect(page).to_have_url(f"{url}/leagues/new/")
    expect(page.locator(".topbar")).to_contain_text("Abmelden")
    expect(page.locator(".messages")).to_be_visible()
    assert overflow(page) <= 0
    shot(top(page), "signup-de-03-create-your-league")

    page.fill("#id_name", "Doko-Runde Grüner Baum")
    page.select_option("#id_game", "doppelkopf")
    expect(page.locator("fieldset.options")).to_contain_text("Bock")
    page.locator(".league-form button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("Doko-Runde Grüner Baum")
    assert overflow(page) <= 0
    shot(top(page), "signup-de-04-league")

    user = get_user_model().objects.get(username="hanne")
    assert user.email == "hanne@example.org" and user.first_name == "Hanne"
    league = League.objects.get(name="Doko-Runde Grüner Baum")
    assert Membership.objects.get(league=league, user=user).role == Role.ADMIN
    assert league.players.get(user=user).name == "Hanne"
    context.close()
