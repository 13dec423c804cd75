"""The bill in two steps, in German on a phone (390x844 and 360 wide): the scorekeeper types
the bill and taps "See the split"; the split shows, marked not saved, with what saving
closes (Season 1 and its last evening, "4 hands, the round is finished"), and nothing is
stored; "Save" stores exactly that split and closes the evening and the season. While the
last evening is two games into a round, the split shows but saving is refused, saying why.
Screenshots bill-steps-*.png."""

import contextlib

import pytest
from django.utils import translation
from django.utils.translation import gettext, ngettext
from playwright.sync_api import expect

from leagues.models import Role, SeasonBill
from leagues.table import evening
from tests.browser.conftest import PHONE
from tests.factories import LeagueFactory
from tests.seasons.test_bill_two_steps import (
    people,  # noqa: F401  (fixture)
    season_with_last_evening,
)

NBSP = "\u00a0"


def german(s, plural=None, count=None):
    """The page's German for an English msgid (the catalogue's, so the test follows it)."""
    with translation.override("de"):
        return ngettext(s, plural, count) if plural else gettext(s)


def phone_in_german(browser, width):
    context = browser.new_context(viewport={**PHONE, "width": width}, locale="de-DE")
    context.set_default_timeout(10_000)
    return context, context.new_page()


def overflow(page):
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def uncovered(page, selector):
    """The control scrolled into view is inside the screen and on top where it is tapped."""
    control = page.locator(selector)
    control.scroll_into_view_if_needed()
    box = control.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    return page.evaluate(
        """(sel) => { const el = document.querySelector(sel); const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return hit === el || el.contains(hit); }""",
        selector,
    )


def no_capture(execute):
    return contextlib.nullcontext()


@pytest.fixture
def league():
    return LeagueFactory(game="doppelkopf", variant="club")


@pytest.mark.parametrize("width", [390, 360])
@pytest.mark.django_db(transaction=True)
def test_the_bill_is_seen_before_it_is_saved(live_server, browser, login, shot, league, people, width):  # noqa: F811
    last = season_with_last_evening(league, people[Role.SCOREKEEPER], 4, no_capture)
    bill_url = f"{live_server.url}/l/{league.slug}/seasons/1/bill/"
    context, page = phone_in_german(browser, width)
    login(page, people[Role.SCOREKEEPER])
    page.goto(bill_url)
    page.locator("input[name=total]").press_sequentially("100,00")
    page.fill("input[name=cents_per_point]", "10")
    see = page.locator(".bill-form button[type=submit]")
    expect(see).to_have_text(german("See the split"))
    shot(page, f"bill-steps-{width}-1-form-de")
    see.click()

    # Step 1: the split, not saved. Ben and Dora +16 pay 25 − 1,60; Anna and Carl 26,60.
    result = page.locator(".bill-result")
    expect(result.locator(".badge")).to_have_text(german("Not saved yet"))
    expect(result.locator("tbody td.big")).to_have_text(
        [f"23,40{NBSP}€", f"23,40{NBSP}€", f"26,60{NBSP}€", f"26,60{NBSP}€"]
    )
    save_card = page.locator(".bill-save")
    expect(save_card.locator(".closes li")).to_have_count(1)
    state = ", ".join([german("%(count)s hand", "%(count)s hands", 4) % {"count": 4}, german("the round is finished")])
    expect(save_card.locator(".closes li")).to_contain_text(state)
    assert not SeasonBill.objects.exists()
    assert uncovered(page, ".bill-save button[type=submit]")
    assert overflow(page) <= 0
    shot(page, f"bill-steps-{width}-2-split-de")

    # Step 2: saved, exactly that split; the evening and the season are closed.
    save_card.locator("button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text(german("The bill is saved, and the season is closed."))
    expect(page.locator(".stored-bill tbody td.big")).to_have_text(
        [f"23,40{NBSP}€", f"23,40{NBSP}€", f"26,60{NBSP}€", f"26,60{NBSP}€"]
    )
    assert page.url == bill_url
    bill = SeasonBill.objects.get()
    assert bill.shares == {"Ben": "23.40", "Dora": "23.40", "Anna": "26.60", "Carl": "26.60"}
    last.refresh_from_db()
    assert last.closed_at == bill.settled_at
    assert overflow(page) <= 0
    shot(page, f"bill-steps-{width}-3-saved-de")
    context.close()


@pytest.mark.django_db(transaction=True)
def test_mid_round_the_split_shows_and_saving_is_refused(live_server, browser, login, shot, league, people):  # noqa: F811
    last = season_with_last_evening(league, people[Role.SCOREKEEPER], 2, no_capture)
    context, page = phone_in_german(browser, 390)
    login(page, people[Role.SCOREKEEPER])
    page.goto(f"{live_server.url}/l/{league.slug}/seasons/1/bill/")
    page.locator("input[name=total]").press_sequentially("100,00")
    page.locator(".bill-form button[type=submit]").click()
    expect(page.locator(".bill-result tbody td.big")).to_have_count(4)
    save_card = page.locator(".bill-save")
    expect(save_card.locator("[role=alert]")).to_be_visible()
    with translation.override("de"):
        refusal = evening.mid_round_message(last, 2)
    expect(save_card.locator("[role=alert]")).to_have_text(refusal)
    expect(save_card.locator("button[type=submit]")).to_have_count(0)
    assert overflow(page) <= 0
    shot(page, "bill-steps-390-4-mid-round-de")
    assert not SeasonBill.objects.exists()
    context.close()
