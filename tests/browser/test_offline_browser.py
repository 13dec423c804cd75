"""Issue 13 in Chromium: hands entered without signal wait in the browser's outbox, survive a
reload and an update of the service worker, and reach the server once each, in order; a hand
whose number another phone took meanwhile is kept or discarded as the scorekeeper chooses.
The offline phone is Playwright's context.set_offline(True); the service worker runs because
the live server on http://localhost is a secure context."""

import time

import pytest
from playwright.sync_api import expect

from leagues import services
from leagues.models import Hand, Player, Role
from tests.browser.conftest import PHONE
from tests.browser.doppelkopf_steps import enter_hand
from tests.factories import LeagueFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora"]


def _league(slug):
    league = LeagueFactory(name=f"Keller {slug}", slug=slug, game="doppelkopf", variant="club")
    anna = member(league, Role.SCOREKEEPER, username=f"anna-{slug}", first_name="Anna")
    ben = member(league, Role.SCOREKEEPER, username=f"ben-{slug}", first_name="Ben")
    for name in NAMES[2:]:
        Player.objects.get_or_create(league=league, name=name)
    return league, anna, ben, meeting_for(league, NAMES)


def _phone(browser):
    context = browser.new_context(viewport=PHONE, locale="en-GB")
    context.set_default_timeout(15_000)
    return context, context.new_page()


