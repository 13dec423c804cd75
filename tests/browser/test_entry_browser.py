"""Beyond the tap counts: a half-entered hand survives a reload (and is gone once
saved), Back closes the why dialog instead of leaving the meeting, the chips for the result
enter what the spec's lines need, and the sheet of six players fits 360 px on the meeting page
and on the public one. German phone (de-DE); screenshots entry-*.png."""

import secrets

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from leagues.models import Hand, Player, Role
from leagues.table.services import enter_hand
from tests.factories import LeagueFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora"]


@pytest.fixture
def german(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def _league(slug, names=NAMES):
    league = LeagueFactory(name=f"Stammtisch {slug}", slug=slug, game="doppelkopf", variant="club")
    user = member(league, Role.SCOREKEEPER, username=f"anna-{slug}", first_name="Anna")
    for name in names[1:]:
        Player.objects.create(league=league, name=name)
    return league, user


@pytest.mark.django_db(transaction=True)
def test_a_half_entered_hand_survives_a_reload_and_is_gone_once_saved(german, live_server, login, shot):
    league, user = _league("draft")
    meeting = meeting_for(league, NAMES)
    page = german
    login(page, user)
    page.goto(live_server.url + meeting.get_absolute_url())
    form = page.locator("#hand-form")
    form.locator('[data-re-pair="Anna|Carl"]').click()
    form.locator('.ann-re button[data-ann="re:re"]').click()
    form.locator('[data-bracket-eyes="151"]').click()
    form.locator('[data-count-for="fuchs_re"]').click()
    form.locator('[data-count-for="fuchs_re"]').click()  # a second tap: two foxes
    page.wait_for_timeout(300)  # the draft is written a moment after the last tap

    page.reload()
    form = page.locator("#hand-form")
    expect(form.locator("[data-draft-note]")).to_be_visible()
    expect(form.locator('input[name=re][value="Anna"]')).to_be_checked()
    expect(form.locator('input[name=re][value="Carl"]')).to_be_checked()
    expect(form.locator('input[name=re][value="Ben"]')).not_to_be_checked()
    expect(form.locator("input[name=eyes]")).to_have_value("151")
    expect(form.locator(".ann-list input[name=ann]")).to_have_count(1)
    expect(form.locator("input[name=fuchs_re]")).to_have_value("2")
    expect(form.locator('[data-count-for="fuchs_re"]')).to_contain_text("×2")
    shot(page, "entry-draft-restored-390")

    form.locator("button[type=submit]").click()
    expect(page.locator("#hand-1")).to_have_count(1)
    # Saved as the spec's hand: Re's eyes, the call, two foxes caught by Re.
    hand = Hand.objects.get(meeting=meeting)
    assert hand.payload["re"] == ["Anna", "Carl"]
    assert hand.payload["re_eyes"] == 151
    assert hand.payload["re_eyes_range"] == [151, 180]  # the chip, kept through the reload
    assert hand.payload["announcements"] == [{"party": "re", "call": "re"}]
    assert hand.payload["specials"] == [{"kind": "fuchs", "party": "re"}, {"kind": "fuchs", "party": "re"}]
    page.reload()
    expect(page.locator("#hand-form [data-draft-note]")).to_be_hidden()
    expect(page.locator("#hand-form input[name=re]:checked")).to_have_count(0)
    expect(page.locator("#hand-form input[name=eyes]")).to_have_value("")


@pytest.mark.django_db(transaction=True)
def test_back_closes_the_why_dialog_and_stays_on_the_meeting(german, live_server, login):
    league, user = _league("back")
    meeting = meeting_for(league, NAMES)
    enter_hand(meeting=meeting, payload={"kind": "normal", "re": ["Anna", "Ben"], "re_eyes": 130}, by=user)
    page = german
    login(page, user)
    url = live_server.url + meeting.get_absolute_url()
    page.goto(url)
    page.wait_for_selector("#hand-form")
    page.locator("#hand-1 th a").click()
    expect(page.locator("#why-dialog")).to_be_visible()
    page.wait_for_function("history.state && history.state.dialog")  # its history entry is there
    page.go_back()
    expect(page.locator("#why-dialog")).to_be_hidden()
    assert page.url.split("#")[0] == url
    # Closed by its own button, one Back then leaves the page as usual.
    page.locator("#hand-1 th a").click()
    expect(page.locator("#why-dialog")).to_be_visible()
    page.wait_for_function("history.state && history.state.dialog")
    page.locator("#why-dialog form[method=dialog] button").click()
    expect(page.locator("#why-dialog")).to_be_hidden()
    assert page.url.split("#")[0] == url
    page.go_back()
    page.wait_for_url(lambda u: not u.startswith(url))


@pytest.mark.django_db(transaction=True)
def test_the_result_chips_name_the_winner_under_the_calls_made(german, live_server, login):
    league, user = _league("chips")
    meeting = meeting_for(league, NAMES)
    page = german
    login(page, user)
    page.goto(live_server.url + meeting.get_absolute_url())
    form = page.locator("#hand-form")
    # No call: Re wins from 121 (doppelkopf.md, who wins, 4.), Kontra with 120.
    expect(form.locator('[data-bracket-eyes="121"]')).to_have_attribute("data-win", "re")
    expect(form.locator('[data-bracket-eyes="120"]')).to_have_attribute("data-win", "kontra")
    # Re said keine 90: Re needs 151 (1.); Kontra wins with 90 (the mirror of 2.).
    form.locator('.ann-re button[data-ann="re:keine_90"]').click()
    expect(form.locator('[data-bracket-eyes="121"]')).to_have_attribute("data-win", "kontra")
    expect(form.locator('[data-bracket-eyes="151"]')).to_have_attribute("data-win", "re")
    # Kontra said keine 60 too: Re needs 151 still, Kontra 181 eyes, i.e. Re 59 or less;
    # between them nobody wins (both parties made absagen).
    form.locator('.ann-kontra button[data-ann="kontra:keine_60"]').click()
    expect(form.locator('[data-bracket-eyes="121"]')).to_have_attribute("data-win", "none")
    expect(form.locator('[data-bracket-eyes="59"]')).to_have_attribute("data-win", "kontra")
    # The chip for Re's 121 to 150 eyes enters 121, the figure the bracket turns on.
    form.locator('[data-bracket-eyes="121"]').click()
    expect(form.locator("input[name=eyes]")).to_have_value("121")
    expect(form.locator('[data-bracket-eyes="121"]')).to_have_class("chip dk-bracket on")
    # The chip is kept as the bracket it stands for; eyes typed are a count, and it goes.
    expect(form.locator("input[name=eyes_range]")).to_have_value("121-150")
    form.locator("input[name=eyes]").fill("131")
    expect(form.locator("input[name=eyes_range]")).to_have_value("")


@pytest.mark.django_db(transaction=True)
def test_a_ramsch_by_chips_saves_the_chips_as_tapped(german, live_server, login):
    league, user = _league("ramsch")
    meeting = meeting_for(league, NAMES)
    kontra = [{"party": "kontra", "call": "kontra"}]
    lost = {"kind": "normal", "re": ["Anna", "Ben"], "re_eyes": 130, "announcements": kontra}
    enter_hand(meeting=meeting, payload=lost, by=user)  # Kontra lost: a Bock round
    enter_hand(meeting=meeting, payload=lost, by=user)  # and again in it: a Ramsch round after
    for _ in range(3):
        enter_hand(meeting=meeting, payload={"kind": "normal", "re": ["Anna", "Ben"], "re_eyes": 130}, by=user)
    page = german
    login(page, user)
    page.goto(live_server.url + meeting.get_absolute_url())
    form = page.locator("#hand-form")
    form.locator('[data-ramsch-loser="Carl"]').click()
    form.locator('[data-ramsch-lo="120"]').click()
    form.locator('[data-ramsch-jungfrau="Anna"]').click()
    form.locator("button[type=submit]").click()
    expect(page.locator("#hand-6")).to_have_count(1)
    payload = Hand.objects.get(meeting=meeting, number=6).payload
    # Kept as the chips were tapped: Carl has the most, 120 to 149 eyes; Anna took no trick.
    # Nobody's eyes or tricks are made up.
    assert payload == {"kind": "ramsch", "losers": ["Carl"], "loser_eyes": [120, 149], "jungfrauen": ["Anna"]}
    # ⌊120 / 30⌋ = 4, doubled for Anna the Jungfrau: 8; Carl pays 3 × 8 (doppelkopf.md, Ramsch).
    assert page.locator("#hand-6 td").nth(2).inner_text().split()[0] == "-24"


SIX = ["Annegret", "Bernhard", "Christiane", "Dorothea", "Emilia", "Friedrich"]


@pytest.mark.django_db(transaction=True)
def test_a_sheet_of_six_fits_360_px_on_the_meeting_and_the_public_page(german, live_server, login, shot):
    league, user = _league("six", SIX)
    league.public_token = secrets.token_urlsafe(16)
    league.save(update_fields=["public_token"])
    meeting = meeting_for(league, SIX)
    # Six at the table: Annegret deals and sits out with Christiane (doppelkopf.md).
    kontra = [{"party": "kontra", "call": "kontra"}]
    enter_hand(
        meeting=meeting,
        payload={"kind": "normal", "re": ["Bernhard", "Dorothea"], "re_eyes": 130, "announcements": kontra},
        by=user,
    )
    enter_hand(
        meeting=meeting, payload={"kind": "solo", "solo": "damen", "re": ["Christiane"], "re_eyes": 200}, by=user
    )
    page = german
    page.set_viewport_size({"width": 360, "height": 800})
    login(page, user)
    page.goto(live_server.url + meeting.get_absolute_url())
    scroll = page.locator("#sheet .table-scroll")
    assert scroll.evaluate("el => el.scrollWidth <= el.clientWidth"), scroll.evaluate(
        "el => [el.scrollWidth, el.clientWidth]"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # Hand 2 is a Bock game and a solo: the letters B and S on the row, not colour alone.
    expect(page.locator("#hand-2 .round-letter")).to_have_text(["B", "S"])
    expect(page.locator("#sheet thead th .short").first).to_have_text("Ann")
    # The full name stays for screen readers, out of sight (a box of 1 px) until a tap.
    full = page.locator("#sheet thead th .full").first
    assert full.evaluate("el => el.getBoundingClientRect().width") <= 1
    page.locator("#sheet thead th[data-full-names]").first.click()  # full names on a tap
    assert full.evaluate("el => el.getBoundingClientRect().width") > 1
    page.locator("#sheet thead th[data-full-names]").first.click()
    page.locator("#sheet").scroll_into_view_if_needed()
    shot(page, "entry-sheet-six-360")

    page.goto(live_server.url + reverse("public_meeting", kwargs={"token": league.public_token, "pk": meeting.pk}))
    table = page.locator(".table-scroll")
    assert table.evaluate("el => el.scrollWidth <= el.clientWidth"), table.evaluate(
        "el => [el.scrollWidth, el.clientWidth]"
    )
    expect(page.locator("#hand-2 .round-letter")).to_have_text(["B"])
    page.locator("thead th[data-full-names]").first.click()
    expect(page.locator("thead th .full").first).to_be_visible()
    shot(page, "entry-public-sheet-six-360")
