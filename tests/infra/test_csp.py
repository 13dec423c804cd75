"""The Content-Security-Policy: scripts only from our own origin, so no inline <script>, no
inline event handler (onclick=, onsubmit=, hx-on) and no eval anywhere. Checked three ways:
the header itself, every template's source, and the pages as the server renders them (which
takes in the templates of Django's admin, DRF and drf-spectacular too). That the pages still
work under the policy in a real browser is tests/browser/test_csp_browser.py."""

import datetime
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from leagues.models import Invite, Role
from leagues.table import services
from tests.factories import LeagueFactory, UserFactory, meeting_for, member
from tests.stats.test_standings_queries import two_meetings

TEMPLATES = Path(settings.BASE_DIR) / "templates"
HAND = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}


def policy(response):
    header = response["Content-Security-Policy"]
    directives = {}
    for part in header.split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


class InlineCode(HTMLParser):
    """Collects what the policy would block: inline scripts (a <script> without src that is not
    JSON data), event handler attributes, hx-on attributes and javascript: URLs."""

    def __init__(self):
        super().__init__()
        self.found = []
        self._script = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and "src" not in attrs and attrs.get("type") != "application/json":
            self._script = ""
        for name, value in attrs.items():
            if re.fullmatch(r"on[a-z]+", name) or name.startswith(("hx-on", "data-hx-on")):
                self.found.append(f"<{tag} {name}=…>")
            if name in {"href", "action", "src", "formaction"} and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.found.append(f"<{tag} {name}={value}>")

    def handle_data(self, data):
        if self._script is not None:
            self._script += data

    def handle_endtag(self, tag):
        if tag == "script" and self._script is not None:
            self.found.append(f"<script>{self._script.strip()[:60]}</script>")
            self._script = None


def inline_code(html):
    parser = InlineCode()
    parser.feed(html)
    return parser.found


# --- the header ------------------------------------------------------------------------------------


def test_every_page_gets_a_policy_that_allows_scripts_from_our_origin_only(client, db):
    for path in (reverse("home"), reverse("login"), "/api/docs/", "/admin/login/"):
        directives = policy(client.get(path))
        assert directives["script-src"] == ["'self'"], path
        assert directives["object-src"] == ["'none'"] and directives["base-uri"] == ["'none'"]
        assert directives["frame-ancestors"] == ["'none'"]
        assert directives["default-src"] == ["'self'"]
        for value in ("'unsafe-inline'", "'unsafe-eval'"):
            assert value not in directives["script-src"] and value not in directives["default-src"]


def test_the_api_docs_start_script_is_a_file_of_its_own(client, db):
    html = client.get("/api/docs/").content.decode()
    assert '<script src="/api/docs/?script="></script>' in html
    assert inline_code(html) == []
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()


def htmx_config(html):
    """htmx reads the first <meta name="htmx-config"> only: there must be exactly one."""
    configs = re.findall(r"<meta name=\"htmx-config\" content='([^']*)'>", html)
    assert len(configs) == 1
    return json.loads(configs[0])


def test_htmx_runs_without_eval_and_without_its_own_styles(client, db):
    config = htmx_config(client.get(reverse("login")).content.decode())
    assert config == {"allowEval": False, "includeIndicatorStyles": False}
    css = (Path(settings.BASE_DIR) / "static" / "css" / "kartenliga.css").read_text()
    assert ".htmx-request .htmx-indicator" in css


def test_the_meeting_page_adds_its_swaps_to_the_one_htmx_config(client, db):
    league = LeagueFactory()
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"])
    client.force_login(member(league, Role.SCOREKEEPER))
    config = htmx_config(client.get(meeting.get_absolute_url()).content.decode())
    assert config["allowEval"] is False and config["includeIndicatorStyles"] is False
    # The hand form's problems (400) and a conflict's refreshed table (409) are swapped in.
    swapped = {rule["code"] for rule in config["responseHandling"] if rule["swap"]}
    assert {"400", "409"} <= swapped


# --- every template's source --------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_no_template_has_inline_code(path):
    assert inline_code(path.read_text()) == []


def test_the_scan_finds_what_it_looks_for():
    html = """<script>alert(1)</script><script src="/x.js"></script><script type="application/json">{}</script>
    <button onclick="go()">x</button><a hx-on::after-request="x()">y</a><a href="javascript:void(0)">z</a>"""
    assert inline_code(html) == [
        "<script>alert(1)</script>",
        "<button onclick=…>",
        "<a hx-on::after-request=…>",
        "<a href=javascript:void(0)>",
    ]


# --- the pages as rendered ------------------------------------------------------------------------------


@pytest.fixture
def pages(client, db):
    """Every kind of page of a league with a meeting, a closed season, invites and a public link."""
    league = LeagueFactory(slug="dk", public_token="p" * 32)
    admin = member(league, Role.ADMIN, first_name="Anna", is_staff=True, is_superuser=True)
    Invite.objects.create(league=league, role=Role.MEMBER, created_by=admin)
    two_meetings(league)
    league.seasons.update(closed_on=datetime.date(2026, 2, 13))
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora", "Emil"], date=datetime.date(2026, 3, 6))
    hand = services.enter_hand(meeting=meeting, payload=HAND, by=admin, number=1).hand
    client.force_login(admin)
    kw = {"slug": league.slug}
    m = {**kw, "pk": meeting.pk}
    return [
        reverse("home"),
        reverse("league_create"),
        reverse("league", kwargs=kw),
        reverse("meeting_start", kwargs=kw),
        reverse("meeting", kwargs=m),
        reverse("hand_why", kwargs={**m, "hand_pk": hand.pk}),
        reverse("hand_edit", kwargs={**m, "hand_pk": hand.pk}),
        reverse("meeting_history", kwargs=m),
        reverse("standings", kwargs=kw),
        reverse("season_bill", kwargs={**kw, "number": 1}) + "?total=100&method=equal",
        reverse("public_standings", kwargs={"token": "p" * 32}),
        "/api/docs/",
        "/api/v1/leagues/?format=api",
        "/admin/",
        f"/admin/leagues/league/{league.pk}/change/",
    ]


def test_no_rendered_page_has_inline_code(client, pages):
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        assert inline_code(response.content.decode()) == [], path


def test_no_page_for_visitors_has_inline_code(client, db):
    UserFactory(username="anna")
    for path in (reverse("home"), reverse("login")):
        assert inline_code(client.get(path).content.decode()) == [], path
    locked = None
    for _ in range(settings.AXES_FAILURE_LIMIT):
        locked = client.post(reverse("login"), {"username": "anna", "password": "wrong"})
    assert locked.status_code == 429 and inline_code(locked.content.decode()) == []
