"""The bill typed the German way on a phone (390x844, a browser asking for de-DE): the amount is
typed key by key with a decimal comma, "1.234" is refused as ambiguous, a bill of 18.740 € is
read back and asked about, and the shares read "30,84 €"; the shared link opens the same bill
in English. Screenshots bill-money-*.png."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from leagues.models import Role
from tests.browser.conftest import PHONE
from tests.factories import LeagueFactory, member
from tests.stats.test_standings_queries import two_meetings

NBSP = "\u00a0"


def context_in(browser, locale):
    context = browser.new_context(viewport=PHONE, locale=locale)
    context.set_default_timeout(10_000)
    return context, context.new_page()


def overflow(page):
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def split(page):
    """ "See the split": the form's inputs in the address, nothing stored."""
    page.locator(".bill-form button[type=submit]").click()


def save(page):
    """ "Save" under the split shown."""
    page.locator(".bill-save button[type=submit]").click()


@pytest.mark.django_db(transaction=True)
def test_a_bill_typed_the_german_way_on_a_phone(live_server, browser, login, shot):
    league = LeagueFactory()
    two_meetings(league)  # Ben 5, Anna 1, Emil 0, Carl 0, Dora -6: five players, mean 0
    league.seasons.update(closed_on=datetime.date(2026, 2, 13))
    # An admin: a stored bill is changed by an admin (a scorekeeper stores the first one).
    user = member(league, Role.ADMIN, username="kassenwart")
    bill_url = f"{live_server.url}/l/{league.slug}/seasons/1/bill/"

    context, page = context_in(browser, "de-DE")
    login(page, user)
    page.goto(bill_url)
    total = page.locator("input[name=total]")
    # A text input with the decimal keypad: Chromium's type=number would drop "187,40".
    expect(total).to_have_attribute("type", "text")
    expect(total).to_have_attribute("inputmode", "decimal")

    # "1.234": a thousand and more, or one euro and a bit? Refused, both readings named.
    total.press_sequentially("1.234")
    split(page)
    error = page.locator(".field-error .errorlist")
    expect(error).to_contain_text("1.234")
    expect(error).to_contain_text("1234")
    expect(error).to_contain_text("1,234")
    shot(page, "bill-money-1-ambiguous-de")

    # "18740" (the comma forgotten): 3.748,00 € a head is no restaurant bill; read back, asked.
    total.fill("")
    total.press_sequentially("18740")
    split(page)
    expect(page.locator(".field-error .errorlist")).to_contain_text(f"18.740,00{NBSP}€")
    expect(page.locator(".field-error .errorlist")).to_contain_text(f"3.748,00{NBSP}€")
    expect(page.locator("input[name=confirm_total]")).to_be_visible()
    assert overflow(page) <= 0
    shot(page, "bill-money-2-confirm-de")

    # Corrected to 154,20, by points at 10 cents: 154.20 / 5 = 30.84, minus 0.10 × the score:
    # Ben 30.34, Anna 30.74, Emil 30.84, Carl 30.84, Dora 31.44 (sum 154.20).
    total.fill("")
    total.press_sequentially("154,20")
    page.fill("input[name=cents_per_point]", "10")
    split(page)
    result = page.locator(".bill-result")
    expect(result.locator("h2")).to_contain_text(f"154,20{NBSP}€")
    expect(result.locator("tbody td.big")).to_have_text(
        [f"30,34{NBSP}€", f"30,74{NBSP}€", f"30,84{NBSP}€", f"30,84{NBSP}€", f"31,44{NBSP}€"]
    )
    save(page)
    expect(page.locator(".stored-bill tbody td.big")).to_have_count(5)
    # Stored: the page is the bill's own; the form to change it shows the amount the German way.
    assert page.url == bill_url
    expect(page.locator("input[name=total]")).to_have_value("154,20")
    # No amount breaks across two lines.
    heights = result.locator("span.money").evaluate_all("spans => spans.map(s => s.getClientRects().length)")
    assert heights and set(heights) == {1}
    assert overflow(page) <= 0
    shot(page, "bill-money-3-shares-de")

    # 1.234,50 € for five is 246,90 € each: asked, then confirmed with the checkbox.
    total = page.locator("input[name=total]")
    total.fill("")
    total.press_sequentially("1.234,50")
    page.locator("label.choice", has_text=re.compile("gleich|equal", re.I)).click()
    split(page)
    page.locator("input[name=confirm_total]").check()
    shot(page, "bill-money-4-confirmed-de")
    split(page)
    save(page)
    expect(page.locator(".bill-result h2")).to_contain_text(f"1.234,50{NBSP}€")
    expect(page.locator(".bill-result tbody td.big").first).to_have_text(f"246,90{NBSP}€")
    shot(page, "bill-money-5-thousands-de")
    context.close()

    # The stored bill read in English: the same shares, written the English way.
    context, page = context_in(browser, "en-GB")
    login(page, user)
    page.goto(bill_url)
    expect(page.locator(".bill-result h2")).to_contain_text(f"1,234.50{NBSP}€")
    expect(page.locator(".bill-result tbody td.big").first).to_have_text(f"246.90{NBSP}€")
    shot(page, "bill-money-6-stored-en")
    context.close()
