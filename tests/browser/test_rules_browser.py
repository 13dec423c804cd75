"""The house rules page on a phone (390 px), in German, through the public link: it fits the
screen, breaks no Content-Security-Policy rule, and shows the worked examples' figures."""

import pytest

from tests.factories import LeagueFactory

# Records every CSP violation the browser reports, before any script of the page runs.
WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


@pytest.mark.django_db(transaction=True)
def test_the_rules_read_on_a_phone_in_german(live_server, browser, shot):
    LeagueFactory(name="Stammtisch Kreuz-Dame", public_token="h" * 32, rule_overrides={"solo_point": False})
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    context.add_init_script(WATCH)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/p/{'h' * 32}/house-rules/")
        assert page.locator("h1").count() == 1
        solo = page.locator("#rule-solo_point")
        assert "Ein Solo zählt einen Punkt mehr" in solo.inner_text()  # docs/rules/doppelkopf.de.md
        assert solo.locator(".badge.changed").count() == 1
        # without the solo point a Damensolo won with 130 eyes is worth 1, the soloist ×3
        assert "Anna +3 · Ben −1 · Carl −1 · Dora −1" in solo.inner_text()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px phone"
        assert page.evaluate("window.__csp") == []
        shot(page, "house-rules-phone-de")
    finally:
        context.close()
