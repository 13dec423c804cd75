"""Starting an evening of a team game on a phone: each seat's name is whole, its team choice
below it, and the host's badge shows (it was hidden behind the team choice, and "Declan" was
cut to "De…" at 390 px)."""

import pytest

from leagues.models import Role
from tests.factories import LeagueFactory, PlayerFactory, member

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("width", [360, 390])
def test_a_team_games_seats_show_whole_names_and_the_host(live_server, browser, login, width):
    league = LeagueFactory(game="forty_five", variant="bruff")
    admin = member(league, Role.ADMIN, first_name="Declan")
    for name in ("Siobhan", "Mairead", "Hanne"):
        PlayerFactory(league=league, name=name)
    context = browser.new_context(viewport={"width": width, "height": 844}, locale="de-DE")
    page = context.new_page()
    try:
        login(page, admin)
        page.goto(f"{live_server.url}/l/{league.slug}/meetings/new/")
        page.locator("#bench label.chip").first.click()
        names = page.locator("#seats .seat-name")
        assert names.count() >= 2
        assert page.evaluate(
            "Array.from(document.querySelectorAll('#seats .seat-name')).every(e => e.scrollWidth <= e.clientWidth)"
        )
        badge = page.locator("#seats li:first-child .host-badge")
        box, select = badge.bounding_box(), page.locator("#seats li:first-child select.team").bounding_box()
        assert box["width"] > 0
        # Not behind the team choice: the badge lies below it.
        assert box["y"] >= select["y"] + select["height"] - 1
    finally:
        context.close()
