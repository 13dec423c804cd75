"""A 45 sheet read like the paper one, on a phone (390x844) in German: a game won is a line
across the sheet, the next game starts from 0, the winner's cell shows what he scored (not
the reset), and the why dialog breaks the hand down. Screenshots race-sheet-*.png."""

import re

import pytest
from playwright.sync_api import expect

from leagues.models import Role
from tests.browser.conftest import PHONE
from tests.factories import LeagueFactory, PlayerFactory, meeting_for, member

A, B, C = "Aoife", "Brian", "Ciara"


def tap(page, name, value):
    """Tap the chip of a radio (the input itself is hidden under its label)."""
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').first.click()


def enter(page, number, tricks, top):
    for n, party in enumerate(tricks, start=1):
        tap(page, f"trick_{n}", party)
    tap(page, "top_trump_trick", top)
    page.locator("#hand-form button[type=submit]").click()
    page.wait_for_selector(f"#hand-{number}")


def deltas(page, number):
    return page.locator(f"#hand-{number} td .delta").all_inner_texts()


def totals(page, number):
    return [int(t) for t in page.locator(f"#hand-{number} td .total").all_inner_texts()]


@pytest.mark.django_db(transaction=True)
def test_a_45_game_won_on_a_phone_in_german(live_server, browser, login, shot):
    league = LeagueFactory(name="Bruff Forty-Fives", slug="bruff-sheet", game="forty_five", variant="bruff")
    scorekeeper = member(league, Role.SCOREKEEPER, username="aoife", first_name=A)
    for name in (B, C):
        PlayerFactory(league=league, name=name)
    meeting = meeting_for(league, [A, B, C])
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        login(page, scorekeeper)
        page.goto(live_server.url + meeting.get_absolute_url())
        page.wait_for_selector("#hand-form")
        assert page.locator("html").get_attribute("lang") == "de"

        # Hand 1: Aoife four tricks and the top trump (4 × 5 + 5 = 25), Brian 5.
        enter(page, 1, [A, A, A, B, A], "1")
        # Hand 2: Aoife 35, 40, and 45 at trick 3: she wins game 1 (tricks 4 and 5 not counted).
        enter(page, 2, [A, A, A, A, B], "1")
        line = page.locator("#sheet tr.game-end")
        expect(line).to_have_count(1)
        # The German wording comes with the coordinator's merge of the catalogue.
        expect(line).to_have_text(re.compile(r"Aoife (gewinnt Partie|wins game) 1"))
        assert deltas(page, 2) == ["+20", "0", "0"] and totals(page, 2) == [45, 5, 0]
        assert page.locator("#sheet .legend .badge").count() == 0  # no Doppelkopf legend
        shot(page, "race-sheet-1-game-won-de")

        # Hand 3, a new game from 0: Brian three tricks and the top trump 20, Aoife 5, Ciara 5.
        enter(page, 3, [B, B, B, A, C], "2")
        assert deltas(page, 3) == ["+5", "+20", "+5"]  # Aoife's cell: +5, not −40
        assert totals(page, 3) == [5, 20, 5]
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, "race-sheet-2-next-game-de")

        # The why dialog of hand 2: tricks that counted and points per player, the win.
        page.locator("#hand-2 th a").click()
        dialog = page.locator("#why-dialog")
        expect(dialog.locator(".why-parties")).to_be_visible()
        rows = dialog.locator(".why-parties tbody tr")
        expect(rows.nth(0)).to_have_text(re.compile(r"Aoife\s*3\s*20"))
        expect(dialog.locator(".game-end")).to_have_text(re.compile(r"Aoife (gewinnt Partie|wins game) 1"))
        shot(page, "race-sheet-3-why-de")
    finally:
        context.close()
