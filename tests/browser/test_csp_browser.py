"""Every page still works under the Content-Security-Policy, in Chromium, and none of them
breaks it: each step below uses what a script on that page does (htmx, the hand forms, the why
dialog, the chart, copy and print, the seat picker, the short-name suggestion, Swagger UI),
and the test fails on any CSP violation or script error the browser reports."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from leagues.models import Hand, Invite, Meeting, Membership, Role
from tests.browser.doppelkopf_steps import enter_hand
from tests.factories import LeagueFactory, PlayerFactory, meeting_for, member
from tests.stats.test_standings_queries import two_meetings

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]

# Runs before any script of the page and outside its policy: records every violation the
# browser reports as an event, and stands in for the print dialog (headless has none).
WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + e.sourceFile + ":" + e.lineNumber);
});
window.__printed = 0;
window.print = function () { window.__printed += 1; };
"""


class Watch:
    """The console errors and page errors of one browser context, checked after each page."""

    def __init__(self, context):
        self.problems = []
        context.add_init_script(WATCH)
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        context.on("page", self.attach)
        for page in context.pages:
            self.attach(page)

    def attach(self, page):
        page.on("console", lambda m: self._console(page, m))
        page.on("pageerror", lambda error: self.problems.append(f"{page.url}: script error: {error}"))

    def _console(self, page, message):
        text = message.text
        if message.type == "error" and ("Content Security Policy" in text or "Refused to" in text):
            self.problems.append(f"{page.url}: {text}")

    def check(self, page):
        violations = page.evaluate("window.__csp")
        assert violations == [] and self.problems == [], violations + self.problems


@pytest.fixture
def watched(desktop):
    watch = Watch(desktop.context)
    return desktop, watch


@pytest.mark.django_db(transaction=True)
def test_the_pages_work_under_the_policy(live_server, watched, login):
    page, watch = watched
    url = live_server.url
    league = LeagueFactory(name="Stammtisch Grüner Baum", slug="dk", public_token="p" * 32)
    admin = member(league, Role.ADMIN, first_name="Anna", is_staff=True, is_superuser=True)
    for name in NAMES[1:]:
        PlayerFactory(league=league, name=name)
    Invite.objects.create(league=league, role=Role.MEMBER, created_by=admin)
    member(league, Role.MEMBER, first_name="Fritz")
    login(page, admin)
    expect(page.locator("h1")).to_be_visible()
    watch.check(page)

    # Create a league: the short name is suggested from the name as it is typed.
    page.goto(f"{url}/leagues/new/")
    page.fill("#id_name", "Skat am Dienstag")
    expect(page.locator("#id_slug")).to_have_value("skat-am-dienstag")
    watch.check(page)

    # Start a meeting: tapping players seats them, the arrows reorder them.
    page.goto(f"{url}/l/{league.slug}/meetings/new/")
    for name in NAMES[1:]:
        page.locator("#bench label.chip", has_text=name).click()
    page.locator("#seats li", has_text="Emil").locator("button[data-move=up]").click()
    expect(page.locator("#seats .seat-name")).to_have_text(["Anna", "Ben", "Carl", "Emil", "Dora"])
    page.locator("#seats li", has_text="Emil").locator("button[data-move=down]").click()
    page.fill("input[name=end_time]", "03:30")  # the next morning: never past while the test runs
    page.locator("button[type=submit]", has_text="Start the meeting").click()
    expect(page.locator("h2#next-title")).to_have_text("Next: hand 1")
    watch.check(page)
    meeting = Meeting.objects.get(league=league)

    # The Doppelkopf form: a result chip fills the eyes field (the chips replaced
    # the quick eye buttons), an announcement is added and removed again, then a hand is
    # saved through htmx.
    form = page.locator("#hand-form")
    form.locator('.dk-eyes [data-bracket-eyes="120"]').click()
    expect(form.locator("input[name=eyes]")).to_have_value("120")
    form.locator(".ann-re button[data-ann='re:re']").click()
    expect(form.locator(".ann-list li")).to_have_count(1)
    form.locator(".ann-list [data-ann-remove]").click()
    expect(form.locator(".ann-list li")).to_have_count(0)
    enter_hand(page, 1, ["Ben", "Dora"], 131, [("kontra", "kontra")])
    enter_hand(page, 2, ["Carl", "Dora"], 100)
    # A bad hand (no eyes): htmx swaps the form in with its problems (the page's htmx config).
    form.locator(".dk-party label.chip", has_text="Ben").click()
    form.locator("button[type=submit]").click()
    expect(page.locator("#hand-form .errorlist").first).to_be_visible()
    watch.check(page)

    # Why hand 1 scored what it did: htmx fills the dialog, and it opens.
    page.locator("#hand-1 th a").click()
    expect(page.locator("#why-dialog")).to_be_visible()
    expect(page.locator("#why")).to_contain_text("Kontra")
    watch.check(page)

    # Deleting asks first: "no" keeps the hand, "yes" deletes it.
    page.goto(f"{url}/l/{league.slug}/m/{meeting.pk}/h/{Hand.objects.get(meeting=meeting, position=2).pk}/")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.locator("button.danger", has_text="Delete").click()
    expect(page.locator("button.danger", has_text="Delete")).to_be_visible()
    assert Hand.objects.get(meeting=meeting, position=2).deleted_at is None
    questions = []
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.accept()))
    page.locator("button.danger", has_text="Delete").click()
    page.wait_for_url(re.compile(r"/m/\d+/"))
    expect(page.locator("h2#next-title")).to_be_visible()
    assert questions == ["Delete this hand? It can be restored later."]
    watch.check(page)

    # The league page: the copy buttons copy the links and say so; removing a member asks first.
    page.goto(f"{url}/l/{league.slug}/")
    button = page.locator("#invites button[data-copy]").first
    button.click()
    expect(button).to_have_text("Copied")
    link = page.locator("#invites input[data-select-on-click]").first.input_value()
    assert page.evaluate("navigator.clipboard.readText()") == link
    page.locator("#public-link button[data-copy]").click()
    expect(page.locator("#public-link button[data-copy]")).to_have_text("Copied")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.locator("li.member", has_text="Fritz").locator("button.danger").click()
    expect(page.locator("li.member", has_text="Fritz")).to_be_visible()
    watch.check(page)

    # Standings: Chart.js draws the season from the JSON block.
    page.goto(f"{url}/l/{league.slug}/standings/")
    page.wait_for_selector("#season-chart")
    page.wait_for_function("window.Chart && Chart.getChart(document.getElementById('season-chart')) !== undefined")
    watch.check(page)

    # The public page and the API docs: Swagger UI starts from its own script file.
    page.goto(f"{url}/p/{'p' * 32}/")
    expect(page.locator("h1")).to_be_visible()
    page.goto(f"{url}/api/docs/")
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible()
    assert page.locator(".swagger-ui .opblock").count() >= 8
    page.locator(".swagger-ui .opblock-summary", has_text="/api/v1/ping/").click()
    expect(page.locator(".swagger-ui .responses-table").first).to_be_visible()
    watch.check(page)

    # The admin, which has scripts of its own.
    page.goto(f"{url}/admin/leagues/league/{league.pk}/change/")
    expect(page.locator("#content h1")).to_be_visible()
    watch.check(page)


