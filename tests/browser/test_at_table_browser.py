"""At the table, in German on a phone (390x844, and 360 px for the screenshots): the last
hand undone in one tap from the save bar, the undo undone from the toast that floats at the
foot of the screen for a few seconds, undone again; the screen-on toggle on the sheet
(Chromium has the Screen Wake Lock API); a closed evening's result shared: copied to the
clipboard where the browser has no share sheet (Chromium on Linux), and handed to the share
sheet with a PNG of the table where it has one (stood in for here, to see what it is given).
Screenshots at-table-*.png."""

import pytest
from django.utils import timezone, translation
from django.utils.translation import gettext, pgettext
from playwright.sync_api import expect

from leagues.models import Hand, HandResult, Meeting, Player, Role
from leagues.table import services
from tests.browser.conftest import PHONE, SHOTS
from tests.factories import LeagueFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora"]
# Four at the table, nobody sits out; each hand Re wins with 131 eyes: 1 point each way.
RE_PAIRS = [("Ben", "Dora"), ("Anna", "Carl"), ("Ben", "Dora")]


def german(s, **params):
    """The page's German for an English msgid (the catalogue's, so the test follows it)."""
    with translation.override("de"):
        return gettext(s) % params if params else gettext(s)


def enter(page, number, pair):
    form = page.locator("#hand-form")
    for name in pair:
        form.locator(".dk-party label.chip", has_text=name).click()
    form.locator("input[name=eyes]").fill("131")
    form.locator("button[type=submit]").click()
    expect(page.locator(f"#hand-{number}")).to_be_visible()


def reachable(locator):
    """On the screen and not covered (the sticky save bar, the toast): what a thumb can tap."""
    return locator.evaluate(
        """el => {
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.top < 0 || r.bottom > window.innerHeight) return false;
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return !!hit && (el.contains(hit) || hit.contains(el));
        }"""
    )


def totals(meeting):
    rows = HandResult.objects.filter(meeting=meeting).order_by("number").select_related("player")
    return {r.player.name: r.total for r in rows}


@pytest.fixture
def table(db):
    league = LeagueFactory(name="Stammtisch Herz-Bube", slug="herz-bube", game="doppelkopf", variant="club")
    user = member(league, Role.SCOREKEEPER, username="anna-herz", first_name="Anna")
    for name in NAMES[1:]:
        Player.objects.create(league=league, name=name)
    return meeting_for(league, NAMES), user


def phone(browser, live_server, *, clipboard=True, init_script=None):
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    if clipboard:
        # Granting some permissions refuses the others (Chromium's grantPermissions): the
        # screen-on test asks for none.
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    context.set_default_timeout(10_000)
    if init_script:
        context.add_init_script(init_script)
    return context


@pytest.mark.django_db(transaction=True)
def test_undo_the_last_hand_its_undo_and_undo_again(browser, live_server, login, shot, table):
    meeting, user = table
    context = phone(browser, live_server)
    page = context.new_page()
    try:
        login(page, user)
        page.goto(live_server.url + meeting.get_absolute_url())
        expect(page.locator('[form="undo-last"]')).to_have_count(0)  # nothing entered yet
        for number, pair in enumerate(RE_PAIRS, 1):
            enter(page, number, pair)
        assert totals(meeting) == {"Anna": -1, "Ben": 1, "Carl": -1, "Dora": 1}

        undo = page.locator('#hand-form .sticky-save [form="undo-last"]')
        expect(undo).to_have_text("↶" + german("Undo"))
        expect(undo).to_have_attribute("aria-label", german("Undo hand %(number)s", number=3))
        page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
        assert reachable(undo), "the undo is in the save bar, one tap away"
        shot(page, "at-table-1-undo-390")
        undo.click()

        toast = page.locator(".undo-toast")
        expect(toast).to_contain_text(german("Hand %(number)s undone.", number=3))
        expect(page.locator("#hand-3")).to_have_count(0)
        expect(page.locator("#hand-form h2")).to_contain_text("3")  # the form is for hand 3 again
        assert toast.evaluate("el => getComputedStyle(el).position") == "fixed"
        restore = toast.get_by_role("button", name=german("Bring back"))
        assert reachable(restore), "the toast's button is on the screen and not covered"
        for width in (390, 360):  # the screen as the thumb sees it, toast and save bar
            page.set_viewport_size({"width": width, "height": 844})
            page.screenshot(path=str(SHOTS / f"at-table-2-undone-{width}.png"))
        page.set_viewport_size(PHONE)
        hand = Hand.objects.get(meeting=meeting, position=3)
        assert hand.deleted_at is not None and totals(meeting) == {"Anna": 0, "Ben": 0, "Carl": 0, "Dora": 0}

        restore.click()
        expect(page.locator("#hand-3")).to_be_visible()
        expect(page.locator(".undo-toast")).to_have_count(0)
        hand.refresh_from_db()
        assert hand.deleted_at is None and hand.number == 3 and hand.version == 3
        assert totals(meeting) == {"Anna": -1, "Ben": 1, "Carl": -1, "Dora": 1}

        page.locator('#hand-form .sticky-save [form="undo-last"]').click()
        expect(page.locator("#hand-3")).to_have_count(0)
        # The toast goes after a few seconds; the hand stays among the deleted ones.
        expect(page.locator(".undo-toast")).to_be_hidden(timeout=15_000)
        expect(page.locator(".deleted-hands summary")).to_be_visible()
        hand.refresh_from_db()
        assert hand.deleted_at is not None and hand.version == 4
        assert list(hand.history.order_by("history_id").values_list("number", flat=True)) == [3, None, 3, None]
    finally:
        context.close()


