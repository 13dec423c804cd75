"""Nothing in the way at the table: every game's hand form on the meeting page, at 390x844 and
360x780 in German, in the states a club's walk found controls out of reach.

For each state:

- the controls of the quickest hand (``path``: tapped in order, as a thumb would) are each on
  the screen and not covered before they are tapped, with no scroll (for the race games: the
  first of them; their trick rows may be a scroll away), and no tap moves the page (a tapped
  chip takes the focus, and the browser scrolls a focused control out of the bars' padding);
- every control of the form, scrolled into view from above and from below (as the browser
  scrolls to a focused field), is on the screen and not covered: ``elementFromPoint`` at its
  centre is the control (or inside it), not the sticky save bar, the top bar or anything else;
- nothing is wider than the screen, no chip's name is cut off, and the top bar is one line.

Screenshots: test-artifacts/screenshots/layout-<state>-<width>.png (from the top, as the
phone shows the form before the first tap)."""

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from leagues.models import Player, Role
from leagues.table.replay import calculate_meeting
from leagues.table.services import enter_hand
from tests.browser.conftest import SHOTS
from tests.factories import LeagueFactory, meeting_for, member

PHONES = {390: {"width": 390, "height": 844}, 360: {"width": 360, "height": 780}}
FOUR = ["Anna", "Ben", "Carl", "Dora"]
LONG = ["Friederike", "Maximilian", "Carl", "Dora", "Emil", "Fritz"]

# The page's own check of one control: None when it is on the screen and the topmost thing at
# its centre, else what is wrong.
HIT = """
function describe(el) {
  if (!el) return 'nothing';
  let s = el.tagName.toLowerCase();
  if (el.id) s += '#' + el.id;
  if (el.className && typeof el.className === 'string') s += '.' + el.className.trim().split(/\\s+/).join('.');
  const up = el.closest('.sticky-save, .topbar, header, .next-card');
  return up && up !== el ? s + ' in ' + up.className : s;
}
function name(el) {
  return (el.getAttribute('name') || '') + ' ' + (el.value && el.tagName === 'INPUT' ? el.value + ' ' : '')
    + (el.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 30);
}
function hit(el) {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return 'not shown';
  if (r.left < -0.5 || r.right > innerWidth + 0.5 || r.top < -0.5 || r.bottom > innerHeight + 0.5)
    return 'off screen (' + Math.round(r.left) + ',' + Math.round(r.top) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height) + ')';
  const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!at || !el.contains(at)) return 'covered by ' + describe(at);
  return null;
}
// Before a tap: the whole control in sight, its top and bottom edges too (3 px in).
function whole(el) {
  const wrong = hit(el);
  if (wrong) return wrong;
  const r = el.getBoundingClientRect();
  for (const y of [r.top + 3, r.bottom - 3]) {
    const at = document.elementFromPoint(r.left + r.width / 2, y);
    if (!at || !el.contains(at)) return 'partly covered by ' + describe(at);
  }
  return null;
}
"""

CONTROLS = """
function controls() {
  const form = document.querySelector('#hand-form');
  return Array.from(form.querySelectorAll('label.chip, button, summary, input:not([type=hidden]), select, textarea'))
    .filter(el => !el.matches('.chip input'))  // a chip's own input is hidden under it: the chip is the target
    .filter(el => el.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true}));
}
"""


def _problems(page):
    """Every control of the form scrolled into view from above and from below: what is off the
    screen or covered. Scrolls back to the top."""
    return page.evaluate(
        "() => {"
        + HIT
        + CONTROLS
        + """
        const out = [];
        const bottom = () => document.documentElement.scrollHeight;
        for (const el of controls()) {
          for (const [from, start] of [['above', () => 0], ['below', bottom]]) {
            window.scrollTo({top: start(), behavior: 'instant'});
            el.scrollIntoView({block: 'nearest', inline: 'nearest', behavior: 'instant'});
            const wrong = hit(el);
            if (wrong) { out.push(name(el) + ' (scrolled to from ' + from + '): ' + wrong); break; }
          }
        }
        window.scrollTo({top: 0, behavior: 'instant'});
        return out;
    }"""
    )


