"""Faster than paper: taps and scrolls for one hand of each kind, on the real
meeting page, on a phone (390x844 and 360x780, German, Chromium), with one thumb.

A ``Thumb`` taps as a person would: before each tap it checks that the control is on the
screen and not under the sticky save bar (elementFromPoint at its middle); when it is not,
that is one scroll, and so is a click the browser had to scroll the page for. A typed field
counts one tap to focus it and one per key typed. The measured table goes to
test-artifacts/taps.md (the Doppelkopf and the race games' tests each write their rows and
keep the other's), screenshots of each form to test-artifacts/screenshots/taps-*.png (and the
1000 and 110 forms as filled).

What is asserted: no hand needs a scroll before its first tap, ``NO_SCROLL`` the hands
entered without any scroll, the targets of ``TARGETS`` that are met, and the README's tap
table ("Taps per hand"): each of its rows is the taps measured here at its width. Each race
game's hand is checked as stored too: fewer taps, the same payload."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from leagues.models import Player, Role
from leagues.table.services import enter_hand
from tests.browser.conftest import SHOTS
from tests.factories import LeagueFactory, meeting_for, member

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "test-artifacts" / "taps.md"
README = ROOT / "README.md"
PHONES = {390: {"width": 390, "height": 844}, 360: {"width": 360, "height": 780}}
NAMES = ["Anna", "Ben", "Carl", "Dora"]
MIN_TAP = 44  # px, the least tap target

# scenario -> (the figure an issue found, target taps or None, asserted): asserted only where met.
TARGETS = {
    "dk-normal": ("4–8", 3, True),
    "dk-fox": ("12–15", 6, True),
    "dk-solo": ("9", 5, True),
    "dk-ramsch": ("20–22", 9, True),
    "dk-pflichtsolo": ("3–7", 4, True),
    "thousand": ("10–13", 7, True),
    "forty-five": ("7", 6, True),
    "one-ten": ("9", 6, True),
    "one-ten-split": ("9", 6, False),
    "auction-45": ("–", None, False),
    "twenty-five": ("–", None, False),
    "spoil-five": ("–", None, False),
    "fifty-six": ("–", None, False),
}
# The hands entered without any scroll at 360 and 390 px (asserted): the result chip of a solo
# or of a Pflichtsolo is not under the save bar.
NO_SCROLL = {"dk-normal", "dk-solo", "dk-pflichtsolo", "dk-ramsch", "forty-five", "twenty-five", "spoil-five"}
LABELS = {
    "dk-normal": "Doppelkopf: normal game, Re wins, no announcements",
    "dk-fox": "Doppelkopf: Re wins, a fox caught",
    "dk-solo": "Doppelkopf: solo",
    "dk-ramsch": "Doppelkopf: Ramsch",
    "dk-pflichtsolo": "Doppelkopf: compulsory solo (Pflichtsolo round)",
    "thousand": "1000: the declarer's bid, two opponents' points, a marriage",
    "forty-five": "45, two teams",
    "one-ten": "110: the bidder takes the last tricks",
    "one-ten-split": "110: the last two tricks to different players",
    "auction-45": "Auction 45s: the maker makes his bid",
    "twenty-five": "25: the last two tricks to one player",
    "spoil-five": "Spoil Five: a player takes three tricks",
    "fifty-six": "56: the bid and the card points typed",
}


class Thumb:
    """Counts the taps, typed fields and scrolls of one hand."""

    def __init__(self, page):
        self.page = page
        self.taps = self.typed = self.scrolls = 0
        self.scroll_before_first = False
        self.small = set()  # controls under 44 x 44 px seen after any tap (chips shown by a tap)

    def _reachable(self, locator):
        return locator.evaluate(
            """el => {
                const r = el.getBoundingClientRect();
                if (r.width === 0 || r.top < 0 || r.bottom > window.innerHeight) return false;
                const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                return !!hit && (el.contains(hit) || hit.contains(el) || hit.closest('label') === el.closest('label'));
            }"""
        )

    def _reach(self, locator):
        if self._reachable(locator):
            return
        self.scrolls += 1
        if self.taps == 0:
            self.scroll_before_first = True
        locator.scroll_into_view_if_needed()
        for _ in range(8):  # under the sticky save bar: scroll on a little
            if self._reachable(locator):
                return
            self.page.mouse.wheel(0, 120)
            self.page.wait_for_timeout(50)

    def tap(self, locator):
        locator = locator.first
        self._reach(locator)
        at = self.page.evaluate("scrollY")
        saves = locator.evaluate("el => el.matches('button[type=submit]')")
        locator.click()
        # A click the browser had to scroll for (the control under the save bar where its
        # middle was not) moves the page too: that is a scroll the thumb makes as well.
        if not saves and self.page.evaluate("scrollY") != at:
            self.scrolls += 1
            if self.taps == 0:
                self.scroll_before_first = True
        self.taps += 1
        if self.page.locator("#hand-form").count():
            self.small.update(small_targets(self.page))

    def type(self, locator, text):
        locator = locator.first
        self._reach(locator)
        locator.click()
        locator.fill(text)
        self.taps += 1 + len(text)  # the tap into the field, then one key per digit
        self.typed += 1


def chip(page, name, value):
    return page.locator(f'#hand-form label.chip:has(input[name="{name}"][value="{value}"])')


def small_targets(page):
    """The visible controls of the hand form smaller than MIN_TAP x MIN_TAP."""
    return page.evaluate(
        """min => {
            const form = document.querySelector('#hand-form');
            const out = [];
            form.querySelectorAll('label.chip, button, summary, input:not([type=hidden]), select').forEach(el => {
                if (el.matches('.chip input')) return;  // the chip is the target
                const r = el.getBoundingClientRect();
                const style = getComputedStyle(el);
                if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') return;
                if (el.matches('input[type=radio], input[type=checkbox]') && el.closest('label')) {
                    const l = el.closest('label').getBoundingClientRect();
                    if (l.width >= min && l.height >= min) return;
                }
                if (r.width < min - 0.5 || r.height < min - 0.5)
                    out.push((el.name || el.textContent.trim().slice(0, 20)) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
            });
            return out;
        }""",
        MIN_TAP,
    )


def shots(page, shot, name):
    """The form from the top, as the phone shows it before the first tap."""
    page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
    shot(page, f"taps-{name}-{page.viewport_size['width']}")


@pytest.fixture(params=list(PHONES), ids=[f"{width}px" for width in PHONES])
def german_phone(browser, request):
    context = browser.new_context(viewport=PHONES[request.param], locale="de-DE")
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def readme_taps():
    """The README's tap table under "Taps per hand": {hand: taps}, one figure for both widths."""
    lines = README.read_text(encoding="utf-8").split("## Taps per hand\n", 1)[1].splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("| hand |"))
    rows = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        hand, taps = (cell.strip() for cell in line.strip().strip("|").split("|"))
        rows[hand] = int(taps)
    return rows


