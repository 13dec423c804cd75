"""A club night's pages in a browser: two scorekeepers' phones enter hands at their own tables
(through each table's hand form) while a member's phone on the night's page (390 px) and a TV
on its big screen (1920 px) show each hand of either table within 5 s without a reload; the
public link's screen on a phone. Screenshots night-*.png."""

import pytest
from playwright.sync_api import expect

from leagues.models import Role
from leagues.table import services as table_services
from tests.browser.conftest import PHONE
from tests.browser.doppelkopf_steps import enter_hand
from tests.factories import LeagueFactory, member, night_for

pytestmark = pytest.mark.slow

FIRST = ["Anna", "Ben", "Carl", "Dora"]
SECOND = ["Emil", "Fritz", "Gabi", "Hans"]
TOKEN = "night-screen-token-night-screen-token0"
TV = {"width": 1920, "height": 1080}


@pytest.fixture
def night(db):
    league = LeagueFactory(name="Stammtisch Abend", slug="abend", game="doppelkopf", variant="club", public_token=TOKEN)
    keepers = [member(league, Role.SCOREKEEPER, username=f"keeper-{n}", first_name=f"Keeper{n}") for n in (1, 2)]
    watcher = member(league, Role.MEMBER, username="watcher-night", first_name="Watcher")
    return night_for(league, [FIRST, SECOND]), keepers, watcher


def contexts(browser, *viewports):
    found = [browser.new_context(viewport=viewport, locale="en-GB") for viewport in viewports]
    for context in found:
        context.set_default_timeout(10_000)
    return found


@pytest.mark.django_db(transaction=True)
def test_every_phone_sees_a_hand_at_either_table_within_five_seconds(browser, live_server, login, shot, night):
    night, keepers, watcher = night
    tables = list(night.tables.order_by("table_number"))
    opened = contexts(browser, PHONE, PHONE, PHONE, TV)
    try:
        first, second, reader, tv = (context.new_page() for context in opened)
        for page, user in ((first, keepers[0]), (second, keepers[1]), (reader, watcher), (tv, watcher)):
            login(page, user)
        reader.goto(live_server.url + night.get_absolute_url())
        tv.goto(f"{live_server.url}{night.get_absolute_url()}live/")
        expect(tv.locator("#live-board")).to_contain_text("No hand entered yet.")
        for page, table in ((first, tables[0]), (second, tables[1])):
            page.goto(live_server.url + table.get_absolute_url())
        enter_hand(first, 1, ("Ben", "Dora"), 131)
        expect(tv.locator("#live-board #table-1-hand-1")).to_be_visible(timeout=5_000)
        expect(reader.locator("#night-table-1 + p")).to_contain_text("1 hand", timeout=5_000)
        enter_hand(second, 1, ("Fritz", "Gabi"), 131)
        enter_hand(second, 2, ("Fritz", "Hans"), 131)
        expect(tv.locator("#live-board #table-2-hand-2")).to_be_visible(timeout=5_000)
        expect(reader.locator("#night-table-2 + p")).to_contain_text("2 hands", timeout=5_000)
        expect(reader.locator(".night-standings .live-ranking li").first).to_contain_text("Fritz")
        shot(reader, "night-1-page-390")
        shot(tv, "night-2-tv-1920")
        # Neither page reloaded: the first answer was the page itself.
        for page in (reader, tv):
            assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
        # A table's sheet names its night and leads back to it.
        second.locator("a.night-link").click()
        expect(second.locator("h1")).to_be_visible()
        assert second.url.endswith(night.get_absolute_url())
    finally:
        for context in opened:
            context.close()


@pytest.mark.django_db(transaction=True)
def test_the_public_screen_of_a_night_fits_a_phone(browser, live_server, shot, night):
    night, keepers, _watcher = night
    for table, names in zip(night.tables.order_by("table_number"), (FIRST, SECOND), strict=True):
        payload = {"kind": "normal", "re": names[1:3], "re_eyes": 131, "announcements": [], "specials": []}
        table_services.enter_hand(meeting=table, payload=payload, by=keepers[0])
    (context,) = contexts(browser, PHONE)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/p/{TOKEN}/n/{night.pk}/live/")
        expect(page.locator("#live-board #table-2-hand-1")).to_be_visible()
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= PHONE["width"], wide
        shot(page, "night-3-public-390")
    finally:
        context.close()
