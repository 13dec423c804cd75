"""The statistics, a player's page and the ratings in Chromium, at phone (390) and desktop
size, with screenshots; the charts draw under the strict CSP without a console error."""

import pytest

from leagues.models import Player
from tests.bench.league import build_league
from tests.factories import UserFactory


@pytest.mark.django_db(transaction=True)
def test_statistics_and_ratings_look_right(live_server, phone, desktop, login, shot):
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