@pytest.mark.django_db(transaction=True)
def test_the_screen_on_toggle_is_on_the_sheet_in_chromium(browser, live_server, login, shot, table):
    meeting, user = table
    context = phone(browser, live_server, clipboard=False)
    page = context.new_page()
    try:
        login(page, user)
        page.goto(live_server.url + meeting.get_absolute_url())
        assert page.evaluate("'wakeLock' in navigator")
        toggle = page.locator("#sheet [data-wake-lock]")
        expect(toggle).to_be_visible()
        expect(toggle).to_have_text(german("Keep the screen on"))
        expect(toggle).to_have_attribute("aria-pressed", "false")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")  # the browser granted the lock
        shot(page, "at-table-3-screen-on-390")
        page.reload()  # the phone remembers: taken again on the next page
        expect(page.locator("#sheet [data-wake-lock]")).to_have_attribute("aria-pressed", "true")
        page.locator("#sheet [data-wake-lock]").click()
        expect(page.locator("#sheet [data-wake-lock]")).to_have_attribute("aria-pressed", "false")
    finally:
        context.close()


def _closed(meeting, user):
    for payload in ({"kind": "normal", "re": list(pair), "re_eyes": 131} for pair in RE_PAIRS):
        services.enter_hand(meeting=meeting, payload=payload, by=user)
    Meeting.objects.filter(pk=meeting.pk).update(closed_at=timezone.now(), closed_by=user)


# No share sheet: Chromium on Linux has none; taken away to be sure.
NO_SHARE = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"
# A share sheet that keeps what it was given (files as name, type and size).
SHARE_SHEET = """
Navigator.prototype.canShare = function (data) { return true; };
Navigator.prototype.share = function (data) {
  window.shared = {title: data.title, text: data.text, url: data.url || null,
                   files: (data.files || []).map(function (f) { return [f.name, f.type, f.size]; })};
  return Promise.resolve();
};
"""


@pytest.mark.django_db(transaction=True)
def test_a_closed_evening_is_copied_where_there_is_no_share_sheet(browser, live_server, login, shot, table):
    meeting, user = table
    _closed(meeting, user)
    context = phone(browser, live_server, init_script=NO_SHARE)
    page = context.new_page()
    try:
        login(page, user)
        page.goto(live_server.url + meeting.get_absolute_url())
        button = page.locator(".evening-over button[data-share]")
        with translation.override("de"):
            expect(button).to_have_text(pgettext("to share a result", "Share"))
        expect(page.locator("[data-wake-lock]")).to_have_count(0)  # the evening is over
        button.click()
        note = page.locator("[data-share-note]")
        expect(note).to_have_text(german("Copied: the text and the link, ready to paste into a chat."))
        copied = page.evaluate("navigator.clipboard.readText()")
        lines = copied.splitlines()
        assert lines[0] == "Stammtisch Herz-Bube · 20. November 2026"
        assert lines[1] == german("Tonight's winner: %(name)s", name="Ben")
        assert lines[2:6] == ["1. Ben +1", "1. Dora +1", "3. Anna −1", "3. Carl −1"]
        assert lines[-1] == live_server.url + meeting.get_absolute_url()
        shot(page, "at-table-4-copied-390")
    finally:
        context.close()


@pytest.mark.django_db(transaction=True)
def test_a_share_sheet_gets_the_text_the_link_and_a_png_of_the_table(browser, live_server, login, table):
    meeting, user = table
    _closed(meeting, user)
    context = phone(browser, live_server, init_script=SHARE_SHEET)
    page = context.new_page()
    try:
        login(page, user)
        page.goto(live_server.url + meeting.get_absolute_url())
        page.wait_for_timeout(300)  # the picture is drawn once the page is shown
        page.locator(".evening-over button[data-share]").click()
        page.wait_for_function("window.shared !== undefined")
        shared = page.evaluate("window.shared")
        assert shared["title"] == "Stammtisch Herz-Bube · 20. November 2026"
        assert shared["text"].splitlines()[2] == "1. Ben +1"
        assert shared["text"].endswith(live_server.url + meeting.get_absolute_url())  # the link in the text
        [(name, kind, size)] = shared["files"]
        assert name == "kartenliga-herz-bube-2026-11-20.png" and kind == "image/png" and size > 1000
        expect(page.locator("[data-share-note]")).to_have_text("")  # nothing to say: shared
    finally:
        context.close()