def _open(page, live_server, login, user, meeting):
    page.context.clear_cookies()  # each scenario signs in its own league's scorekeeper
    login(page, user)
    page.goto(live_server.url + meeting.get_absolute_url())
    page.wait_for_selector("#hand-form")
    page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")


def _save(thumb, page, number):
    thumb.tap(page.locator("#hand-form button[type=submit]"))
    expect(page.locator(f"#hand-{number}")).to_have_count(1)


def _dk_league(slug):
    league = LeagueFactory(name=f"Stammtisch {slug}", slug=slug, game="doppelkopf", variant="club")
    user = member(league, Role.SCOREKEEPER, username=f"anna-{slug}", first_name="Anna")
    for name in NAMES[1:]:
        Player.objects.create(league=league, name=name)
    return league, user


def _normal(re, re_eyes, announcements=()):
    return {"kind": "normal", "re": list(re), "re_eyes": re_eyes, "announcements": list(announcements)}


# --- the scenarios: each enters one hand the quickest way the page offers ---------------------


def _pick_re_pair(thumb, page, a, b):
    """The Re pair: one tap on the pair's chip where the form offers pairs, else both players."""
    pair = page.locator(f'#hand-form [data-re-pair="{a}|{b}"]')
    if pair.count() and pair.first.is_visible():
        thumb.tap(pair)
    else:
        thumb.tap(chip(page, "re", a))
        thumb.tap(chip(page, "re", b))


