"""In Chromium: hands entered without signal wait in the browser's outbox, survive a
reload and an update of the service worker, and reach the server once each, in order; a hand
whose number another phone took meanwhile is shown beside theirs and kept, put in place of
theirs or discarded as the scorekeeper chooses, and the evening's history says which.
The offline phone is Playwright's context.set_offline(True); the service worker runs because
the live server on http://localhost is a secure context."""

import time

import pytest
from django.utils import translation
from playwright.sync_api import expect

from leagues.models import Hand, Player, Role
from leagues.table import replay, services, sheet, verify
from leagues.table.hand_entry import form_module
from tests.browser.conftest import PHONE, SHOTS
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


def _german_phone(browser):
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    context.set_default_timeout(15_000)
    return context, context.new_page()


def _enter(page, number, re_players, eyes):
    """enter_hand on a German page: tap the Re players, type Re's eyes, save, and wait for
    the form of the next hand."""
    form = page.locator("#hand-form")
    expect(form.locator("h2")).to_have_text(f"Spiel {number} eintragen")
    for name in re_players:
        form.locator(".dk-party label.chip", has_text=name).click()
    form.locator("input[name=eyes]").fill(str(eyes))
    form.locator("button[type=submit]").click()
    expect(page.locator("#hand-form h2")).to_have_text(f"Spiel {number + 1} eintragen")


# Whether an element is whole on the screen and on top (at its centre and just inside two corners).
IN_SIGHT = """el => {
  const r = el.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return false;
  return [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 4, r.top + 4], [r.right - 4, r.bottom - 4]]
    .every(([x, y]) => { const at = document.elementFromPoint(x, y); return !!at && el.contains(at); });
}"""


