"""The statistics on a 360 px phone, in German: every table fits its card (no column off
screen), and the page says what its short column heads and "a / b" figures mean."""

import pytest

from leagues.models import Player
from tests.browser.a11y_club import build_club
from tests.factories import PASSWORD

NARROW = {"width": 360, "height": 780}

WIDTHS = """() => Array.from(document.querySelectorAll("table.stats-table")).map(table => ({
  head: table.closest("section").querySelector("h2, h3") ? table.closest("section").querySelector("h2, h3").textContent.trim() : "",
  table: Math.ceil(table.getBoundingClientRect().width),
  box: Math.floor(table.parentElement.clientWidth),
}))"""


def statistics_pages(club):
    league = club["league"]
    hanne = Player.objects.get(league=league, user=club["user"])
    pages = [
        f"/l/{league.slug}/statistics/",
        f"/l/{league.slug}/statistics/?season=1",
        f"/l/{league.slug}/statistics/player/{hanne.pk}/",
        f"/l/{league.slug}/ratings/",
    ]
    for race, _meeting in club["races"].values():
        first = race.players.order_by("pk").first()
        pages += [f"/l/{race.slug}/statistics/", f"/l/{race.slug}/statistics/player/{first.pk}/"]
    return pages


@pytest.mark.django_db(transaction=True)
def test_every_statistics_table_fits_a_360_px_phone(live_server, browser, shot):
    club = build_club()
    context = browser.new_context(viewport=NARROW, locale="de-DE")
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", club["user"].username)
        page.fill("input[name=password]", PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_url(f"{live_server.url}/")
        too_wide = []
        for path in statistics_pages(club):
            page.goto(live_server.url + path)
            tables = page.evaluate(WIDTHS)
            assert tables or "/player/" in path, path
            too_wide += [
                f"{path} “{t['head']}”: {t['table']} px in {t['box']} px" for t in tables if t["table"] > t["box"]
            ]
            assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"], path
            if path.endswith("/statistics/") and "kreuz-dame" in path:
                shot(page, "statistics-360-de")
        assert not too_wide, "\n".join(too_wide)

        # What the short heads and the figures "a / b" stand for, said on the page itself.
        page.goto(f"{live_server.url}/l/{club['league'].slug}/statistics/")
        legend = page.inner_text("main")
        assert "Verschenkt: gewonnen mit einem Vorsprung, den eine nicht gesagte Ansage gebracht hätte" in legend
        assert "Sonderpunkte: gemacht / abgegeben" in legend
        assert "Soli: gespielt / gewonnen" in legend
    finally:
        context.close()
