"""Starting a club night on a phone: nine Doppelkopf players tapped on the start page lead to
two proposed tables (5 + 4) that fit the screen at 390 px without scrolling; choosing another
table for a player moves him there at once; the night starts with him at his new table."""

import pytest
from django.urls import reverse

from leagues.models import ClubNight, Role
from tests.browser.test_accessibility_browser import ALL_RULES, axe_violations, describe
from tests.factories import LeagueFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

NINE = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz", "Gabi", "Hans", "Ida"]


def test_nine_players_are_seated_at_two_tables_and_one_is_moved(live_server, phone, login, shot):
    league = LeagueFactory(game="doppelkopf", variant="club")
    keeper = UserFactory()
    MembershipFactory(league=league, user=keeper, role=Role.SCOREKEEPER)
    for name in NINE:
        PlayerFactory(league=league, name=name)
    login(phone, keeper)
    phone.goto(live_server.url + reverse("meeting_start", kwargs={"slug": league.slug}))
    for chip in phone.locator("#bench label.chip").all():  # the host due sits already
        chip.click()
    assert phone.locator("#seats li").count() == 9
    phone.get_by_role("button", name="Start the meeting").click()
    phone.wait_for_url("**/nights/new/**")
    tables = phone.locator(".night-table")
    assert tables.count() == 2
    assert [t.locator(".night-seats li").count() for t in tables.all()] == [5, 4]
    shot(phone, "night-start-proposed-390")
    found = axe_violations(phone, ALL_RULES)
    assert not found, describe({("night start", phone.url): found})
    # Both tables on the first screen: nothing to scroll to see who sits where.
    bottom = tables.nth(1).bounding_box()
    assert bottom["y"] + bottom["height"] <= 844
    assert phone.evaluate(
        "Array.from(document.querySelectorAll('.night-seats .seat-name')).every(e => e.scrollWidth <= e.clientWidth)"
    )
    moved = tables.nth(0).locator(".night-seats li").last
    name = moved.locator(".seat-name").inner_text()
    moved.locator("select").select_option("2")
    assert [t.locator(".night-seats li").count() for t in tables.all()] == [4, 5]
    assert tables.nth(1).locator(".night-seats li").last.locator(".seat-name").inner_text() == name
    assert tables.nth(1).locator(".table-count").inner_text() == "5"
    shot(phone, "night-start-moved-390")
    # The first step too: who is here, to tick.
    who = phone.context.new_page()
    who.goto(live_server.url + reverse("club_night_start", kwargs={"slug": league.slug}))
    found = axe_violations(who, ALL_RULES)
    assert not found, describe({("who is here", who.url): found})
    who.close()
    phone.get_by_role("button", name="Start the club night").click()
    phone.wait_for_url("**/n/*/")
    night = ClubNight.objects.get(league=league)
    second = night.tables.get(table_number=2)
    assert second.seats.order_by("position").last().player.name == name
