"""Standings, the public link and the bill in Chromium, at phone and desktop size."""

import datetime
import random

import pytest

from leagues.models import Role
from tests.factories import LeagueFactory, member
from tests.stats.test_standings_queries import FIVE, played


def season(league, meetings=5, hands=24, seed=7):
    """A season of plausible Doppelkopf results (built directly as HandResult rows)."""
    rng = random.Random(seed)
    for i in range(meetings):
        seats = FIVE[i % 5 :] + FIVE[: i % 5]
        deals = []
        for h in range(hands):
            active = [n for n in seats if n != seats[h % 5]]
            value = rng.choice([1, 1, 2, 2, 3, 4, 5, 6])
            if rng.random() < 0.15:
                soloist = rng.choice(active)
                sign = rng.choice([1, -1])
                deal = {n: (3 * sign * value if n == soloist else -sign * value) for n in active}
                deal["solo"] = soloist
            else:
                rng.shuffle(active)
                deal = {n: (value if k < 2 else -value) for k, n in enumerate(active)}
            deals.append(deal)
        played(
            league, datetime.date(2026, 1, 9) + datetime.timedelta(weeks=3 * i), seats, deals, closed=i == meetings - 1
        )


@pytest.mark.django_db(transaction=True)
def test_standings_and_bill_look_right(live_server, phone, desktop, login, shot):
    league = LeagueFactory(name="Stammtisch Kreuz-Dame", public_token="p" * 32)
    season(league)
    admin = member(league, Role.ADMIN)

    login(phone, admin)
    phone.goto(f"{live_server.url}/l/{league.slug}/standings/")
    phone.wait_for_selector("#season-chart")
    assert phone.locator(".standings-table tbody tr").count() >= 5
    shot(phone, "standings-phone")

    login(desktop, admin)
    desktop.goto(f"{live_server.url}/l/{league.slug}/standings/")
    desktop.wait_for_selector("#season-chart")
    shot(desktop, "standings-desktop")

    phone.click("text=Split the bill")
    phone.fill("input[name=total]", "187.40")
    phone.fill("input[name=tip_percent]", "10")
    phone.select_option("select[name=paid_by]", label="Anna")
    phone.click(".bill-form button[type=submit]")
    phone.wait_for_selector(".bill-result")
    assert "206.14" in phone.inner_text(".bill-result")
    shot(phone, "bill-result-phone")
    phone.emulate_media(media="print")
    shot(phone, "bill-print-phone")

    phone.emulate_media(media="screen")
    # Below the split shown, its inputs again to change (the save card carries them hidden).
    phone.fill(".bill-form input[name=total]", "-5")
    phone.click(".bill-form button[type=submit]")
    shot(phone, "bill-error-phone")

    anonymous = desktop.context.browser.new_page(viewport={"width": 390, "height": 844})
    anonymous.goto(f"{live_server.url}/p/{'p' * 32}/")
    shot(anonymous, "public-standings-phone")
    anonymous.click(".meetings-table a >> nth=0")
    anonymous.wait_for_selector(".sheet-readonly")
    shot(anonymous, "public-sheet-phone")
    anonymous.close()
