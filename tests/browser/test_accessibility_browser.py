"""axe-core finds nothing to fault on any page kind, on a phone (390x844) and a desktop
(1280x800), in light and in dark mode (``prefers-color-scheme``), in German.

axe-core is vendored (static/vendor/axe-*.min.js, MPL-2.0) and put into each page by the test
alone: no served page loads it. Every rule axe runs by default counts (WCAG 2.x A and AA and
axe's best practices), whatever its impact, and the check that an accessible name holds the
visible text (``label-content-name-mismatch``) besides; in dark mode, where only the colours
differ, the rules that read colours. Each page is loaded once per size and checked in light
mode, then in dark mode (the colour scheme switched in place, as a phone switches it at dusk).
A failure lists each violation with the elements it found."""

from pathlib import Path

import pytest

from tests.browser.a11y_club import build_club, pages
from tests.browser.conftest import PHONE, SHOTS
from tests.factories import PASSWORD

AXE = next((Path(__file__).resolve().parents[2] / "static" / "vendor").glob("axe-*.min.js"))
DESKTOP = {"width": 1280, "height": 800}
# Pages saved as screenshots (test-artifacts/screenshots/a11y-*.png) to look at the colours.
SHOWN = {
    "Liga": "league",
    "Doppelkopf Abend": "dk-evening",
    "Tabelle": "standings",
    "Statistik": "statistics",
    "thousand Abend": "1000-evening",
}

# Every rule in light mode; in dark mode only the colours change, so only the rules that read
# colours run again (the same pages, the same structure).
ALL_RULES = {"rules": {"label-content-name-mismatch": {"enabled": True}}}
COLOUR_RULES = {"runOnly": {"type": "rule", "values": ["color-contrast", "link-in-text-block"]}}
RUN_AXE = """async (options) => {
  const result = await axe.run(document, options);
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
    nodes: v.nodes.slice(0, 6).map(n => n.target.join(" ") + " :: " + (n.failureSummary || "").replace(/\\s+/g, " ")),
  }));
}"""


def axe_violations(page, options):
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text())
    return page.evaluate(RUN_AXE, options)


def describe(found):
    lines = []
    for (name, path), violations in found.items():
        lines.append(f"{name} ({path}):")
        for v in violations:
            lines.append(f"  [{v['impact']}] {v['id']} x{v['count']}: {v['help']}")
            lines += [f"      {node}" for node in v["nodes"]]
    return "\n".join(lines)


def sign_in(page, url, user):
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{url}/")


# In an entry form, what shows after a tap is checked too: each kind of game (Doppelkopf), and
# a race game's form with the first free chip of each group tapped (a declarer or bidder, a bid).
FORM_STATES = """() => {
  const form = document.querySelector("#hand-form");
  if (!form) return [];
  const kinds = Array.from(form.querySelectorAll("input[name=kind]")).map(i => "kind=" + i.value);
  return kinds.length ? kinds : ["first chips"];
}"""
TAP_STATE = """(state) => {
  const form = document.querySelector("#hand-form");
  if (state.startsWith("kind=")) {
    form.querySelector(`input[name=kind][value="${state.slice(5)}"]`).closest("label").click();
    return;
  }
  const seen = new Set();
  form.querySelectorAll("label.chip > input[type=radio]:not(:disabled)").forEach(input => {
    if (seen.has(input.name)) return;
    seen.add(input.name);
    input.closest("label").click();
  });
}"""


def in_both_schemes(page, name, path, found, *, shot=None):
    """axe on what the page shows now: every rule in light mode, then the colour rules in dark
    mode; back to light after. ``shot``: the screenshot's name, taken in each scheme."""
    for scheme, options in (("light", ALL_RULES), ("dark", COLOUR_RULES)):
        page.emulate_media(color_scheme=scheme)
        violations = axe_violations(page, options)
        if violations:
            found[f"{name} ({scheme})", path] = violations
        if shot:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"{shot}-{scheme}.png"), full_page=True)
    page.emulate_media(color_scheme="light")


def form_states(page, name, found):
    states = page.evaluate(FORM_STATES)
    for state in states:
        page.evaluate(TAP_STATE, state)
        page.wait_for_timeout(50)
        in_both_schemes(page, f"{name} · {state}", page.url, found)


def walk(browser, url, club, viewport):
    context = browser.new_context(viewport=viewport, locale="de-DE", color_scheme="light")
    context.set_default_timeout(15_000)
    page = context.new_page()
    found, signed_in = {}, False
    try:
        for name, path, member in pages(club):
            if member and not signed_in:
                sign_in(page, url, club["user"])
                signed_in = True
            page.goto(url + path)  # waits for the load event: every script has run
            # Folded sections (house rules, members, the forms) are checked unfolded.
            page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
            shot = f"a11y-{SHOWN[name]}-{viewport['width']}" if name in SHOWN else None
            in_both_schemes(page, name, path, found, shot=shot)
            if name.endswith("Abend"):
                form_states(page, name, found)
    finally:
        context.close()
    return found


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_axe_finds_no_violation_on_any_page(live_server, browser, viewport):
    club = build_club()
    found = walk(browser, live_server.url, club, viewport)
    counts = {}
    for violations in found.values():
        for v in violations:
            counts[v["impact"]] = counts.get(v["impact"], 0) + v["count"]
    assert not found, f"axe-core at {viewport['width']} px: {counts}\n{describe(found)}"
