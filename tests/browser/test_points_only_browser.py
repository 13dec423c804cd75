"""A league that writes only the result (Doppelkopf option ``points_only``): taps
and scrolls of a result on the real meeting page, on a phone (390x844, German, Chromium),
counted by the ``Thumb`` of test_taps_browser.py. Screenshots of the form at 360 and 390 px
go to test-artifacts/screenshots/taps-dk-points-<width>.png, the measured figures to
test-artifacts/taps-points.md."""

from pathlib import Path

from playwright.sync_api import expect

from leagues.models import Player, Role
from tests.browser import test_taps_browser
from tests.browser.test_taps_browser import (
    NAMES,
    Thumb,
    _open,
    _pick_re_pair,
    _save,
    chip,
    shots,
    small_targets,
)
from tests.factories import LeagueFactory, meeting_for, member

german_phone = test_taps_browser.german_phone  # the fixture: 390x844, German
TABLE = Path(__file__).resolve().parents[2] / "test-artifacts" / "taps-points.md"
TARGET = 3  # a plain game (Re pair, winner, value 1 pre-chosen, save)


def _league():
    league = LeagueFactory(
        name="Stammtisch Ergebnis",
        slug="dk-points",
        game="doppelkopf",
        variant="club",
        rule_overrides={"points_only": True},
    )
    user = member(league, Role.SCOREKEEPER, username="anna-dk-points", first_name="Anna")
    for name in NAMES[1:]:
        Player.objects.create(league=league, name=name)
    return league, user


def test_a_result_in_three_taps_and_the_rest_folded_away(german_phone, live_server, login, shot):
    page = german_phone
    league, user = _league()
    meeting = meeting_for(league, NAMES)
    _open(page, live_server, login, user, meeting)
    shots(page, shot, "dk-points")
    measured = {}

    # Hand 1, a plain game: Re (Anna, Ben) won, worth 1.
    assert small_targets(page) == []
    thumb = Thumb(page)
    _pick_re_pair(thumb, page, "Anna", "Ben")
    thumb.tap(chip(page, "winner", "re"))
    _save(thumb, page, 1)
    measured["plain game: Re pair, winner, value 1 (pre-chosen), save"] = thumb
    hand = meeting.hands.get(number=1)
    assert hand.payload == {"kind": "points", "re": ["Anna", "Ben"], "winner": "re", "value": 1}

    # Hand 2: Kontra announced and lost, Re (Carl, Dora) worth 3: the facts unfold with one tap.
    page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
    thumb = Thumb(page)
    _pick_re_pair(thumb, page, "Carl", "Dora")
    thumb.tap(chip(page, "winner", "re"))
    thumb.tap(chip(page, "value", "3"))
    facts = page.locator("#hand-form .dk-facts")
    expect(facts).not_to_have_attribute("open", "")
    thumb.tap(facts.locator("summary"))
    assert small_targets(page) == []
    thumb.tap(chip(page, "kontra_announced", "1"))
    _save(thumb, page, 2)
    measured["Re wins 3, Kontra announced (a Bock round)"] = thumb
    assert meeting.hands.get(number=2).payload["kontra_announced"] is True
    # Hand 3 is a Bock game: the panel above the form says so.
    expect(page.locator(".dk-round.round-bock, .next-line")).not_to_have_count(0)

    # Hand 3: Ben's Damensolo lost, worth 8 (typed: no chip for it).
    page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
    thumb = Thumb(page)
    thumb.tap(chip(page, "re", "Ben"))
    thumb.tap(chip(page, "winner", "kontra"))
    thumb.type(page.locator('#hand-form input[name="value_other"]'), "8")
    thumb.tap(chip(page, "solo", "damen"))
    _save(thumb, page, 3)
    measured["solo lost, worth 8 (typed)"] = thumb
    solo = meeting.hands.get(number=3).payload
    assert solo == {"kind": "points", "re": ["Ben"], "solo": "damen", "winner": "kontra", "value": 8}
    # Bock (x2), a solo tripled: Ben -8 x2 x3 = -48, each opponent +16 (doppelkopf_value, kind points).
    expect(page.locator("#hand-3")).to_contain_text("-48")

    lines = ["| result only | taps | typed fields | scrolls | scroll before the first tap |", "|---|---|---|---|---|"]
    for name, t in measured.items():
        lines.append(f"| {name} | {t.taps} | {t.typed} | {t.scrolls} | {'yes' if t.scroll_before_first else 'no'} |")
    TABLE.parent.mkdir(parents=True, exist_ok=True)
    TABLE.write_text("\n".join(lines) + "\n", encoding="utf-8")

    plain = measured["plain game: Re pair, winner, value 1 (pre-chosen), save"]
    assert plain.taps <= TARGET and plain.scrolls == 0, (plain.taps, plain.scrolls)
    for name, t in measured.items():
        assert not t.scroll_before_first, name