@pytest.mark.django_db(transaction=True)
def test_the_bill_prints_and_copies_under_the_policy(live_server, watched, login):
    page, watch = watched
    league = LeagueFactory(slug="bill")
    two_meetings(league)
    league.seasons.update(closed_on=datetime.date(2026, 2, 13))
    login(page, member(league, Role.ADMIN))
    page.goto(f"{live_server.url}/l/{league.slug}/seasons/1/bill/")
    page.fill("input[name=total]", "100")
    page.click(".bill-form button[type=submit]")
    page.wait_for_selector(".bill-result")
    page.locator("button[data-print]").click()
    assert page.evaluate("window.__printed") == 1
    copy = page.locator("button[data-copy-text]")
    copy.click()
    expect(copy).to_have_text("Link copied")
    assert page.evaluate("navigator.clipboard.readText()") == copy.get_attribute("data-copy-text")
    watch.check(page)


@pytest.mark.django_db(transaction=True)
def test_the_race_hand_forms_work_under_the_policy(live_server, watched, login):
    page, watch = watched
    pytest.importorskip("scoring.maw")
    thousand = LeagueFactory(slug="tysiac", game="thousand", variant="koenigsberg")
    user = member(thousand, Role.SCOREKEEPER, first_name="Anna")
    meeting = meeting_for(thousand, ["Anna", "Ben", "Carl"])
    login(page, user)
    page.goto(live_server.url + meeting.get_absolute_url())
    form = page.locator("[data-hand-form=thousand]")
    form.locator("[data-step='1']").click()  # the bid stepper starts at the lowest bid
    expect(form.locator("[data-contract]")).not_to_have_text("")
    expect(form.locator("[data-sum]")).to_contain_text("Σ 0")
    watch.check(page)

    # A Maw game (25, everyone for himself): the trick tally, and undoing the last trick.
    maw = LeagueFactory(slug="maw", game="twenty_five", variant="standard")
    Membership.objects.create(league=maw, user=user, role=Role.SCOREKEEPER)
    meeting = meeting_for(maw, ["Anna", "Ben", "Carl", "Dora"])
    page.goto(live_server.url + meeting.get_absolute_url())
    page.locator('label.chip:has(input[name="trick_1"])').first.click()
    expect(page.locator("[data-tally]")).not_to_have_text("")
    page.click("[data-undo-trick]")
    expect(page.locator("[data-tally]")).to_have_text("")
    watch.check(page)