def _result(thumb, page, re_eyes):
    """Re's result: the bracket chip holding ``re_eyes`` where offered, else the quick button
    or the eyes typed."""
    bracket = page.locator(f'#hand-form [data-bracket-eyes="{re_eyes}"]')
    if bracket.count() and bracket.first.is_visible():
        thumb.tap(bracket)
        return
    quick = page.locator("#hand-form [data-eyes-quick]", has_text=str(re_eyes))
    if quick.count() and quick.first.is_visible():
        thumb.tap(quick)
        return
    thumb.type(page.locator("#hand-form input[name=eyes]"), str(re_eyes))


def dk_normal(page, thumb):
    _pick_re_pair(thumb, page, "Anna", "Ben")
    _result(thumb, page, 121)
    _save(thumb, page, 1)


def dk_fox(page, thumb):
    _pick_re_pair(thumb, page, "Anna", "Ben")
    _result(thumb, page, 121)
    fox = page.locator('#hand-form [data-count-for="fuchs_re"]')
    if fox.count():
        if not fox.first.is_visible():
            thumb.tap(page.locator("#hand-form .dk-specials summary"))
        thumb.tap(fox)
    else:
        thumb.tap(page.locator("#hand-form .dk-specials summary"))
        thumb.type(page.locator("#hand-form input[name=fuchs_re]"), "1")
    _save(thumb, page, 1)


def dk_solo(page, thumb):
    thumb.tap(chip(page, "kind", "solo"))
    thumb.tap(chip(page, "solo", "damen"))
    thumb.tap(chip(page, "re", "Carl"))
    _result(thumb, page, 121)
    _save(thumb, page, 1)


def dk_pflichtsolo(page, thumb):
    # The soloist and the kind are chosen already (the engine names who must play).
    thumb.tap(chip(page, "solo", "buben"))
    _result(thumb, page, 121)
    _save(thumb, page, 2)


def dk_ramsch(page, thumb):
    """Dora took the most eyes, 90 to 119 (she pays 3 each); nobody is a Jungfrau."""
    loser = page.locator('#hand-form [data-ramsch-loser="Dora"]')
    if loser.count():
        thumb.tap(loser)
        thumb.tap(page.locator('#hand-form [data-ramsch-lo="90"]'))
        _save(thumb, page, 6)
        return
    # Without the loser chips: every player's eyes and tricks typed.
    for name, eyes, tricks in [("Anna", "50", "3"), ("Ben", "49", "2"), ("Carl", "50", "3"), ("Dora", "91", "4")]:
        thumb.type(page.locator(f'#hand-form input[name="eyes__{name}"]'), eyes)
        thumb.type(page.locator(f'#hand-form input[name="tricks__{name}"]'), tricks)
    _save(thumb, page, 6)


def thousand(page, thumb):
    """Ben plays, bids the third of the common bids (110 under Königsberg) with the clubs
    marriage; Carl takes 30 card points, Dora 20, so Ben 70 (filled in from 120)."""
    thumb.tap(chip(page, "declarer", "Ben"))
    quick = page.locator("#hand-form [data-bid-quick]")
    if quick.count():
        thumb.tap(quick.nth(2))
    else:
        thumb.type(page.locator("#hand-form input[name=bid]"), "10")
    for name, points in (("Carl", "30"), ("Dora", "20")):
        row_chip = page.locator(f'#hand-form [data-player="{name}"] [data-points-quick="{points}"]')
        if row_chip.count() and row_chip.first.is_visible():
            thumb.tap(row_chip)
        else:
            thumb.type(page.locator(f'#hand-form input[name="points:{name}"]'), points)
    if page.locator('#hand-form input[name="points:Ben"]').input_value() != "70":
        thumb.type(page.locator('#hand-form input[name="points:Ben"]'), "70")
    thumb.tap(chip(page, "marriages:Ben", "clubs"))
    expect(page.locator("#hand-form [data-declarer-line]")).to_contain_text("170")
    # The form as filled (the opponents' chips, their rounding, the declarer's total), to look at.
    page.locator("#hand-form [data-points]").screenshot(path=str(SHOTS / "taps-thousand-filled-390.png"))
    _save(thumb, page, 1)