def _cut_off(page):
    """Chips and buttons of the form whose text does not fit them (cut with an ellipsis or
    hidden past their edge), the sheet's header aside (short names there are by design)."""
    return page.evaluate(
        "() => {"
        + HIT
        + CONTROLS
        + """
        const names = Array.from(document.querySelectorAll('#hand-form .hf-name > span'))
          .filter(el => el.checkVisibility());
        return controls().filter(el => el.matches('label.chip, button')).concat(names)
          .filter(el => el.scrollWidth > el.clientWidth + 1)
          .map(el => name(el) + ' ' + el.clientWidth + '<' + el.scrollWidth);
    }"""
    )


def _at_rest(page, locator):
    """What is wrong with ``locator`` on the screen as it is (no scroll): off the screen, or
    covered at its centre or at its top or bottom edge; None when all of it is in sight."""
    return locator.evaluate("el => {" + HIT + "return whole(el); }")


def _top_bar_lines(page):
    """How many lines the top bar's links take (its items' distinct tops)."""
    return page.evaluate(
        """() => new Set(Array.from(document.querySelectorAll('.topbar a, .topbar button'))
            .filter(el => el.getClientRects().length)
            .map(el => Math.round(el.getBoundingClientRect().top / 8))).size"""
    )


@pytest.fixture
def german(browser):
    """german(width): a new German phone of that width (nothing kept from the last one)."""
    contexts = []

    def phone(width):
        context = browser.new_context(viewport=PHONES[width], locale="de-DE")
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield phone
    for context in contexts:
        context.close()


def _league(slug, game, variant, names):
    league = LeagueFactory(name=f"Runde {slug}", slug=slug, game=game, variant=variant)
    user = member(league, Role.SCOREKEEPER, username=f"s-{slug}", first_name=names[0])
    for name in names[1:]:
        Player.objects.get_or_create(league=league, name=name)
    return league, user


def _normal(re, re_eyes):
    return {"kind": "normal", "re": list(re), "re_eyes": re_eyes, "announcements": []}


def chip(name, value):
    return f'#hand-form label.chip:has(input[name="{name}"][value="{value}"])'


# --- the states: (game, variant, players, setup of the meeting, taps before the check, path) ---
# ``before``: selectors tapped to reach the state (each must be reachable without a scroll
# when ``path_no_scroll``); ``path``: the controls of the quickest hand from there.


def _dk_hands(meeting, user, payloads):
    """Store ``payloads``; a Doppelkopf hand without Re players has the first two who play it."""
    for payload in payloads:
        if payload.get("kind") == "normal" and not payload["re"]:
            active = calculate_meeting(meeting)["next"]["active"]
            payload = {**payload, "re": active[:2]}
        enter_hand(meeting=meeting, payload=payload, by=user)


def _yesterday():
    return timezone.localdate() - datetime.timedelta(days=1)


