"""The league page: a change of the house rules, the seasons, the recent evenings and the
players an invite may name show at once, in either language."""

import datetime
import re

import pytest
from django.utils import timezone

from leagues.clubs import services as clubs_services
from leagues.models import Role
from leagues.seasons import services as seasons_services
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db


def rules_part(html):
    return re.search(r'<div id="rules-part">.*?</fieldset>\s*</div>', html, re.S).group(0)


def fuchs_value(html):
    return re.search(r'name="rule-fuchs_last_trick_points"[^>]*value="(\d+)"', rules_part(html)).group(1)


def test_changed_house_rules_show_at_once(client):
    league = LeagueFactory(game="doppelkopf", variant="club")
    client.force_login(member(league, Role.ADMIN))
    first = client.get(league.get_absolute_url()).content.decode()
    assert fuchs_value(first) == "2"  # the club preset's value
    assert rules_part(client.get(league.get_absolute_url()).content.decode()) == rules_part(first)
    league.rule_overrides = {"fuchs_last_trick_points": 3}
    league.save()
    changed = client.get(league.get_absolute_url()).content.decode()
    assert fuchs_value(changed) == "3"


def test_the_rules_form_in_either_language(client):
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
    seasons_services.close_season(season=season, user=admin)
    html = seasons_list(client.get(league.get_absolute_url()).content.decode())
    assert '<span class="badge">closed</span>' in html
    seasons_services.reopen_season(season=season, user=admin, reason="A hand was wrong")
    english = seasons_list(client.get(league.get_absolute_url()).content.decode())
    assert "badge done" in english and '<span class="badge">closed</span>' not in english
    german = seasons_list(client.get(league.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode())
    assert "Saison 1" in german and "Season 1" not in german


def meetings_list(html):
    return re.search(r'<section class="card" id="meetings">.*?</section>', html, re.S).group(0)


def invite_fields(html):
    form = re.search(r'<form method="post" action="[^"]*/invites/new/".*?</form>', html, re.S).group(0)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", form)


def test_the_recent_meetings_show_a_renamed_host_at_once(client):
    league = LeagueFactory(game="doppelkopf", variant="club")
    client.force_login(member(league, Role.MEMBER))
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"], date=datetime.date(2026, 3, 6))
    html = meetings_list(client.get(league.get_absolute_url()).content.decode())
    assert "at Anna's · Season 1" in html and f"/m/{meeting.pk}/" in html and "Fri 6 Mar 2026" in html
    meeting.host.name = "Annabel"
    meeting.host.save()
    html = meetings_list(client.get(league.get_absolute_url()).content.decode())
    assert "at Annabel's" in html and "at Anna's" not in html
    german = meetings_list(client.get(league.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode())
    assert "bei Annabel · Saison 1" in german and "Fr, 6. Mär 2026" in german


def test_the_invite_form_offers_a_new_player_at_once_and_not_one_who_joined(client):
    league = LeagueFactory(game="doppelkopf", variant="club")
    admin = member(league, Role.ADMIN)
    client.force_login(admin)
    assert ">Zora<" not in invite_fields(client.get(league.get_absolute_url()).content.decode())
    zora = clubs_services.add_player(league=league, name="Zora")
    html = invite_fields(client.get(league.get_absolute_url()).content.decode())
    assert f'<option value="{zora.pk}">Zora</option>' in html
    zora.user = member(LeagueFactory(), Role.MEMBER)
    zora.save()
    html = invite_fields(client.get(league.get_absolute_url()).content.decode())
    assert ">Zora<" not in html


def test_a_refused_invite_shows_its_errors(client):
    league = LeagueFactory(game="doppelkopf", variant="club")
    client.force_login(member(league, Role.ADMIN))
    url = f"/l/{league.slug}/invites/new/"
    response = client.post(url, {"invite-role": "emperor"})
    assert response.status_code == 400
    assert "field-error" in invite_fields(response.content.decode())


def test_an_open_invite_leaves_the_list_when_it_expires(client):
    league = LeagueFactory(game="doppelkopf", variant="club")
    admin = member(league, Role.ADMIN)
    client.force_login(admin)
    invite = clubs_services.create_invite(league=league, role=Role.MEMBER, player=None, user=admin)
    assert invite.token in client.get(league.get_absolute_url()).content.decode()
    later = invite.expires_at + datetime.timedelta(seconds=1)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(timezone, "now", lambda: later)
        assert invite.token not in client.get(league.get_absolute_url()).content.decode()
