"""The league page keeps its house rules form rendered by what it shows (issue 12,
views/leagues.py ``_rules_html``): a change of the house rules shows at once, in either
language, and the kept form is the form rendered afresh."""

import datetime
import re

import pytest
from django.core.cache import caches

from leagues import fragments, services
from leagues.models import Role
from tests.factories import LeagueFactory, meeting_for, member
from tests.test_sheet_fragments import empty_cache  # noqa: F401 (autouse: no row kept from another test)

pytestmark = pytest.mark.django_db


def rules_part(html):
    return re.search(r'<div id="rules-part">.*?</fieldset>\s*</div>', html, re.S).group(0)


def fuchs_value(html):
    return re.search(r'name="rule-fuchs_last_trick_points"[^>]*value="(\d+)"', rules_part(html)).group(1)


def test_changed_house_rules_show_at_once_and_as_rendered_afresh(client):
    league = LeagueFactory(game="doppelkopf", variant="club")
    client.force_login(member(league, Role.ADMIN))
    first = client.get(league.get_absolute_url()).content.decode()
    assert fuchs_value(first) == "2"  # the club preset's value
    assert rules_part(client.get(league.get_absolute_url()).content.decode()) == rules_part(first)
    league.rule_overrides = {"fuchs_last_trick_points": 3}
    league.save()
    changed = client.get(league.get_absolute_url()).content.decode()
    assert fuchs_value(changed) == "3"
    kept = rules_part(changed)
    caches[fragments.CACHE].clear()
    assert rules_part(client.get(league.get_absolute_url()).content.decode()) == kept


def test_the_kept_form_is_kept_per_language(client):
    league = LeagueFactory(game="doppelkopf", variant="club")
    client.force_login(member(league, Role.ADMIN))
    english = rules_part(client.get(league.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode())
    german = rules_part(client.get(league.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode())
    assert "Options" in english and "Optionen" in german and "Options<" not in german


def test_a_member_gets_no_rules_form(client):
    league = LeagueFactory(game="doppelkopf", variant="club")
    client.force_login(member(league, Role.MEMBER))
    assert 'id="rules-part"' not in client.get(league.get_absolute_url()).content.decode()


def seasons_list(html):
    return re.search(r'<section class="card" id="seasons">.*?</section>', html, re.S).group(0)


def test_closing_and_reopening_a_season_shows_at_once(client):
    league = LeagueFactory(game="doppelkopf", variant="club")
    admin = member(league, Role.ADMIN)
    client.force_login(admin)
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"], date=datetime.date(2026, 3, 6))
    html = seasons_list(client.get(league.get_absolute_url()).content.decode())
    assert "badge open" in html and "the bill" not in html
    season = meeting.season
    season.closed_on = datetime.date(2026, 3, 6)  # complete: everyone hosted (set here)
    season.save()
    html = seasons_list(client.get(league.get_absolute_url()).content.decode())
    assert "badge done" in html and "the bill" in html and "6 Mar 2026 – 6 Mar 2026" in html
    services.close_season(season=season, user=admin)
    html = seasons_list(client.get(league.get_absolute_url()).content.decode())
    assert '<span class="badge">closed</span>' in html
    services.reopen_season(season=season, user=admin, reason="A hand was wrong")
    english = seasons_list(client.get(league.get_absolute_url()).content.decode())
    assert "badge done" in english and '<span class="badge">closed</span>' not in english
    german = seasons_list(client.get(league.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode())
    assert "Saison 1" in german and "Season 1" not in german
    caches[fragments.CACHE].clear()
    assert seasons_list(client.get(league.get_absolute_url()).content.decode()) == english
