"""A guest keeps score at one table (leagues/table/views/guest.py, join.py) in a browser at
390 px: the scorekeeper opens the table's page from the sheet, makes a scorer link for Jonas
and sees its code; Jonas, without an account, opens the link on his own phone and enters two
hands (htmx, no reload), undoes the second with a tap and brings it back from the toast;
the history names him; withdrawn, the link shows its refusal. Screenshots guest-*.png."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from leagues.models import Hand, Player, Role, ScorerLink
from leagues.table import scorer_links
from tests.browser.conftest import PHONE
from tests.browser.doppelkopf_steps import enter_hand
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.slow

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]


@pytest.fixture
def table(db):
    league = LeagueFactory(name="Stammtisch Gast", slug="gast", game="doppelkopf", variant="club")
    keeper = member(league, Role.SCOREKEEPER, username="anna-gast", first_name="Anna")
    for name in NAMES[1:]:
        Player.objects.get_or_create(league=league, name=name)
    return meeting_for(league, NAMES, date=timezone.localdate()), keeper


def fits_the_phone(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"


@pytest.mark.django_db(transaction=True)
def test_a_guest_keeps_score_by_the_link_a_scorekeeper_made(browser, phone, live_server, login, shot, table):
    meeting, keeper = table
    login(phone, keeper)
    phone.goto(live_server.url + meeting.get_absolute_url())
    fits_the_phone(phone)
    shot(phone, "guest-0-sheet")
    phone.get_by_role("link", name="Join this table by scanning its QR code").click()
    expect(phone.locator("h1")).to_have_text("Join this table")
    expect(phone.locator(".scan-card svg.scan-qr")).to_be_visible()
    fits_the_phone(phone)
    phone.fill("input[name=name]", "Jonas")
    phone.get_by_role("button", name="Make a scorer link").click()
    expect(phone.locator(".copy-box svg.scan-qr")).to_be_visible()
    address = phone.locator("#shown-link").input_value()
    fits_the_phone(phone)
    shot(phone, "guest-1-link-made")

    guest_context = browser.new_context(viewport=PHONE, locale="en-GB")
    guest_context.set_default_timeout(10_000)
    try:
        guest = guest_context.new_page()
        guest.goto(address)
        expect(guest.locator(".meeting-meta")).to_contain_text("You keep score as a guest: Jonas.")
        fits_the_phone(guest)
        enter_hand(guest, 1, ("Ben", "Dora"), 131)
        enter_hand(guest, 2, ("Carl", "Emil"), 131)
        expect(guest.locator("#sheet #hand-2")).to_be_visible()
        assert guest.locator("a[href^='/l/']").count() == 0
        shot(guest, "guest-2-two-hands")

        # His last hand, undone in one tap from the save bar, and back from the toast.
        guest.locator('#hand-form .sticky-save [form="undo-last"]').click()
        toast = guest.locator(".undo-toast")
        expect(toast).to_contain_text("Hand 2 undone.")
        expect(guest.locator("#hand-2")).to_have_count(0)
        fits_the_phone(guest)
        shot(guest, "guest-2a-undone")
        second = Hand.objects.get(meeting=meeting, position=2)
        assert second.deleted_at is not None and second.version == 2
        toast.get_by_role("button", name="Bring back").click()
        expect(guest.locator("#sheet #hand-2")).to_be_visible()
        second.refresh_from_db()
        assert second.deleted_at is None and second.number == 2 and second.version == 3

        phone.goto(f"{live_server.url}/l/{meeting.league.slug}/m/{meeting.pk}/history/")
        expect(phone.locator(".history").first).to_contain_text("by Guest: Jonas")
        # Hands 1 and 2 entered, hand 2 deleted and restored: each by him.
        expect(phone.locator(".history > li")).to_have_count(4)
        expect(phone.locator(".history > li", has_text="by Guest: Jonas")).to_have_count(4)
        shot(phone, "guest-3-history")

        phone.goto(f"{live_server.url}/l/{meeting.league.slug}/m/{meeting.pk}/join/")
        phone.get_by_role("button", name="Withdraw").click()
        expect(phone.locator(".scorer-links")).to_contain_text("withdrawn by Anna")
        link = ScorerLink.objects.get()
        assert link.revoked_at is not None and scorer_links.link_state(link) == scorer_links.REVOKED

        guest.reload()
        expect(guest.locator("h1")).to_have_text("Scorer link not usable")
        expect(guest.locator("[role=alert]")).to_contain_text("withdrawn this scorer link")
        shot(guest, "guest-4-withdrawn")
    finally:
        guest_context.close()
