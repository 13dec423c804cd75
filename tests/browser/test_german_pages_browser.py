"""The pages in German at the table (390x844, a browser asking for de-DE): a Doppelkopf
Stammtisch's league from its creation to the bill, one screenshot each (de-*.png) to look at
long German words, chips and tables at phone width. A desktop glance at the sheet too."""

import datetime
import random

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from leagues.clubs import services as clubs_services
from leagues.models import League, Meeting
from leagues.table import meetings
from leagues.table import services as table_services
from scoring.doppelkopf import example_request
from tests.browser.conftest import DESKTOP, PHONE, SHOTS
from tests.factories import UserFactory

OTHERS = ["Ben", "Carl", "Dora", "Emil"]
# A seed whose eleven hands bring a Bock round and then a Ramsch round (club rules).
SEED, HANDS = 3, 11


def german(browser, viewport):
    context = browser.new_context(viewport=viewport, locale="de-DE")
    context.set_default_timeout(10_000)
    return context, context.new_page()


def top(page):
    page.evaluate("window.scrollTo(0, 0)")
    return page


def overflow(page):
    """How far the page is wider than the screen (a table or word sticking out)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def season_so_far(league, user):
    """Ben, Carl, Dora and Emil have hosted (one hand each), so Anna's evening closes the season."""
    players = {p.name: p for p in league.players.all()}
    order = ["Anna", *OTHERS]
    today = timezone.localdate()
    for weeks_ago, host in zip((16, 12, 8, 4), OTHERS, strict=True):
        start = order.index(host)
        seated = [players[name] for name in order[start:] + order[:start]]
        meeting = meetings.start_meeting(
            league=league, date=today - datetime.timedelta(weeks=weeks_ago), players=seated, user=user
        )
        re_players = [seated[1].name, seated[2].name]
        table_services.enter_hand(
            meeting=meeting, payload={"kind": "normal", "re": re_players, "re_eyes": 130}, by=user
        )


@pytest.mark.django_db(transaction=True)
def test_the_german_pages_on_a_phone(live_server, browser, login, shot):
    context, page = german(browser, PHONE)
    user = UserFactory(username="anna", first_name="Anna")
    url = live_server.url

    page.goto(f"{url}/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    shot(top(page), "de-01-landing")
    login(page, user)
    expect(page.locator(".topbar")).to_contain_text("Meine Ligen")
    shot(top(page), "de-02-my-leagues")

    # Create the league: the house rules come in sections that fold.
    page.goto(f"{url}/leagues/new/")
    page.fill("#id_name", "Doppelkopf-Stammtisch Zum Grünen Baum")
    page.select_option("#id_game", "doppelkopf")
    expect(page.locator("fieldset.options")).to_contain_text("Bock")
    assert overflow(page) <= 0
    shot(top(page), "de-03-create-league")
    for summary in page.locator("fieldset.options details.option-section > summary").all():
        summary.click()
    shot(top(page), "de-03b-create-league-open")
    page.locator(".league-form button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("Doppelkopf-Stammtisch Zum Grünen Baum")
    league = League.objects.get(name="Doppelkopf-Stammtisch Zum Grünen Baum")
    for name in OTHERS:
        clubs_services.add_player(league=league, name=name)
    season_so_far(league, user)
    page.goto(f"{url}/")
    shot(top(page), "de-02b-my-leagues")
    page.goto(f"{url}/l/{league.slug}/")
    assert overflow(page) <= 0
    shot(top(page), "de-04-league")

    # Start Anna's evening.
    page.goto(f"{url}/l/{league.slug}/meetings/new/")
    for name in OTHERS:
        page.locator("#bench label.chip", has_text=name).click()
    expect(page.locator("#seats .seat-name")).to_have_text(["Anna", *OTHERS])
    # Until half past three in the morning (an end time before noon is the next morning): a
    # later time of the day itself ("23:30") had passed when the suite ran late in the evening,
    # and the evening closed with its first hand.
    page.fill("input[name=end_time]", "03:30")
    assert overflow(page) <= 0
    shot(top(page), "de-05-start-meeting")
    page.locator("form button[type=submit].wide").click()
    expect(page.locator("#hand-form")).to_be_visible()
    meeting = Meeting.objects.filter(league=league).latest("date")

    # Eleven hands as the engine's example gives them: a Bock round, then Ramsch.
    request = example_request(random.Random(SEED), HANDS, players=["Anna", *OTHERS], compulsory_solos=[])
    for hand in request["hands"]:
        table_services.enter_hand(meeting=meeting, payload=hand, by=user)
    page.goto(f"{url}{meeting.get_absolute_url()}")
    expect(page.locator("tr.round-bock").first).to_be_visible()
    expect(page.locator("tr.round-ramsch").first).to_be_visible()
    assert overflow(page) <= 0
    shot(top(page), "de-06-meeting")

    # Why did the first Bock hand score what it did?
    page.locator("tr.round-bock th a").first.click()
    expect(page.locator("#why-dialog")).to_be_visible()
    page.wait_for_timeout(200)
    page.screenshot(path=str(SHOTS / "de-07-why.png"))  # the dialog as the phone shows it
    page.keyboard.press("Escape")

    page.goto(f"{url}{meeting.get_absolute_url()}history/")
    assert overflow(page) <= 0
    shot(top(page), "de-08-history")

    page.goto(f"{url}/l/{league.slug}/standings/")
    assert overflow(page) <= 0
    shot(top(page), "de-09-standings")

    page.goto(f"{url}/l/{league.slug}/seasons/{meeting.season.number}/bill/")
    page.fill("input[name=total]", "187.40")
    page.locator(".bill-form button[type=submit]").click()
    expect(page.locator(".bill-result")).to_be_visible()
    assert overflow(page) <= 0
    shot(top(page), "de-10-bill")
    # Its evenings stopped mid-round, so the split is not saved; the admin closes the season.
    page.locator("form[action$='/close/'] button[type=submit]").first.click()

    # The league page with a closed season: its line (name, dates, the bill, "abgeschlossen")
    # wraps instead of widening the page (it was 2 px wider than the phone).
    page.goto(f"{url}/l/{league.slug}/")
    expect(page.locator("#seasons .badge").first).to_have_text("abgeschlossen")
    assert overflow(page) <= 0
    context.close()

    context, desk = german(browser, DESKTOP)
    login(desk, user)
    desk.goto(f"{url}{meeting.get_absolute_url()}")
    expect(desk.locator("tr.round-ramsch").first).to_be_visible()
    shot(top(desk), "de-11-meeting-desktop")
    desk.goto(f"{url}/leagues/new/")
    desk.select_option("#id_game", "doppelkopf")
    shot(top(desk), "de-12-create-league-desktop")
    context.close()
