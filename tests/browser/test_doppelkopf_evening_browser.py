"""A five-player Doppelkopf evening on a phone (390x844): start the meeting, enter hands
including a Kontra lost (the next rows are Bock), look at why, correct an earlier hand and
see later rows change. One screenshot at desktop size too."""

import re

import pytest
from playwright.sync_api import expect

from leagues.models import Meeting, Role
from tests.browser.doppelkopf_steps import enter_hand
from tests.factories import LeagueFactory, PlayerFactory, member

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]


@pytest.mark.django_db(transaction=True)
def test_a_doppelkopf_evening_on_a_phone(live_server, phone, desktop, login, shot):
    league = LeagueFactory(name="Stammtisch Grüner Baum", game="doppelkopf", variant="club")
    user = member(league, Role.SCOREKEEPER, first_name="Anna")
    for name in NAMES[1:]:
        PlayerFactory(league=league, name=name)
    page = phone
    login(page, user)

    # Start the meeting: Anna (due to host) is seated; tap the others clockwise.
    page.goto(f"{live_server.url}/l/{league.slug}/meetings/new/")
    expect(page.locator("#seats li")).to_have_count(1)
    expect(page.locator(".suggest")).to_contain_text("Anna")
    for name in ["Ben", "Carl", "Dora", "Emil"]:
        page.locator("#bench label.chip", has_text=name).click()
    # Oops, Emil sits before Dora: move him up once.
    page.locator("#seats li", has_text="Emil").locator("button[data-move=up]").click()
    expect(page.locator("#seats .seat-name")).to_have_text(["Anna", "Ben", "Carl", "Emil", "Dora"])
    page.locator("#seats li", has_text="Emil").locator("button[data-move=down]").click()
    page.fill("input[name=end_time]", "03:30")  # the next morning: never past while the test runs
    shot(page, "dk-start-meeting-phone")
    page.locator("button[type=submit]", has_text="Start the meeting").click()
    expect(page.locator("h2#next-title")).to_have_text("Next: hand 1")
    meeting = Meeting.objects.get(league=league)
    assert [s.player.name for s in meeting.seats.order_by("position")] == NAMES

    # Hand 1: Re (Ben, Dora) win with 131 although Kontra was announced: Kontra lost, Bock.
    enter_hand(page, 1, ["Ben", "Dora"], 131, [("kontra", "kontra")])
    expect(page.locator("#hand-1")).to_have_class(re.compile("round-normal"))
    expect(page.locator(".next-card")).to_contain_text("Bock round")
    # Hand 2 (Ben deals, sits out) and hand 3 (Carl deals): both Bock games.
    enter_hand(page, 2, ["Carl", "Dora"], 100)
    enter_hand(page, 3, ["Anna", "Dora"], 140, [("re", "re")])
    expect(page.locator("#hand-2")).to_have_class(re.compile("round-bock"))
    expect(page.locator("#hand-3")).to_have_class(re.compile("round-bock"))
    expect(page.locator("#hand-2 td").nth(2)).to_contain_text("-4")  # Carl: 2 points, doubled
    shot(page, "dk-evening-phone")

    # A bad hand: the eyes are missing. The problem shows on the field, nothing is saved.
    page.locator("#hand-form .dk-party label.chip", has_text="Ben").click()
    page.locator("#hand-form button[type=submit]").click()
    expect(page.locator("#hand-form .errorlist").first).to_be_visible()
    shot(page, "dk-bad-hand-phone")

    # Why did hand 1 score 3?
    page.locator("#hand-1 th a").click()
    expect(page.locator("#why-dialog")).to_be_visible()
    expect(page.locator("#why")).to_contain_text("Kontra angesagt")
    shot(page, "dk-why-phone")

    # Correct hand 1: Re had only 100 eyes, so Kontra won: no Bock any more.
    page.locator("#why a", has_text="Correct").click()
    expect(page.locator("input[name=eyes]")).to_have_value("131")
    page.fill("input[name=eyes]", "100")
    shot(page, "dk-correct-phone")
    page.locator("button[type=submit]", has_text="Save correction").click()
    expect(page.locator("#hand-2")).to_have_class(re.compile("round-normal"))
    expect(page.locator("#hand-3")).to_have_class(re.compile("round-normal"))
    expect(page.locator("#hand-2 td").nth(2)).to_contain_text("-2")
    shot(page, "dk-corrected-phone")

    # The history keeps the old version: who corrected what, and when.
    page.locator(".meeting-nav a", has_text="History").click()
    expect(page.locator(".history li").first).to_contain_text("corrected")
    expect(page.locator(".history li").first).to_contain_text("Re 131 : Kontra 109")
    shot(page, "dk-history-phone")

    login(desktop, user)
    desktop.goto(f"{live_server.url}{meeting.get_absolute_url()}")
    expect(desktop.locator("#hand-3")).to_be_visible()
    shot(desktop, "dk-evening-desktop")
