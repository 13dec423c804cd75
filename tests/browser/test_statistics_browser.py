"""The statistics, a player's page and the ratings in Chromium, at phone (390) and desktop
size, with screenshots; the charts draw under the strict CSP without a console error."""

import pytest

from leagues.models import Player
from tests.bench.build import build_league
from tests.browser.conftest import PHONE
from tests.factories import UserFactory


@pytest.mark.django_db(transaction=True)
def test_statistics_and_ratings_look_right(live_server, browser, phone, desktop, login, shot):
    user = UserFactory(username="statskeeper")
    ids = build_league(slug="stats-shots", seasons=2, meetings=4, hands=20, carry=False, user=user, seed=11)
    anna = Player.objects.get(league__slug=ids["slug"], name="Anna")
    pages = {
        "statistics": f"/l/{ids['slug']}/statistics/",
        "statistics-player": f"/l/{ids['slug']}/statistics/player/{anna.pk}/",
        "ratings": f"/l/{ids['slug']}/ratings/",
    }
    for size, page in (("phone", phone), ("desktop", desktop)):
        errors = []
        page.on(
            "console", lambda message, errors=errors: errors.append(message.text) if message.type == "error" else None
        )
        login(page, user)
        for name, url in pages.items():
            page.goto(live_server.url + url)
            page.wait_for_selector("#stats-chart")
            # Chart.js has drawn: the canvas got its size from the box.
            page.wait_for_function("document.getElementById('stats-chart').width > 0")
            assert page.locator(".stats-table tbody tr").count() >= 1
            shot(page, f"{name}-{size}")
        assert errors == []
    phone.goto(live_server.url + pages["statistics-player"])
    assert "Partners" in phone.inner_text("main") or "Partners" in phone.content()
    # The ratings explained in German on a German phone: a solo is one match against the mean
    # of the three.
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    context.set_default_timeout(10_000)
    german = context.new_page()
    try:
        login(german, user)
        german.goto(live_server.url + pages["ratings"])
        german.wait_for_function("document.getElementById('stats-chart').width > 0")
        text = german.inner_text("main")
        assert "Ein Solo, einer gegen drei: ein Spiel des Solisten gegen die drei" in text
        assert "Falsch bedient zählt wie ein verlorenes Solo" in text
        shot(german, "ratings-phone-de")
    finally:
        context.close()
