"""Race evenings on a phone (390x844): a 45 Bruff evening in teams where a jink wins the game
whatever the score, and a 1000 evening with four at the table and a failed contract.
Screenshots go to test-artifacts/screenshots/race-*.png."""

import pytest
from django.urls import reverse

from leagues.models import Player, Role
from tests.factories import LeagueFactory, meeting_for, member


def tap(page, name, value):
    """Tap the chip of a radio or checkbox (the input itself is hidden under its label)."""
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').first.click()


def save(page, number):
    page.click(f"button:has-text('Save hand {number}')")
    page.wait_for_selector(f"#hand-{number}")


def snap(shot, page, name):
    """A full-page screenshot from the top: sticky bars then sit where a phone shows them."""
    page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
    page.wait_for_function("window.scrollY === 0")
    shot(page, name)


def sheet_cells(page, number):
    return page.locator(f"#hand-{number} td").all_inner_texts()


@pytest.mark.django_db(transaction=True)
def test_a_bruff_evening_where_a_jink_wins_the_game(phone, live_server, login, shot):
    pytest.importorskip("scoring.maw")
    league = LeagueFactory(name="Bruff Forty-Fives", slug="bruff", game="forty_five", variant="bruff")
    scorekeeper = member(league, Role.SCOREKEEPER, username="sean", first_name="Seán")
    for name in ("Máire", "Pádraig", "Niamh"):
        Player.objects.create(league=league, name=name)
    login(phone, scorekeeper)

    # Start the evening: four at the table, partners opposite (teams A and B).
    phone.goto(live_server.url + reverse("meeting_start", kwargs={"slug": league.slug}))
    snap(shot, phone, "race-45-start-meeting-phone")
    # The page seats the suggested host; the others join in the order tapped.
    for name in ("Seán", "Máire", "Pádraig", "Niamh"):
        chip = phone.locator(f"#bench .chip[data-name='{name}']")
        if chip.count():
            chip.click()
    assert phone.locator("#seats li").count() == 4
    selects = phone.locator("#seats select.team")
    for i, team in enumerate("ABAB"):
        selects.nth(i).select_option(team)
    phone.click("button:has-text('Start the meeting')")
    phone.wait_for_selector("#hand-form")
    # On a phone the score is in the line above the form; the panel unfolds on a tap.
    assert phone.locator(".next-scores").inner_text().split() == ["A", "0", "B", "0"]
    phone.locator("[data-next-more] summary").click()
    assert phone.locator("[data-hand-next=maw]").is_visible()
    snap(shot, phone, "race-45-start-phone")

    # Hand 1: A wins three tricks, the top trump among them: A 20, B 10.
    for n, team in enumerate("ABAAB", start=1):
        tap(phone, f"trick_{n}", team)
    tap(phone, "top_trump_trick", "1")
    assert phone.inner_text("[data-tally]") == "A 3 · B 2"
    save(phone, 1)
    assert phone.locator(".next-scores").inner_text().split() == ["A", "20", "B", "10"]
    assert phone.locator(".hn-race tr:has-text('A') b").text_content() == "20"

    # Hand 2: B takes all five tricks: a jink, and in Bruff that wins the game outright.
    for n in range(1, 6):
        tap(phone, f"trick_{n}", "B")
    assert "Jink" in phone.inner_text("[data-tally]")
    tap(phone, "top_trump_trick", "none")
    # A mistap and its undo: the last trick row clears.
    phone.click("[data-undo-trick]")
    assert phone.locator("input[name=trick_5]:checked").count() == 0
    tap(phone, "trick_5", "B")
    snap(shot, phone, "race-45-jink-form-phone")
    save(phone, 2)

    # The line above the form names the game's winner; its panel (tapped open) the rest.
    assert "★ game won by B" in phone.locator(".next-line").inner_text()
    phone.locator("[data-next-more] summary").click()
    panel = phone.locator("[data-hand-next=maw]")
    assert "Last game, hand 2" in panel.inner_text()
    assert panel.locator(".hn-winner b").inner_text() == "B"
    assert panel.locator(".hn-race tr:has-text('B') td").nth(2).inner_text() == "1/3"
    # The hand that ended the game shows its final scores; the next one starts at 0.
    assert "Game over" in panel.locator(".hn-race caption").inner_text()
    assert panel.locator(".hn-race tr.hn-won b").inner_text() == "35"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    snap(shot, phone, "race-45-after-jink-phone")


@pytest.mark.django_db(transaction=True)
def test_a_thousand_evening_with_a_failed_contract(phone, live_server, login, shot):
    league = LeagueFactory(name="Tysiąc w czwartek", slug="tysiac", game="thousand", variant="koenigsberg")
    scorekeeper = member(league, Role.SCOREKEEPER, username="anna", first_name="Anna")
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"])
    login(phone, scorekeeper)
    phone.goto(live_server.url + meeting.get_absolute_url())
    phone.wait_for_selector("#hand-form")
    # With four at the table the dealer (Anna, the host) sits out the first hand.
    assert "sits out" in phone.locator(".hf-player.hf-out").inner_text()
    snap(shot, phone, "race-1000-start-phone")

    # Hand 1: Ben bids 20 (contract 120), melds clubs (100) and takes 70: made.
    tap(phone, "declarer", "Ben")
    phone.fill("input[name=bid]", "15")
    phone.click("[data-step='1']")  # the stepper: 15 -> 20
    assert phone.input_value("input[name=bid]") == "20"
    assert phone.inner_text("[data-contract]") == "Contract: 120"
    phone.fill("input[name='points:Ben']", "70")
    phone.fill("input[name='points:Carl']", "30")
    # The last of the three fills itself in from 120 (no "Give Dora 20" tap).
    assert phone.input_value("input[name='points:Dora']") == "20"
    assert phone.inner_text("[data-sum]") == "Σ 120 / 120"
    tap(phone, "marriages:Ben", "clubs")
    snap(shot, phone, "race-1000-hand1-form-phone")
    save(phone, 1)
    assert sheet_cells(phone, 1)[1].split()[0] == "+120"

    # Hand 2 (Ben deals and sits out): Carl bids 10 (contract 110). A points typo first: the
    # engine's complaint shows on the card points, and nothing is saved.
    tap(phone, "declarer", "Carl")
    phone.fill("input[name=bid]", "10")
    phone.fill("input[name='points:Anna']", "40")
    phone.fill("input[name='points:Carl']", "60")
    phone.fill("input[name='points:Dora']", "18")
    phone.click("button:has-text('Save hand 2')")
    phone.wait_for_selector("[data-points] .errorlist")
    assert phone.locator("#hand-2").count() == 0
    assert phone.input_value("input[name='points:Carl']") == "60"  # what was typed is still there
    snap(shot, phone, "race-1000-points-error-phone")

    # Corrected: Carl has 60 and no marriage, short of 110: the contract fails, -110.
    phone.fill("input[name='points:Dora']", "20")
    save(phone, 2)
    cells = sheet_cells(phone, 2)
    assert cells[2].split()[0] == "-110"  # Carl
    assert cells[0].split()[0] == "+40" and cells[3].split()[0] == "+20"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    snap(shot, phone, "race-1000-failed-contract-phone")