def _trick(thumb, page, n, party, top):
    """The winner of trick ``n``; where the form offers it, one tap also says the top trump won it."""
    star = page.locator(f'#hand-form [data-star-trick="{n}"][data-star-party="{party}"]')
    if top and star.count():
        thumb.tap(star)
        return True
    thumb.tap(chip(page, f"trick_{n}", party))
    return False


def forty_five(page, thumb):
    starred = False
    for n, team in enumerate("ABAAB", start=1):
        starred |= _trick(thumb, page, n, team, top=n == 1)
    if not starred:
        thumb.tap(chip(page, "top_trump_trick", "1"))
    _save(thumb, page, 1)


def _bid(thumb, page, bidder, bid):
    """The bidder and his bid: one tap on the bid in the bidder's row where the form has
    rows, else the bidder's chip and the bid's."""
    in_row = page.locator(f'#hand-form label.chip:has(input[name=bid][value="{bid}"][data-bid-for="{bidder}"])')
    if in_row.count():
        thumb.tap(in_row)
    else:
        thumb.tap(chip(page, "bidder", bidder))
        thumb.tap(chip(page, "bid", bid))


def _tricks(thumb, page, winners, top=None):
    """The tricks in order, the top trump's trick ``top`` (if the game has one) starred where
    the form offers it; a run of the same winner at the end in one tap where the form has "the
    rest to"."""
    start = len(winners) - 1  # where the last run of one winner starts
    while start > 0 and winners[start - 1] == winners[-1]:
        start -= 1
    rest = page.locator(f'#hand-form [data-rest-party="{winners[-1]}"]')
    use_rest = len(winners) - start >= 2 and rest.count() and rest.first.is_visible()
    starred = False
    for n, who in enumerate(winners[:start] if use_rest else winners, start=1):
        starred |= _trick(thumb, page, n, who, top=n == top)
    if use_rest:
        thumb.tap(rest)
    if top is not None and not starred:
        thumb.tap(chip(page, "top_trump_trick", str(top)))


def one_ten(page, thumb):
    """Anna bids 20; Ben takes the first trick with his ace, Anna the second with the top
    trump and then the rest: 4 tricks and the bonus, 25, made."""
    _bid(thumb, page, "Anna", "20")
    _tricks(thumb, page, ["Ben", "Anna", "Anna", "Anna", "Anna"], top=2)
    expect(page.locator('#hand-form input[name="trick_5"][value="Anna"]')).to_be_checked()
    page.locator("#hand-form .hand-form").screenshot(path=str(SHOTS / "taps-one-ten-filled-390.png"))
    _save(thumb, page, 1)


def one_ten_split(page, thumb):
    """Anna bids 20 and makes it with the top trump and two more tricks; Ben and Carl take
    one each, the last two tricks going to different players."""
    _bid(thumb, page, "Anna", "20")
    _tricks(thumb, page, ["Anna", "Anna", "Ben", "Anna", "Carl"], top=1)
    _save(thumb, page, 1)


def auction_45(page, thumb):
    """Anna wins the auction with 20 and takes four tricks, the first with the top trump."""
    _bid(thumb, page, "Anna", "20")
    _tricks(thumb, page, ["Anna", "Anna", "Anna", "Ben", "Anna"], top=1)
    _save(thumb, page, 1)


def tricks_won(winners):
    """A game of tricks alone (25, Spoil Five): each trick's winner, then save."""

    def enter(page, thumb):
        _tricks(thumb, page, winners)
        _save(thumb, page, 1)

    return enter


def fifty_six(page, thumb):
    """Dora bids 28 in diamonds, nobody doubles; her team takes 20 card points."""
    thumb.tap(chip(page, "bidder", "Dora"))
    thumb.type(page.locator("#hand-form input[name=bid]"), "28")
    thumb.tap(chip(page, "trump", "diamonds"))
    thumb.type(page.locator("#hand-form input[name=bidder_team_points]"), "20")
    _save(thumb, page, 1)


