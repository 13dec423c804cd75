"""Ending an evening asks first, from below the sheet, in German on a phone.

A 45 evening (Bruff, three at the table, no end time) at 390x844: after hand 3, entered on
the phone, "Abend beenden…" is below the sheet, nowhere near the hand form and its save bar;
it leads to "Abend beenden?", where "Zurück zum Blatt" changes nothing, and only "Ja, Abend
beenden" ends the evening (Aoife, who won game 1, wins it). A Doppelkopf evening without an
end time at 360x780: mid-round there is nothing to end; the hand that completes the round
(Dora deals) brings "Abend beenden…" with it (the htmx answer that appends the row sends the
card too), and the end time is set on its own page. Screenshots evening-end-de-*.png."""

import pytest
from django.utils import timezone, translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from leagues.models import Meeting, Role
from leagues.table import meetings, services
from tests.browser.conftest import PHONE
from tests.browser.test_evening_end_browser import tap_hand
from tests.factories import LeagueFactory, PlayerFactory, meeting_for, member

A, B, C = "Aoife", "Brian", "Ciara"
# tests/table/test_race_sheets.py's 45 evening: Aoife 25 and 20 (45: game 1 is hers), then a new game.
FORTY_FIVE = [
    {"tricks": [A, A, A, B, A], "top_trump_trick": 1},
    {"tricks": [A, A, A, A, B], "top_trump_trick": 1},
]
FOUR = ["Anna", "Ben", "Carl", "Dora"]
BEN_DORA = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}


def german(s):
    """The page's German for an English msgid (the catalogue's, so the test follows it)."""
    with translation.override("de"):
        return gettext(s)


def tap(page, name, value):
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').first.click()


def phone(browser, viewport):
    context = browser.new_context(viewport=viewport, locale="de-DE")
    context.set_default_timeout(10_000)
    return context, context.new_page()


def box(locator):
    locator.scroll_into_view_if_needed()
    return locator.bounding_box()


@pytest.mark.django_db(transaction=True)
def test_a_race_evening_ends_only_after_the_question_is_answered(live_server, browser, login, shot):
    league = LeagueFactory(name="Bruff Forty-Fives", game="forty_five", variant="bruff")
    keeper = member(league, Role.SCOREKEEPER, first_name="Seán")
    for name in (A, B, C):
        PlayerFactory(league=league, name=name)
    meeting = meeting_for(league, [A, B, C])
    for payload in FORTY_FIVE:
        services.enter_hand(meeting=meeting, payload=payload, by=keeper)
    context, page = phone(browser, PHONE)
    try:
        login(page, keeper)
        page.goto(f"{live_server.url}{meeting.get_absolute_url()}")
        # Hand 3, a new game: Brian 3 tricks and the top trump 20, Aoife 5, Ciara 5.
        for number, name in enumerate((B, B, B, A, C), start=1):
            tap(page, f"trick_{number}", name)
        tap(page, "top_trump_trick", "2")
        page.locator("#hand-form button[type=submit]").click()
        expect(page.locator("#hand-3")).to_be_visible()

        end = page.locator("#evening-end a[href$='/close/']")
        expect(end).to_have_text(german("End the evening…"))
        # Nothing that ends the evening sits in the panel or the form, or above the sheet.
        expect(page.locator("#at-entry a[href$='/close/'], #at-entry form[action$='/close/']")).to_have_count(0)
        link = box(end)
        assert box(page.locator("#sheet"))["y"] < link["y"]
        form = page.locator("#hand-form").bounding_box()
        assert form["y"] + form["height"] < link["y"], "below the hand form and its save bar"
        shot(page, "evening-end-de-1-race-below-the-sheet")

        end.click()
        expect(page.locator("h1")).to_have_text(german("End the evening?"))
        expect(page.locator(".winner b")).to_have_text(A)  # game 1 is hers
        shot(page, "evening-end-de-2-race-question")
        page.get_by_role("link", name=german("Back to the sheet")).click()
        expect(page.locator("#hand-form")).to_be_visible()
        assert Meeting.objects.get(pk=meeting.pk).closed_at is None

        page.locator("#evening-end a[href$='/close/']").click()
        page.get_by_role("button", name=german("Yes, end the evening")).click()
        expect(page.locator("h2#next-title")).to_have_text(german("The evening is over"))
        expect(page.locator(".evening-over .winner b")).to_have_text(A)
        expect(page.locator("#hand-form")).to_have_count(0)
        expect(page.locator("#evening-end")).to_have_count(0)
        shot(page, "evening-end-de-3-race-ended")
        ended = Meeting.objects.get(pk=meeting.pk)
        assert ended.closed_by == keeper and ended.closed_at is not None
    finally:
        context.close()


@pytest.mark.django_db(transaction=True)
def test_a_doppelkopf_evening_without_an_end_time_ends_at_the_rounds_end(live_server, browser, login, shot):
    league = LeagueFactory(name="Stammtisch Kreuz-Dame", game="doppelkopf", variant="club")
    keeper = member(league, Role.SCOREKEEPER, first_name="Anna")
    players = [league.players.get(name="Anna")] + [PlayerFactory(league=league, name=n) for n in FOUR[1:]]
    meeting = meetings.start_meeting(league=league, date=timezone.localdate(), players=players, user=keeper)
    for _number in range(2):
        services.enter_hand(meeting=meeting, payload=BEN_DORA, by=keeper)
    context, page = phone(browser, {"width": 360, "height": 780})
    try:
        login(page, keeper)
        page.goto(f"{live_server.url}{meeting.get_absolute_url()}")
        card = page.locator("#evening-end")
        expect(card).to_contain_text(german("No end time set."))
        expect(card.locator("a[href$='/close/']")).to_have_count(0)  # mid-round: Carl and Dora still deal
        tap_hand(page, 3, ["Ben", "Dora"], 131)  # Carl deals
        expect(card.locator("a[href$='/close/']")).to_have_count(0)
        tap_hand(page, 4, ["Ben", "Dora"], 131)  # Dora deals the round's last game
        expect(card.locator("a[href$='/close/']")).to_be_visible()
        shot(page, "evening-end-de-4-round-complete")

        # The end time, set while the evening runs: 23:00.
        card.locator("a[href$='/end-time/']").click()
        page.locator("input[name=end_time]").fill("23:00")
        page.get_by_role("button", name=german("Save the end time")).click()
        expect(page.locator("#evening-end")).to_contain_text("23:00")
        assert str(Meeting.objects.get(pk=meeting.pk).end_time) == "23:00:00"
        shot(page, "evening-end-de-5-end-time-set")
    finally:
        context.close()