STATES = {
    "dk-normal": dict(
        game="doppelkopf",
        names=FOUR,
        path=['#hand-form [data-re-pair="Anna|Ben"]', '#hand-form [data-bracket-eyes="121"]'],
    ),
    "dk-normal-hand-3": dict(
        game="doppelkopf",
        names=FOUR,
        hands=[_normal(["Anna", "Ben"], 130), _normal(["Carl", "Ben"], 100)],
        path=['#hand-form [data-re-pair="Anna|Ben"]', '#hand-form [data-bracket-eyes="121"]'],
    ),
    "dk-solo": dict(
        game="doppelkopf",
        names=FOUR,
        path=[
            chip("kind", "solo"),
            chip("solo", "damen"),
            chip("re", "Carl"),
            '#hand-form [data-bracket-eyes="121"]',
        ],
    ),
    # Re won 200 : 40 without a call: the Pflichtsolo round starts with hand 2.
    "dk-pflichtsolo": dict(
        game="doppelkopf",
        names=FOUR,
        hands=[_normal(["Anna", "Ben"], 200)],
        path=[chip("solo", "buben"), '#hand-form [data-bracket-eyes="121"]'],
    ),
    "dk-end-time": dict(
        game="doppelkopf",
        names=FOUR,
        meeting={"end_time": datetime.time(20, 0), "date": _yesterday},
        hands=[_normal(["Anna", "Ben"], 130), _normal(["Carl", "Ben"], 100)],
        path=['#hand-form [data-re-pair="Anna|Ben"]', '#hand-form [data-bracket-eyes="121"]'],
    ),
    "dk-six-long-names": dict(
        game="doppelkopf",
        names=LONG,
        meeting={"end_time": datetime.time(20, 0), "date": _yesterday},
        hands=[_normal([], 130)],
        path=["#hand-form .dk-pairs [data-re-pair]", '#hand-form [data-bracket-eyes="121"]'],
    ),
    "thousand": dict(
        game="thousand",
        variant="koenigsberg",
        names=FOUR,
        path=[chip("declarer", "Ben"), "#hand-form [data-bid-quick]"],
        race=True,
    ),
    "thousand-hand-2": dict(
        game="thousand",
        variant="koenigsberg",
        names=FOUR,
        hands=[
            {
                "declarer": "Ben",
                "bid": 10,
                "points": {"Ben": 70, "Carl": 30, "Dora": 20},
                "marriages": {"Ben": ["clubs"]},
            }
        ],
        path=[chip("declarer", "Carl"), "#hand-form [data-bid-quick]"],
        race=True,
    ),
    "thousand-long-names": dict(
        game="thousand",
        variant="koenigsberg",
        names=LONG[:4],
        path=[chip("declarer", "Maximilian"), "#hand-form [data-bid-quick]"],
        race=True,
    ),
    "one-ten-long-names": dict(
        game="one_ten",
        variant="standard",
        names=LONG[:4],
        path=["#hand-form [data-bid-by] .hf-bidrow >> nth=-1 >> .hf-bids label.chip >> nth=-1"],
        race=True,
    ),
    "one-ten-hand-2": dict(
        game="one_ten",
        variant="standard",
        names=["Anna", "Ben", "Carl", "Dora", "Emil"],
        hands=[{"bidder": "Anna", "bid": 20, "tricks": ["Ben", "Anna", "Anna", "Anna", "Anna"], "top_trump_trick": 2}],
        path=["#hand-form [data-bid-by] .hf-bidrow >> nth=-1 >> .hf-bids label.chip >> nth=-1"],
        race=True,
    ),
    "auction-45-hand-2": dict(
        game="auction_45",
        variant="barker",
        names=FOUR,
        hands=[{"maker": "Anna", "bid": 20, "tricks": ["Anna", "Anna", "Anna", "Ben", "Anna"], "top_trump_trick": 1}],
        path=["#hand-form [data-bid-by] .hf-bidrow >> nth=-1 >> .hf-bids label.chip >> nth=-1"],
        race=True,
    ),
    "fifty-six": dict(
        game="fifty_six",
        variant="seed",
        names=LONG,
        hands=[{"bidder": "Dora", "bid": 28, "trump": "diamonds", "double": 0, "bidder_team_points": 20}],
        path=["#hand-form label.chip:has(input[name=bidder])"],
        race=True,
    ),
    "twenty-five": dict(
        game="twenty_five",
        variant="standard",
        names=FOUR,
        hands=[{"tricks": ["Anna", "Carl", "Anna", "Dora", "Dora"]}],
        path=[chip("trick_1", "Dora")],
        race=True,
    ),
    "forty-five-teams": dict(
        game="forty_five",
        variant="bruff",
        names=FOUR,
        meeting={"teams": {"A": ["Anna", "Carl"], "B": ["Ben", "Dora"]}},
        hands=[{"tricks": ["A", "B", "A", "B", "B"], "top_trump_trick": 4}],
        path=[chip("trick_1", "B")],
        race=True,
    ),
    "spoil-five": dict(
        game="spoil_five",
        variant="standard",
        names=LONG[:5],
        hands=[{"tricks": ["Friederike", "Carl", "Friederike", "Dora", "Dora"]}],
        path=[chip("trick_1", "Emil")],
        race=True,
    ),
}
VARIANTS = {"doppelkopf": "club"}