@pytest.fixture
def measure(german_phone, live_server, login, shot):
    """``measure(name, meeting, user, enter)`` enters one hand with ``enter(page, thumb)``;
    at the end the scenarios measured are written to the table (rows of the other test kept)
    and their targets asserted."""
    page = german_phone
    measured = {}

    def run(name, meeting, user, enter):
        _open(page, live_server, login, user, meeting)
        shots(page, shot, name)
        small = small_targets(page)
        thumb = Thumb(page)
        enter(page, thumb)
        measured[name] = (thumb, sorted(set(small) | thumb.small))

    yield run
    width = page.viewport_size["width"]
    _write_table(measured, width)
    readme = readme_taps()
    for name, (thumb, small) in measured.items():
        _today, target, asserted = TARGETS[name]
        assert small == [], (name, width, small)  # every game's form: tap targets of 44 x 44 at least
        assert not thumb.scroll_before_first, (name, width)
        if name in NO_SCROLL:
            assert thumb.scrolls == 0, (name, width)
        if asserted:
            assert thumb.taps <= target, (name, width, thumb.taps)
        said = readme.get(LABELS[name])
        assert said == thumb.taps, f"README's tap table, {LABELS[name]} at {width} px: {said}, measured {thumb.taps}"


def _write_table(measured, width):
    """The table in ``TARGETS`` order and by width: the rows measured now, the others as the
    last run of the other tests left them."""
    rows = {}
    if TABLE.exists():
        for line in TABLE.read_text(encoding="utf-8").splitlines()[2:]:
            cells = line.split(" | ")
            rows[cells[0].removeprefix("| "), cells[1]] = line
    for name, (thumb, small) in measured.items():
        today, target, _asserted = TARGETS[name]
        rows[LABELS[name], f"{width} px"] = (
            f"| {LABELS[name]} | {width} px | {today} | {f'≤ {target}' if target else '–'} | {thumb.taps} | {thumb.typed} | {thumb.scrolls} | "
            f"{'yes' if thumb.scroll_before_first else 'no'} | {len(small)} |"
        )
    lines = [
        "| hand | phone | taps today (issue) | target | taps | typed fields | scrolls | scroll before the first tap | targets under 44×44 px |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [rows[key] for name in TARGETS for key in ((LABELS[name], f"{w} px") for w in PHONES) if key in rows]
    TABLE.parent.mkdir(parents=True, exist_ok=True)
    TABLE.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.django_db(transaction=True)
def test_taps_and_scrolls_for_a_doppelkopf_hand_of_each_kind(measure):
    league, user = _dk_league("dk-normal")
    measure("dk-normal", meeting_for(league, NAMES), user, dk_normal)
    league, user = _dk_league("dk-fox")
    measure("dk-fox", meeting_for(league, NAMES), user, dk_fox)
    league, user = _dk_league("dk-solo")
    measure("dk-solo", meeting_for(league, NAMES), user, dk_solo)

    # A Pflichtsolo round: Re won 200 : 40 without a call, so the losers got the points.
    league, user = _dk_league("dk-pflichtsolo")
    meeting = meeting_for(league, NAMES)
    enter_hand(meeting=meeting, payload=_normal(["Anna", "Ben"], 200), by=user)
    measure("dk-pflichtsolo", meeting, user, dk_pflichtsolo)

    # A Ramsch round: Kontra lost (a Bock round), and Kontra lost again in it (Bock in Bock).
    league, user = _dk_league("dk-ramsch")
    meeting = meeting_for(league, NAMES)
    kontra = [{"party": "kontra", "call": "kontra"}]
    enter_hand(meeting=meeting, payload=_normal(["Anna", "Ben"], 130, kontra), by=user)
    enter_hand(meeting=meeting, payload=_normal(["Anna", "Ben"], 130, kontra), by=user)
    for _ in range(3):  # the rest of the Bock round (hands 2 to 5); hand 6 is Ramsch
        enter_hand(meeting=meeting, payload=_normal(["Anna", "Ben"], 130), by=user)
    measure("dk-ramsch", meeting, user, dk_ramsch)


@pytest.mark.django_db(transaction=True)
def test_taps_and_scrolls_for_a_race_game_hand(measure):
    league = LeagueFactory(name="Tysiąc", slug="taps-1000", game="thousand", variant="koenigsberg")
    user = member(league, Role.SCOREKEEPER, username="anna-1000", first_name="Anna")
    meeting = meeting_for(league, NAMES)
    measure("thousand", meeting, user, thousand)
    # The hand as the spec stores it: Anna deals and sits out; Königsberg's third bid is 10.
    assert meeting.hands.get().payload == {
        "declarer": "Ben",
        "bid": 10,
        "points": {"Ben": 70, "Carl": 30, "Dora": 20},
        "marriages": {"Ben": ["clubs"]},
    }

    league = LeagueFactory(name="Bruff", slug="taps-45", game="forty_five", variant="bruff")
    user = member(league, Role.SCOREKEEPER, username="anna-45", first_name="Anna")
    measure(
        "forty-five", meeting_for(league, NAMES, teams={"A": ["Anna", "Carl"], "B": ["Ben", "Dora"]}), user, forty_five
    )

    league = LeagueFactory(name="110", slug="taps-110", game="one_ten", variant="standard")
    user = member(league, Role.SCOREKEEPER, username="anna-110", first_name="Anna")
    meeting = meeting_for(league, ["Anna", "Ben", "Carl"])
    measure("one-ten", meeting, user, one_ten)
    assert meeting.hands.get().payload == {
        "bidder": "Anna",
        "bid": 20,
        "tricks": ["Ben", "Anna", "Anna", "Anna", "Anna"],
        "top_trump_trick": 2,
    }
    league = LeagueFactory(name="110 b", slug="taps-110-split", game="one_ten", variant="standard")
    user = member(league, Role.SCOREKEEPER, username="anna-110-split", first_name="Anna")
    meeting = meeting_for(league, ["Anna", "Ben", "Carl"])
    measure("one-ten-split", meeting, user, one_ten_split)
    assert meeting.hands.get().payload["tricks"] == ["Anna", "Anna", "Ben", "Anna", "Carl"]


@pytest.mark.django_db(transaction=True)
def test_taps_and_scrolls_for_a_hand_of_the_other_games(measure):
    league = LeagueFactory(name="Auction", slug="taps-auction", game="auction_45", variant="barker")
    user = member(league, Role.SCOREKEEPER, username="anna-auction", first_name="Anna")
    meeting = meeting_for(league, NAMES)
    measure("auction-45", meeting, user, auction_45)
    assert meeting.hands.get().payload["tricks"] == ["Anna", "Anna", "Anna", "Ben", "Anna"]

    league = LeagueFactory(name="25", slug="taps-25", game="twenty_five", variant="standard")
    user = member(league, Role.SCOREKEEPER, username="anna-25", first_name="Anna")
    meeting = meeting_for(league, NAMES)
    measure("twenty-five", meeting, user, tricks_won(["Anna", "Carl", "Anna", "Dora", "Dora"]))
    assert meeting.hands.get().payload == {"tricks": ["Anna", "Carl", "Anna", "Dora", "Dora"]}

    league = LeagueFactory(name="Spoil Five", slug="taps-spoil-five", game="spoil_five", variant="standard")
    user = member(league, Role.SCOREKEEPER, username="anna-spoil", first_name="Anna")
    meeting = meeting_for(league, NAMES + ["Emil"])
    measure("spoil-five", meeting, user, tricks_won(["Anna", "Ben", "Anna", "Carl", "Anna"]))
    assert meeting.hands.get().payload["tricks"][:5] == ["Anna", "Ben", "Anna", "Carl", "Anna"]

    league = LeagueFactory(name="56", slug="taps-56", game="fifty_six", variant="seed")
    user = member(league, Role.SCOREKEEPER, username="anna-56", first_name="Anna")
    meeting = meeting_for(league, NAMES + ["Emil", "Fritz"])
    measure("fifty-six", meeting, user, fifty_six)
    stored = meeting.hands.get().payload
    assert [stored[key] for key in ("bidder", "bid", "trump", "bidder_team_points")] == ["Dora", 28, "diamonds", 20]