def _conflict(phone, number, shot, shot_name):
    """The card of a hand whose number was taken, once both versions are on it."""
    choice = phone.locator("[data-outbox-choice]")
    expect(choice).to_contain_text(f"Ein anderes Handy hat inzwischen Spiel {number} eingetragen")
    expect(choice.locator(".outbox-compare")).to_be_visible()
    expect(choice.locator("button[data-outbox-replace]")).to_be_enabled()
    # Side by side at 390 px: the two versions share one row, neither wider than the screen.
    yours, theirs = choice.locator(".outbox-yours"), choice.locator(".outbox-theirs")
    a, b = yours.bounding_box(), theirs.bounding_box()
    assert abs(a["y"] - b["y"]) < 1 and a["x"] + a["width"] <= b["x"] and b["x"] + b["width"] <= PHONE["width"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The card comes into sight by itself, wherever the phone was scrolled to: both versions
    # whole on the screen, nothing over them (the top bar, the save bar).
    for version in (yours, theirs):
        assert _until(phone, IN_SIGHT, version.element_handle(), seconds=5), (
            version.bounding_box(),
            phone.evaluate("scrollY"),
        )
    shot(phone, shot_name)
    # The card alone as the phone shows it (the full page has the sticky bars across it).
    choice.scroll_into_view_if_needed()
    choice.screenshot(path=str(SHOTS / f"{shot_name}-card.png"))
    return choice, yours, theirs


# What the second phone enters online meanwhile, and the scorekeeper's choice at each number
# taken: "keep" a different game, "replace" theirs where it was wrong, "discard" the same game.
SCENARIOS = {
    # Their hand 1 is the offline phone's first game seen from the other end of the table;
    # their hand 2 a game of their own.
    "discard-keep": ([(["Anna", "Ben"], 130), (["Ben", "Carl"], 140)], ["discard", "keep"]),
    # Their hand 1 had Re's eyes wrong (120 for 130); their hand 2 is the offline phone's second.
    "replace-discard": ([(["Anna", "Ben"], 120), (["Anna", "Carl"], 150)], ["replace", "discard"]),
}


@pytest.mark.parametrize("scenario", list(SCENARIOS))
@pytest.mark.django_db(transaction=True)
def test_six_hands_offline_and_two_online_end_once_each_as_chosen(browser, live_server, login, shot, scenario):
    online, choices = SCENARIOS[scenario]
    league, anna, ben, meeting = _league(scenario)
    url = live_server.url + meeting.get_absolute_url()
    one, phone = _german_phone(browser)
    two, other = _german_phone(browser)
    try:
        login(phone, anna)
        _controlled(phone, url)
        one.set_offline(True)
        expect(phone.locator("[data-outbox-status]")).to_have_attribute("data-outbox-status", "offline")
        for number, (re, eyes) in enumerate(OFFLINE, start=1):
            _enter(phone, number, re, eyes)
        _waiting(phone, 6)
        expect(phone.locator("#next-title")).to_have_text("Als Nächstes: Spiel 7")
        expect(phone.locator("#sheet").get_by_text("Noch keine Spiele")).to_be_hidden()
        expect(phone.locator("tr.outbox-row .badge.pending").first).to_have_text("noch nicht gesendet")
        expect(phone.locator("tr.outbox-row").first).to_contain_text("Zahlen nach dem Abgleich")
        # What needs the server is not offered: a form that posts (logging out), a page this
        # phone never kept (the evening's history); the sheet's own page and its form are.
        expect(phone.locator("form[action$='/logout/'] button")).to_be_disabled()
        expect(phone.locator(".meeting-nav a[href$='/history/']")).to_have_class("offline-unavailable")
        expect(phone.locator("#hand-form button[type=submit]")).to_be_enabled()
        shot(phone, "offline-outbox-390")
        assert Hand.objects.filter(meeting=meeting).count() == 0

        # Meanwhile the second phone, online, enters its two hands.
        login(other, ben)
        other.goto(url)
        for number, (re, eyes) in enumerate(online, start=1):
            _enter(other, number, re, eyes)

        one.set_offline(False)
        for number, choice_made in enumerate(choices, start=1):
            card, yours, theirs = _conflict(phone, number, shot, f"offline-conflict-{scenario}-{number}-390")
            # Both versions in the players' words: who was Re and the eyes, each side its own.
            mine_re, mine_eyes = OFFLINE[number - 1]
            their_re, their_eyes = online[number - 1]
            expect(yours).to_contain_text(", ".join(mine_re))
            expect(yours).to_contain_text(f"Re {mine_eyes} : Kontra {240 - mine_eyes}")
            expect(theirs).to_contain_text(", ".join(their_re))
            expect(theirs).to_contain_text(f"Re {their_eyes} : Kontra {240 - their_eyes}")
            expect(theirs).to_contain_text("Eingetragen von Ben")
            card.locator(f"button[data-outbox-{choice_made}]").click()
            if choice_made == "keep":
                break  # it and the hands after it follow theirs: no number is taken any more
        _waiting(phone, 0)
        expect(phone.locator("[data-outbox-choice]")).to_have_count(0)
        live = 8 - choices.count("discard") - choices.count("replace")
        expect(phone.locator("#hand-form h2")).to_have_text(f"Spiel {live + 1} eintragen")
        expect(phone.locator(f"#hand-{live}")).to_have_count(1)

        # What was chosen is in the evening's history, with who chose it.
        phone.goto(url + "history/")
        history = phone.locator("ol.history").last
        for number, choice_made in enumerate(choices, start=1):
            note = {
                "keep": f"Offline als Spiel {number} eingetragen, das ein anderes Handy inzwischen eingetragen "
                "hatte: als nächstes Spiel behalten.",
                "replace": f"Ersetzt durch das offline als Spiel {number} eingetragene Spiel",
                "discard": f"Offline als Spiel {number} eingetragen, das ein anderes Handy inzwischen eingetragen "
                "hatte: verworfen, nicht auf dem Zettel.",
            }[choice_made]
            card = history.locator("li.card", has_text=note)
            expect(card).to_have_count(1)
            expect(card).to_contain_text("von Anna")
        shot(phone, f"offline-history-{scenario}-390")
    finally:
        one.close()
        two.close()

    live_hands = list(Hand.objects.filter(meeting=meeting).live().order_by("position"))
    discarded = list(Hand.objects.filter(meeting=meeting, deleted_at__isnull=False))
    assert [h.number for h in live_hands] == list(range(1, len(live_hands) + 1))
    if scenario == "discard-keep":
        # Their two, then the offline ones but the discarded first (kept behind theirs).
        assert _re_eyes(meeting) == online + OFFLINE[1:]
        assert [h.entered_by for h in live_hands] == [ben, ben] + [anna] * 5
        # The kept hand went in through the save, its history saying what was chosen.
        assert [(r.history_type, r.history_user, r.history_change_reason) for r in live_hands[2].history.all()] == [
            ("+", anna, "outbox:keep:2")
        ]
        assert [(d.payload["re"], d.payload["re_eyes"]) for d in discarded] == [tuple(OFFLINE[0])]
    else:
        # Hand 1 is the offline phone's, in place of theirs; their hand 2 was the same game.
        assert _re_eyes(meeting) == OFFLINE
        assert [h.entered_by for h in live_hands] == [ben, ben] + [anna] * 4
        replaced = live_hands[0].history.order_by("history_id")
        assert [(r.history_type, r.history_user, r.version) for r in replaced] == [("+", ben, 1), ("~", anna, 2)]
        assert [(d.payload["re"], d.payload["re_eyes"]) for d in discarded] == [tuple(OFFLINE[1])]
    assert [(d.entered_by, d.number) for d in discarded] == [(anna, None)]
    # Every hand stored has a key of its own (a replacing hand's key is in the history).
    assert len({h.idempotency_key for h in live_hands + discarded}) == len(live_hands) + 1
    checked, problems = verify.verify_replays(league=league)
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
    assert verify.verify_replays(league=league)[1] == []


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
    assert verify.verify_replays(league=league)[1] == []


@pytest.mark.django_db(transaction=True)
def test_a_hand_the_server_refuses_waits_with_its_reason_and_goes_back_into_the_form(browser, live_server, login):
    # Five at the table: the dealer sits out (doppelkopf.md), and offline the form cannot know
    # who deals the second hand, so it still offers him.
    league, anna, _ben, meeting = _league("refused")
    Player.objects.get_or_create(league=league, name="Eva")
    meeting.delete()
    meeting = meeting_for(league, NAMES + ["Eva"])
    first = replay.calculate_meeting(meeting, payloads=[])["next"]
    playing = first["active"]
    hand_one = {"kind": "normal", "re": playing[:2], "re_eyes": 130}
    second = replay.calculate_meeting(meeting, payloads=[hand_one])["next"]
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
    assert verify.verify_replays(league=league)[1] == []


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
    assert verify.verify_replays(league=league)[1] == []


@pytest.mark.django_db(transaction=True)
def test_a_replacement_over_their_hand_corrected_meanwhile_is_asked_again(browser, live_server, login):
    # While the card shows Ben's hand 1 beside Anna's, Ben corrects it: the replacement made
    # against the version shown is refused (409), and the card shows their hand as it is now.
    league, anna, ben, meeting = _league("stale")
    url = live_server.url + meeting.get_absolute_url()
    context, page = _german_phone(browser)
    try:
        login(page, anna)
        _controlled(page, url)
        context.set_offline(True)
        _enter(page, 1, ["Anna", "Ben"], 130)
        theirs = services.enter_hand(
            meeting=meeting, payload={"kind": "normal", "re": ["Anna", "Ben"], "re_eyes": 120}, by=ben
        ).hand
        context.set_offline(False)
        card = page.locator("[data-outbox-choice]")
        expect(card.locator(".outbox-theirs")).to_contain_text("Re 120 : Kontra 120")
        services.change_hand(hand=theirs, payload={**theirs.payload, "re_eyes": 125}, by=ben, version=1)
        card.locator("button[data-outbox-replace]").click()
        expect(card.locator(".outbox-theirs")).to_contain_text("Re 125 : Kontra 115")
        assert Hand.objects.get(pk=theirs.pk).payload["re_eyes"] == 125
        card.locator("button[data-outbox-replace]").click()
        _waiting(page, 0)
        expect(page.locator("#hand-form h2")).to_have_text("Spiel 2 eintragen")
    finally:
        context.close()
    hand = Hand.objects.get(pk=theirs.pk)
    assert (hand.payload["re_eyes"], hand.version) == (130, 3)
    assert Hand.objects.filter(meeting=meeting).count() == 1
    assert verify.verify_replays(league=league)[1] == []


def _dk_by_chips(page):
    """Re pair Anna and Ben, Re calls Re, Re wins with 121 or more, a Fuchs caught by Re."""
    form = page.locator("#hand-form")
    form.locator('[data-re-pair="Anna|Ben"]').click()
    form.locator(".ann-re button[data-ann='re:re']").click()
    form.locator('[data-bracket-eyes="121"]').click()
    form.locator('[data-count-for="fuchs_re"]').click()


def _dk_solo(page):
    """A Damensolo by Carl, who made 151 or more; Kontra called Kontra."""
    form = page.locator("#hand-form")
    form.locator("label.chip:has(input[name=kind][value=solo])").click()
    form.locator("label.chip:has(input[name=solo][value=damen])").click()
    form.locator("label.chip:has(input[name=re][value=Carl])").click()
    form.locator(".ann-kontra button[data-ann='kontra:kontra']").click()
    form.locator('[data-bracket-eyes="151"]').click()


def _one_ten(page):
    """Anna bids 20 and takes every trick but the first, the top trump in the second."""
    form = page.locator("#hand-form")
    form.locator('label.chip:has(input[name=bid][value="20"][data-bid-for=Anna])').click()
    form.locator("label.chip:has(input[name=trick_1][value=Ben])").click()
    form.locator('[data-star-trick="2"][data-star-party=Anna]').click()
    form.locator("[data-rest-party=Anna]").click()


def _thousand(page):
    """Ben plays 110 with the clubs marriage; Carl 30, Dora 20 card points, Ben the rest."""
    form = page.locator("#hand-form")
    form.locator("label.chip:has(input[name=declarer][value=Ben])").click()
    form.locator("[data-bid-quick]").nth(2).click()
    form.locator('[data-player=Carl] [data-points-quick="30"]').click()
    form.locator('[data-player=Dora] [data-points-quick="20"]').click()
    form.locator('label.chip:has(input[name="marriages:Ben"][value=clubs])').click()


def _dk_ramsch(page):
    """Hand 6 is a Ramsch (see RAMSCH_ROUND): Dora took the most eyes, 90 to 119."""
    form = page.locator("#hand-form")
    form.locator('[data-ramsch-loser="Dora"]').click()
    form.locator('[data-ramsch-lo="90"]').click()


# Kontra lost twice (Bock, and Bock in it), then the rest of the Bock round: hand 6 is Ramsch.
_KONTRA = [{"party": "kontra", "call": "kontra"}]
RAMSCH_ROUND = [{"kind": "normal", "re": ["Anna", "Ben"], "re_eyes": 130, "announcements": _KONTRA}] * 2 + [
    {"kind": "normal", "re": ["Anna", "Ben"], "re_eyes": 130, "announcements": []}
] * 3

WAITING = {
    "doppelkopf-chips": ("doppelkopf", "club", NAMES, _dk_by_chips),
    "doppelkopf-ramsch": ("doppelkopf", "club", NAMES, _dk_ramsch),
    "doppelkopf-solo": ("doppelkopf", "club", NAMES, _dk_solo),
    "one-ten": ("one_ten", "standard", NAMES[:3], _one_ten),
    "thousand": ("thousand", "koenigsberg", NAMES, _thousand),
}


@pytest.mark.parametrize("name", list(WAITING))
@pytest.mark.django_db(transaction=True)
def test_a_hand_waiting_offline_reads_as_the_sheet_describes_it(browser, live_server, login, name):
    """The outbox's row of a hand entered offline says it in the words the sheet's why view
    uses for the hand once stored (its game's describe), not the form's raw values."""
    game, variant, names, enter = WAITING[name]
    league = LeagueFactory(name=f"Keller {name}", slug=name, game=game, variant=variant)
    anna = member(league, Role.SCOREKEEPER, username=f"anna-{name}", first_name="Anna")
    for other in names[1:]:
        Player.objects.get_or_create(league=league, name=other)
    meeting = meeting_for(league, names)
    for payload in RAMSCH_ROUND if enter is _dk_ramsch else ():
        services.enter_hand(meeting=meeting, payload=payload, by=anna)
    number = meeting.hands.count() + 1
    context, page = _german_phone(browser)
    try:
        login(page, anna)
        page.goto(live_server.url + meeting.get_absolute_url())
        expect(page.locator("[data-outbox-status]")).to_have_attribute("data-outbox-status", "online")
        context.set_offline(True)
        enter(page)
        page.locator("#hand-form button[type=submit]").click()
        _waiting(page, 1)
        said = page.locator("tr.outbox-row .outbox-summary").inner_text()
        context.set_offline(False)
        _waiting(page, 0)
        expect(page.locator(f"#hand-{number}")).to_have_count(1)
    finally:
        context.close()
    stored = Hand.objects.get(meeting=meeting, number=number)
    with translation.override("de"):
        lines = sheet.describe_payload(module=form_module(game), payload=stored.payload)
        expected = " · ".join(f"{label}: {value}" for label, value in lines)
    assert said == expected
