"""A club night of nine Doppelkopf players as a club plays it: the scorekeeper names who is
there, Kartenliga proposes a table of five and one of four, the night starts; two phones (two
browser contexts) enter their tables' hands at the same moment, and a third context on the
night's big screen sees every hand of both tables within 5 s, without a reload. Screenshots
club-night-*.png."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from leagues.models import ClubNight, MeetingResult, Role
from tests.browser.conftest import PHONE
from tests.factories import LeagueFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

NINE = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz", "Gabi", "Hans", "Ida"]
TV = {"width": 1920, "height": 1080}
ROUNDS = 3


def opened(browser, *viewports):
    found = [browser.new_context(viewport=viewport, locale="en-GB") for viewport in viewports]
    for context in found:
        context.set_default_timeout(10_000)
    return found


def start_the_night(page, live_server, league):
    """The start page with everyone tapped, the proposal (5 + 4) taken as it is."""
    page.goto(live_server.url + reverse("meeting_start", kwargs={"slug": league.slug}))
    for chip in page.locator("#bench label.chip").all():
        chip.click()
    page.get_by_role("button", name="Start the meeting").click()
    page.wait_for_url("**/nights/new/**")
    assert [t.locator(".night-seats li").count() for t in page.locator(".night-table").all()] == [5, 4]
    page.get_by_role("button", name="Start the club night").click()
    page.wait_for_url("**/n/*/")
    return ClubNight.objects.get(league=league)


def fill_hand(page, number):
    """Tap the first two players still in the game as Re, and Re's 131 eyes; not saved yet."""
    form = page.locator("#hand-form")
    expect(form.locator("h2")).to_have_text(f"Enter hand {number}")
    chips = form.locator(".dk-party label.chip:not(.out)")
    for index in (0, 1):
        chips.nth(index).click()
    form.locator("input[name=eyes]").fill("131")


def test_two_tables_enter_at_once_and_the_big_screen_follows_both(browser, live_server, login, shot):
    league = LeagueFactory(name="Stammtisch Zwei Tische", game="doppelkopf", variant="club")
    keepers = []
    for n in (1, 2):
        keepers.append(UserFactory(username=f"tisch-{n}"))
        MembershipFactory(league=league, user=keepers[-1], role=Role.SCOREKEEPER)
    for name in NINE:
        PlayerFactory(league=league, name=name)
    first_ctx, second_ctx, tv_ctx = opened(browser, PHONE, PHONE, TV)
    try:
        first, second, tv = first_ctx.new_page(), second_ctx.new_page(), tv_ctx.new_page()
        for page, user in ((first, keepers[0]), (second, keepers[1]), (tv, keepers[1])):
            login(page, user)
        night = start_the_night(first, live_server, league)
        tables = list(night.tables.order_by("table_number"))
        tv.goto(f"{live_server.url}{night.get_absolute_url()}live/")
        for page, table in ((first, tables[0]), (second, tables[1])):
            page.goto(live_server.url + table.get_absolute_url())
        for number in range(1, ROUNDS + 1):
            fill_hand(first, number)
            fill_hand(second, number)
            # Both saves leave before either answer comes back: the two writes run at once.
            first.locator("#hand-form button[type=submit]").click(no_wait_after=True)
            second.locator("#hand-form button[type=submit]").click(no_wait_after=True)
            for table in (1, 2):
                expect(tv.locator(f"#live-board #table-{table}-hand-{number}")).to_be_visible(timeout=5_000)
            for page in (first, second):
                expect(page.locator("#hand-form h2")).to_have_text(f"Enter hand {number + 1}")
        shot(tv, "club-night-tv-1920")
        shot(first, "club-night-table-1-390")
        assert tv.evaluate("performance.getEntriesByType('navigation').length") == 1
        # Every hand stored once, at its own table, numbered 1..ROUNDS.
        for table in tables:
            assert list(table.hands.live().values_list("number", flat=True)) == list(range(1, ROUNDS + 1))
        # Each table's sums are zero, as every Doppelkopf game's are.
        for table in tables:
            assert sum(MeetingResult.objects.filter(meeting=table).values_list("total", flat=True)) == 0
    finally:
        for context in (first_ctx, second_ctx, tv_ctx):
            context.close()