def _meeting(slug, state):
    game = state["game"]
    league, user = _league(slug, game, state.get("variant") or VARIANTS[game], state["names"])
    extra = dict(state.get("meeting") or {})
    if callable(extra.get("date")):
        extra["date"] = extra["date"]()
    meeting = meeting_for(league, state["names"], **extra)
    _dk_hands(meeting, user, state.get("hands", ()))
    return meeting, user


def _walk(page, state, width):
    """Tap the path's controls in order: what was not reachable without a scroll, and a tap
    that moved the page (the browser scrolling a focused control out of the bars' padding)."""
    wrong = []
    for number, selector in enumerate(state["path"]):
        target = page.locator(selector).first
        expect(target).to_be_attached()
        problem = _at_rest(page, target)
        if problem and (number == 0 or not state.get("race")):
            wrong.append(f"{selector} at {width} px: {problem}")
        if problem:
            target.scroll_into_view_if_needed()
        at = page.evaluate("scrollY")
        target.click()
        moved = page.evaluate("scrollY") - at
        if moved:  # the tap focused something the browser scrolled to: the page jumps
            wrong.append(f"{selector} at {width} px: the page moved {moved} px on the tap")
    return wrong


@pytest.mark.parametrize("name", list(STATES))
@pytest.mark.django_db(transaction=True)
def test_every_control_of_the_hand_form_is_on_the_screen_and_not_covered(german, live_server, login, name):
    state = STATES[name]
    meeting, user = _meeting(name, state)
    wrong = []
    for width in PHONES:
        page = german(width)
        login(page, user)
        page.goto(live_server.url + meeting.get_absolute_url())
        page.wait_for_selector("#hand-form")
        page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
        page.screenshot(path=str(SHOTS / f"layout-{name}-{width}.png"))
        if _top_bar_lines(page) != 1:
            wrong.append(f"the top bar wraps at {width} px")
        wrong += [f"at {width} px, before: {p}" for p in _problems(page)]
        wrong += _walk(page, state, width)
        page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
        page.screenshot(path=str(SHOTS / f"layout-{name}-{width}-filled.png"))
        wrong += [f"at {width} px, filled: {p}" for p in _problems(page)]
        wrong += [f"cut off at {width} px: {p}" for p in _cut_off(page)]
        overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        if overflow > 0:
            wrong.append(f"{overflow} px wider than the screen at {width} px")
    assert wrong == [], "\n".join(wrong)


@pytest.mark.django_db(transaction=True)
def test_the_notice_of_a_hand_entered_meanwhile_comes_into_sight(german, live_server, login):
    """Another phone saved hand 1 while this one was filling it in: the answer's notice above
    the form is brought into sight, below the top bar, not left above the screen."""
    meeting, user = _meeting("conflict-notice", {"game": "doppelkopf", "names": FOUR})
    page = german(390)
    login(page, user)
    page.goto(live_server.url + meeting.get_absolute_url())
    page.locator('#hand-form [data-re-pair="Anna|Ben"]').click()
    page.locator('#hand-form [data-bracket-eyes="121"]').click()
    enter_hand(meeting=meeting, payload=_normal(["Carl", "Dora"], 150), by=user)
    page.evaluate("window.scrollTo({top: document.documentElement.scrollHeight, behavior: 'instant'})")
    page.locator("#hand-form button[type=submit]").click()
    notice = page.locator("#at-table .alert-conflict")
    expect(notice).to_contain_text("Spiel 1")
    page.wait_for_timeout(300)
    assert _at_rest(page, notice) is None
