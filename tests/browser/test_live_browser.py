"""The evening's big screen (templates/live/live.html) in a browser: a TV (1920 px) watching
by the member's link while a phone enters hands through the hand form; each new hand is on
the screen within 5 s without a reload, and the polls in between are revalidated by the
browser (If-None-Match) and answered 304; so is it on the meeting page of a member who only
reads it. The public link's screen on a phone (390 px).
Screenshots live-*.png."""

import pytest
from playwright.sync_api import expect

from leagues.models import Player, Role
from leagues.table import services as table_services
from tests.browser.conftest import PHONE
from tests.browser.doppelkopf_steps import enter_hand
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.slow

NAMES = ["Anna", "Ben", "Carl", "Dora"]
TOKEN = "live-screen-token-live-screen-token0"
TV = {"width": 1920, "height": 1080}


@pytest.fixture
def table(db):
    league = LeagueFactory(name="Stammtisch Live", slug="live", game="doppelkopf", variant="club", public_token=TOKEN)
    keeper = member(league, Role.SCOREKEEPER, username="anna-live", first_name="Anna")
    watcher = member(league, Role.MEMBER, username="ben-live", first_name="Ben")
    for name in NAMES[1:]:
        Player.objects.get_or_create(league=league, name=name)
    return meeting_for(league, NAMES), keeper, watcher


def polls(context, page):
    """The screen's polls as they go on the wire (Chrome DevTools Protocol's "extra info": the
    headers sent and the status the server answered; the page itself is handed the kept
    answer as a 200 after a 304): (If-None-Match sent, the server's status) of each."""
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    polled, sent, status = set(), {}, {}

    def request(event):
        if event["request"]["url"].endswith("/live/_hx"):
            polled.add(event["requestId"])

    def asked(event):
        headers = {k.lower(): v for k, v in event["headers"].items()}
        sent[event["requestId"]] = headers.get("if-none-match")

    def answered(event):
        status[event["requestId"]] = event["statusCode"]

    cdp.on("Network.requestWillBeSent", request)
    cdp.on("Network.requestWillBeSentExtraInfo", asked)
    cdp.on("Network.responseReceivedExtraInfo", answered)
    return lambda: [(sent.get(r), status.get(r)) for r in polled]


@pytest.mark.django_db(transaction=True)
def test_the_big_screen_shows_each_hand_within_five_seconds(browser, live_server, login, shot, table):
    meeting, keeper, watcher = table
    tv_context = browser.new_context(viewport=TV, locale="en-GB")
    phone_context = browser.new_context(viewport=PHONE, locale="en-GB")
    for context in (tv_context, phone_context):
        context.set_default_timeout(10_000)
    try:
        tv, phone = tv_context.new_page(), phone_context.new_page()
        login(tv, watcher)
        seen = polls(tv_context, tv)
        tv.goto(f"{live_server.url}/l/{meeting.league.slug}/m/{meeting.pk}/live/")
        expect(tv.locator("#live-board")).to_contain_text("No hand entered yet.")
        # The watcher's phone on the meeting page: he only reads it (a member), so it polls too.
        reader = tv_context.new_page()
        reader.set_viewport_size(PHONE)
        reader.goto(live_server.url + meeting.get_absolute_url())
        login(phone, keeper)
        phone.goto(live_server.url + meeting.get_absolute_url())
        for number, pair in enumerate([("Ben", "Dora"), ("Ben", "Dora")], 1):
            enter_hand(phone, number, pair, 131)
            expect(tv.locator(f"#live-board #hand-{number}")).to_be_visible(timeout=5_000)
            expect(reader.locator(f"#sheet-rows #hand-{number}")).to_be_visible(timeout=5_000)
        expect(tv.locator(".live-ranking li").first).to_contain_text("Ben +2")
        # Nothing more entered: the next polls are asked with the ETag kept, and answered 304.
        tv.wait_for_timeout(6_500)
        shot(tv, "live-1-tv-1920")
        found = seen()
        assert any(sent and status == 304 for sent, status in found), found
        # The page never reloaded: the first answer was the page itself.
        assert tv.evaluate("performance.getEntriesByType('navigation').length") == 1
    finally:
        tv_context.close()
        phone_context.close()


@pytest.mark.django_db(transaction=True)
def test_the_public_screen_fits_a_phone(browser, live_server, shot, table):
    meeting, keeper, _watcher = table
    for re_pair in [("Ben", "Dora"), ("Anna", "Carl"), ("Ben", "Carl")]:
        payload = {"kind": "normal", "re": list(re_pair), "re_eyes": 131, "announcements": [], "specials": []}
        table_services.enter_hand(meeting=meeting, payload=payload, by=keeper)
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/p/{TOKEN}/m/{meeting.pk}/live/")
        expect(page.locator("#live-board #hand-3")).to_be_visible()
        expect(page.locator("#live-board")).to_contain_text("Als Nächstes: Spiel 4")
        # Nothing wider than the phone but the sheet's own scroller.
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= PHONE["width"], wide
        shot(page, "live-2-public-390")
    finally:
        context.close()
