"""Starting a 45 evening on a phone with a game carried over from last time: the score lines
follow the seats as they are tapped and reordered, and the meeting starts from them."""

import pytest
from playwright.sync_api import expect

from leagues.models import Meeting, Role
from tests.factories import LeagueFactory, PlayerFactory, member


@pytest.mark.django_db(transaction=True)
def test_a_45_evening_goes_on_from_last_weeks_scores(live_server, phone, login, shot):
    league = LeagueFactory(name="Bruff 45s", game="forty_five", variant="bruff")
    user = member(league, Role.SCOREKEEPER, first_name="Anna")
    for name in ["Ben", "Carl", "Dora", "Emil"]:
        PlayerFactory(league=league, name=name)
    login(phone, user)
    phone.goto(f"{live_server.url}/l/{league.slug}/meetings/new/")
    for name in ["Ben", "Carl", "Dora"]:
        phone.locator("#bench label.chip", has_text=name).click()
    phone.locator("details.carry summary").click()
    lines = phone.locator("#carry-players .carry-row:visible span")
    expect(lines).to_have_text(["Anna", "Ben", "Carl", "Dora"])  # Emil is not at the table
    phone.locator("#seats li", has_text="Dora").locator("button[data-move=up]").click()
    expect(lines).to_have_text(["Anna", "Ben", "Dora", "Carl"])
    phone.locator("#carry-players .carry-row", has_text="Ben").locator("input").fill("20")
    phone.locator("#carry-players .carry-row", has_text="Dora").locator("input").fill("35")
    phone.evaluate("window.scrollTo(0, 0)")
    shot(phone, "start-totals-phone")
    phone.locator("button[type=submit]", has_text="Start the meeting").click()
    expect(phone.locator("h2#next-title")).to_have_text("Next: hand 1")
    assert Meeting.objects.get(league=league).start_totals == {"Ben": 20, "Dora": 35}
    expect(phone.locator(".hn-race tr", has_text="Dora")).to_contain_text("35")
    shot(phone, "start-totals-meeting-phone")