def _until(page, script, arg=None, seconds=30):
    """Poll ``script`` in the page until it is true (wait_for_function evaluates a string,
    which the Content-Security-Policy forbids); False when it never was."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(script, arg):
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(200)
    return True


def _controlled(page, url):
    """Open ``url`` once the service worker controls the page, so that it keeps it. A worker
    whose install failed (a file it keeps did not load) is registered again by the next page
    load, as on a phone."""
    page.goto(url)
    for _attempt in range(3):
        if _until(page, "() => navigator.serviceWorker.controller !== null", seconds=10):
            break
        page.reload()
    else:
        raise AssertionError("the service worker never took control of the page")
    page.reload()
    expect(page.locator("[data-outbox-status]")).to_have_attribute("data-outbox-status", "online")


def _waiting(page, count):
    expect(page.locator("tr.outbox-row")).to_have_count(count)
    if count:
        expect(page.locator("[data-outbox-count]")).to_have_attribute("data-outbox-count", str(count))


def _re_eyes(meeting):
    return [
        (h.payload["re"], h.payload["re_eyes"])
        for h in Hand.objects.filter(meeting=meeting).live().order_by("position")
    ]


# Six games as the offline phone enters them: (Re, Re's eyes), each told apart by its eyes.
OFFLINE = [
    (["Anna", "Ben"], 130),
    (["Anna", "Carl"], 150),
    (["Ben", "Dora"], 100),
    (["Carl", "Dora"], 170),
    (["Anna", "Dora"], 125),
    (["Ben", "Carl"], 95),
]


@pytest.mark.django_db(transaction=True)
def test_six_hands_offline_and_two_online_end_once_each_as_chosen(browser, live_server, login, shot):
    league, anna, ben, meeting = _league("sixtwo")
    url = live_server.url + meeting.get_absolute_url()
    one, phone = _phone(browser)
    two, other = _phone(browser)
    try:
        login(phone, anna)
        _controlled(phone, url)
        one.set_offline(True)
        expect(phone.locator("[data-outbox-status]")).to_have_attribute("data-outbox-status", "offline")
        for number, (re, eyes) in enumerate(OFFLINE, start=1):
            enter_hand(phone, number, re, eyes)
        _waiting(phone, 6)
        expect(phone.locator("#next-title")).to_have_text("Next: hand 7")
        expect(phone.locator("#sheet").get_by_text("No hands yet")).to_be_hidden()
        expect(phone.locator("tr.outbox-row .badge.pending").first).to_have_text("not yet sent")
        expect(phone.locator("tr.outbox-row").first).to_contain_text("figures after sync")
        # What needs the server is not offered: a form that posts (logging out), a page this
        # phone never kept (the evening's history); the sheet's own page and its form are.
        expect(phone.locator("form[action$='/logout/'] button")).to_be_disabled()
        expect(phone.locator(".meeting-nav a[href$='/history/']")).to_have_class("offline-unavailable")
        expect(phone.locator("#hand-form button[type=submit]")).to_be_enabled()
        shot(phone, "offline-outbox-390")
        assert Hand.objects.filter(meeting=meeting).count() == 0

        # Meanwhile the second phone, online: the first offline game again (the same hand seen
        # from the other end of the table), then a game of its own.
        login(other, ben)
        other.goto(url)
        enter_hand(other, 1, ["Anna", "Ben"], 130)
        enter_hand(other, 2, ["Ben", "Carl"], 140)

        one.set_offline(False)
        choice = phone.locator("[data-outbox-choice]")
        expect(choice).to_contain_text("another phone entered hand 1")
        shot(phone, "offline-conflict-390")
        choice.locator("button[data-outbox-discard]").click()  # the same game as theirs
        expect(choice).to_contain_text("another phone entered hand 2")
        choice.locator("button[data-outbox-keep]").click()  # a game of its own: after theirs
        _waiting(phone, 0)
        expect(phone.locator("[data-outbox-choice]")).to_have_count(0)
        expect(phone.locator("#hand-form h2")).to_have_text("Enter hand 8")
        expect(phone.locator("#hand-7")).to_have_count(1)
    finally:
        one.close()
        two.close()

    # Every hand once: the other phone's two, then the offline ones but the discarded first.
    assert _re_eyes(meeting) == [(["Anna", "Ben"], 130), (["Ben", "Carl"], 140)] + OFFLINE[1:]
    hands = list(Hand.objects.filter(meeting=meeting).order_by("position"))
    assert [h.number for h in hands] == [1, 2, 3, 4, 5, 6, 7]
    assert [h.entered_by for h in hands] == [ben, ben, anna, anna, anna, anna, anna]
    assert len({h.idempotency_key for h in hands}) == 7
    # The kept hand went in by the normal save: its history says who entered it as hand 3.
    kept = hands[2].history.all()
    assert [(r.history_type, r.history_user) for r in kept] == [("+", anna)]
    checked, problems = services.verify_replays(league=league)
    assert checked == 1 and problems == []


@pytest.mark.django_db(transaction=True)
def test_three_waiting_hands_survive_a_reload_offline(browser, live_server, login):
    league, anna, _ben, meeting = _league("reload")
    url = live_server.url + meeting.get_absolute_url()
    context, page = _phone(browser)
    try:
        login(page, anna)
        _controlled(page, url)
        enter_hand(page, 1, ["Ben", "Carl"], 140)  # online: the kept copy of the page follows
        page.wait_for_timeout(1000)
        context.set_offline(True)
        for number, (re, eyes) in enumerate(OFFLINE[:3], start=2):
            enter_hand(page, number, re, eyes)
        _waiting(page, 3)

        page.reload()  # the page from the service worker's cache, the hands from IndexedDB
        _waiting(page, 3)
        expect(page.locator("#hand-1")).to_have_count(1)
        expect(page.locator("#hand-form h2")).to_have_text("Enter hand 5")
        assert Hand.objects.filter(meeting=meeting).count() == 1

        context.set_offline(False)
        _waiting(page, 0)
        expect(page.locator("#hand-4")).to_have_count(1)
        expect(page.locator("[data-outbox-choice]")).to_have_count(0)
    finally:
        context.close()
    assert [eyes for _re, eyes in _re_eyes(meeting)] == [140, 130, 150, 100]
    assert services.verify_replays(league=league)[1] == []


@pytest.mark.django_db(transaction=True)
def test_waiting_hands_are_sent_after_the_service_worker_was_updated(browser, live_server, login, settings):
    league, anna, _ben, meeting = _league("update")
    url = live_server.url + meeting.get_absolute_url()
    context, page = _phone(browser)
    try:
        login(page, anna)
        _controlled(page, url)
        old = page.evaluate("caches.keys()")
        context.set_offline(True)
        for number, (re, eyes) in enumerate(OFFLINE[:2], start=1):
            enter_hand(page, number, re, eyes)
        _waiting(page, 2)
        page.goto(live_server.url + "/offline/")  # away from the meeting: nothing sends them yet

        # A new version of the worker is published; the phone gets it back online.
        settings.KARTENLIGA_SW_REVISION = "update-test"
        context.set_offline(False)
        page.goto(live_server.url + "/offline/")
        page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        # The new version's files in, the old version's gone: the update is done.
        assert _until(
            page,
            "(old) => caches.keys().then((keys) => keys.some((k) => k.startsWith('kartenliga-shell-') && !old.includes(k))"
            " && !keys.some((k) => old.includes(k) && k.startsWith('kartenliga-shell-')))",
            old,
        )
        assert Hand.objects.filter(meeting=meeting).count() == 0

        page.goto(url)  # the meeting again: the outbox sends what waited through the update
        _waiting(page, 0)
        expect(page.locator("#hand-2")).to_have_count(1)
    finally:
        context.close()
    assert [eyes for _re, eyes in _re_eyes(meeting)] == [130, 150]
    assert services.verify_replays(league=league)[1] == []


@pytest.mark.django_db(transaction=True)
def test_a_hand_the_server_refuses_waits_with_its_reason_and_goes_back_into_the_form(browser, live_server, login):
    # Five at the table: the dealer sits out (doppelkopf.md), and offline the form cannot know
    # who deals the second hand, so it still offers him.
    league, anna, _ben, meeting = _league("refused")
    Player.objects.get_or_create(league=league, name="Eva")
    meeting.delete()
    meeting = meeting_for(league, NAMES + ["Eva"])
    first = services.calculate_meeting(meeting, payloads=[])["next"]
    playing = first["active"]
    hand_one = {"kind": "normal", "re": playing[:2], "re_eyes": 130}
    second = services.calculate_meeting(meeting, payloads=[hand_one])["next"]
    out_next = second["dealer"]
    assert out_next not in second["active"] and out_next in playing
    partner = next(name for name in playing if name != out_next)
    url = live_server.url + meeting.get_absolute_url()
    context, page = _phone(browser)
    try:
        login(page, anna)
        _controlled(page, url)
        context.set_offline(True)
        enter_hand(page, 1, playing[:2], 130)
        enter_hand(page, 2, sorted([out_next, partner], key=(NAMES + ["Eva"]).index), 150)
        _waiting(page, 2)

        context.set_offline(False)
        choice = page.locator("[data-outbox-choice]")
        expect(choice).to_contain_text("Your hand 2 was not accepted")
        _waiting(page, 1)
        expect(page.locator("#hand-1")).to_have_count(1)
        choice.locator("button[data-outbox-edit]").click()
        _waiting(page, 0)
        form = page.locator("#hand-form")
        expect(form.locator("h2")).to_have_text("Enter hand 2")
        expect(form.locator(f'input[name=re][value="{partner}"]')).to_be_checked()
        expect(form.locator("input[name=eyes]")).to_have_value("150")
        # Put right by hand: the second Re player is one who plays this hand.
        other = next(name for name in second["active"] if name != partner)
        form.locator(".dk-party label.chip", has_text=other).click()
        form.locator("button[type=submit]").click()
        expect(page.locator("#hand-form h2")).to_have_text("Enter hand 3")
    finally:
        context.close()
    assert [eyes for _re, eyes in _re_eyes(meeting)] == [130, 150]
    assert services.verify_replays(league=league)[1] == []


@pytest.mark.django_db(transaction=True)
def test_a_hand_whose_answer_was_lost_is_entered_once(browser, live_server, login):
    # The browser says online, the server saves the hand, the answer never arrives (signal
    # gone on the way back): the hand waits in the outbox and its key makes the resend the
    # same hand, not a second one.
    league, anna, _ben, meeting = _league("lost")
    url = live_server.url + meeting.get_absolute_url()
    context, page = _phone(browser)
    try:
        login(page, anna)
        _controlled(page, url)

        def saved_then_lost(route):
            route.fetch()  # reaches the server, which saves the hand
            route.abort("connectionreset")

        page.route("**/hands/_hx/", saved_then_lost)
        enter_hand(page, 1, ["Anna", "Carl"], 150)
        _waiting(page, 1)
        assert Hand.objects.filter(meeting=meeting).count() == 1

        page.unroute("**/hands/_hx/")
        page.evaluate("window.kartenligaOutbox.sync()")
        _waiting(page, 0)
        expect(page.locator("#hand-1")).to_have_count(1)
        expect(page.locator("#hand-2")).to_have_count(0)
        expect(page.locator("#hand-form h2")).to_have_text("Enter hand 2")
    finally:
        context.close()
    assert [eyes for _re, eyes in _re_eyes(meeting)] == [150]
    assert services.verify_replays(league=league)[1] == []
