"""The season report in Chromium: at phone and desktop size, and as it prints
(print media emulated): no navigation, the chart drawn, nothing wider than the page.
Screenshots: test-artifacts/screenshots/season-report-*.png, and the print as a PDF beside
them (season-report-print.pdf), the browser's own "save as PDF"."""

import pytest

from leagues.models import Player, Role
from leagues.seasons import services as seasons_services
from leagues.table import meetings
from leagues.table import services as table_services
from tests.browser.conftest import SHOTS
from tests.factories import LeagueFactory, member
from tests.seasons.test_season_report import BILL, build_season


@pytest.mark.django_db(transaction=True)
def test_the_season_report_reads_on_a_phone_a_desktop_and_on_paper(live_server, phone, desktop, login, shot):
    league = LeagueFactory(name="Stammtisch Kreuz-Dame", game="doppelkopf", variant="club", public_token="r" * 32)
    keeper = member(league, Role.SCOREKEEPER)
    reader = member(league, Role.MEMBER)
    Player.objects.filter(league=league, user__isnull=False).update(active=False)
    season = build_season(league, keeper)  # no test transaction here: each evening commits
    season.refresh_from_db()
    seasons_services.settle_bill(season=season, bill=BILL, user=keeper)
    errors = []
    for page in (phone, desktop):
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)

    login(phone, reader)
    phone.goto(f"{live_server.url}/l/{league.slug}/standings/")
    phone.click("text=Season report (to print)")
    phone.wait_for_selector(".report-chart svg polyline")
    assert phone.locator(".report-chart polyline").count() == 4
    assert "1.\tDora\t+21" in phone.inner_text(".report-standings")
    assert "Dora → Anna" in phone.inner_text(".report-bill")
    # Nothing wider than the phone's screen.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "season-report-phone")

    login(desktop, reader)
    desktop.goto(f"{live_server.url}/l/{league.slug}/seasons/1/report/")
    desktop.wait_for_selector(".report-chart svg polyline")
    shot(desktop, "season-report-desktop")

    # On paper: the site's bar, the footer and the report's own links are left out.
    desktop.emulate_media(media="print")
    assert not desktop.is_visible(".topbar")
    assert not desktop.is_visible(".report-nav")
    assert desktop.is_visible(".report-chart svg")
    assert desktop.is_visible(".report-bill")
    shot(desktop, "season-report-print")
    SHOTS.mkdir(parents=True, exist_ok=True)
    desktop.pdf(path=str(SHOTS / "season-report-print.pdf"), format="A4", prefer_css_page_size=True)
    assert (SHOTS / "season-report-print.pdf").stat().st_size > 10_000

    # The public link's report: the same season without the bill.
    phone.goto(f"{live_server.url}/p/{league.public_token}/seasons/1/report/")
    phone.wait_for_selector(".report-chart svg polyline")
    assert phone.locator(".report-bill").count() == 0
    shot(phone, "season-report-public-phone")
    assert errors == []


@pytest.mark.django_db(transaction=True)
def test_the_activity_page_reads_on_a_phone(live_server, phone, login, shot):
    league = LeagueFactory(name="Stammtisch Kreuz-Dame", game="doppelkopf", variant="club")
    keeper = member(league, Role.SCOREKEEPER)
    admin = member(league, Role.ADMIN)
    Player.objects.filter(league=league, user__isnull=False).update(active=False)
    season = build_season(league, keeper)
    season.refresh_from_db()
    seasons_services.settle_bill(season=season, bill=BILL, user=keeper)
    seasons_services.reopen_season(season=season, user=admin, reason="Hand 2 on 13 Feb was Kontra's")
    second = season.meetings.order_by("date")[1]
    meetings.reopen_meeting(meeting=second, user=admin, reason="Re was Anna and Carl")
    hand = second.hands.get(number=2)
    table_services.change_hand(
        hand=hand, payload={"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 131}, by=keeper, version=hand.version
    )

    login(phone, admin)
    phone.goto(f"{live_server.url}/l/{league.slug}/")
    phone.click("text=Who changed what")
    phone.wait_for_selector(".activity-late")
    late = phone.inner_text(".activity-late")
    assert "Hand 2" in late and "after the evening was closed" in late
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "activity-phone")
