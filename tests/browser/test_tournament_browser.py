"""A tournament in Chromium: a scorekeeper sets it up, registers twelve players and draws the
first round on a phone; the big screen shows the round's tables and follows a hand within a
poll; the result list prints on A4 without navigation. Screenshots:
test-artifacts/screenshots/tournament-*.png, and the print as a PDF (tournament-print.pdf)."""

import pytest

from leagues.models import Player, Role, Tournament
from leagues.table import services as table_services
from tests.browser.conftest import SHOTS
from tests.factories import LeagueFactory, member

pytestmark = pytest.mark.slow

NAMES = ["Anna", "Ben", "Carla", "Dirk", "Emma", "Frank", "Gina", "Hugo", "Ines", "Jana", "Karl", "Lena"]


def play(table, numbers):
    """The table's games ``numbers`` (of 0 to 3): the first seat and another as Re, Re winning."""
    seats = [seat.player.name for seat in table.seats.order_by("position")]
    for number in numbers:
        re = [seats[0], seats[1 + number % 3]]
        payload = {"kind": "points", "re": re, "winner": "re", "value": 1 + number}
        table_services.enter_hand(meeting=table, payload=payload, by=None)


@pytest.mark.django_db(transaction=True)
def test_a_tournament_is_set_up_drawn_shown_and_printed(live_server, phone, desktop, login, shot):
    league = LeagueFactory(name="Doko-Freunde", game="doppelkopf", variant="ddv")
    for name in NAMES:
        Player.objects.create(league=league, name=name)
    keeper = member(league, Role.SCOREKEEPER, first_name="Kai")
    errors = []
    for page in (phone, desktop):
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)

    login(phone, keeper)
    phone.goto(f"{live_server.url}/l/{league.slug}/")
    phone.click("text=Tournaments")
    phone.click("text=New tournament")
    phone.fill("input[name=name]", "Herbstpokal")
    phone.fill("input[name=rounds_planned]", "2")
    phone.fill("input[name=games_per_player]", "4")
    shot(phone, "tournament-new")
    phone.click("button:has-text('Set up the tournament')")
    for name in NAMES:
        phone.click(f"#entrants label.chip:has-text('{name}')")
    phone.click("button:has-text('Save who plays')")
    assert "12 players registered." in phone.inner_text("#entrants")
    phone.select_option("select[name=draw-host]", label="Anna")
    phone.click("button:has-text('Draw the tables')")
    assert "Round 1 is drawn." in phone.inner_text(".messages")
    assert phone.locator("#current .tournament-table").count() == 3
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "tournament-round-drawn")

    tournament = Tournament.objects.get(name="Herbstpokal")
    night = tournament.rounds.get(round_number=1)
    login(desktop, keeper)
    desktop.goto(f"{live_server.url}/l/{league.slug}/t/{tournament.pk}/live/")
    assert desktop.locator(".tournament-table").count() == 3
    first = night.tables.get(table_number=1)
    play(first, [0])
    # The next poll (every 3 s) draws the hand.
    desktop.wait_for_selector("text=1 of 4 games played", timeout=8_000)
    shot(desktop, "tournament-live")

    play(first, [1, 2, 3])
    for table in night.tables.exclude(pk=first.pk):
        play(table, range(4))
    phone.goto(f"{live_server.url}/l/{league.slug}/t/{tournament.pk}/")
    assert "Ranking after round 1" in phone.inner_text("#ranking")
    assert phone.locator("#ranking tbody tr").count() == 12
    shot(phone, "tournament-ranking")

    desktop.goto(f"{live_server.url}/l/{league.slug}/t/{tournament.pk}/results/")
    desktop.emulate_media(media="print")
    assert not desktop.is_visible(".topbar")
    assert not desktop.is_visible(".report-nav")
    assert desktop.is_visible(".tournament-ranking")
    shot(desktop, "tournament-print")
    SHOTS.mkdir(parents=True, exist_ok=True)
    desktop.pdf(path=str(SHOTS / "tournament-print.pdf"), format="A4", prefer_css_page_size=True)
    assert (SHOTS / "tournament-print.pdf").stat().st_size > 10_000
    assert not errors
