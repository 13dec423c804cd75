"""A league changed in the admin goes through the rules its settings page keeps: the house
rules are checked by the engine's own option checks, the rule set is one of its game's, and
the game and the public link stay as the app made them."""

import json

import pytest

from leagues.models import League
from tests.admin_site.conftest import admin_url, change_form
from tests.factories import LeagueFactory


@pytest.fixture
def league(db):
    return LeagueFactory(game="doppelkopf", variant="club", rule_overrides={"announcement_points": 2})


def change(boss, league, **fields):
    data = change_form(boss.get(admin_url("league", league.pk, "change")))
    data.update(fields)
    return boss.post(admin_url("league", league.pk, "change"), data)


def test_it_refuses_house_rules_out_of_range_naming_the_option(boss, league):
    response = change(boss, league, rule_overrides=json.dumps({"announcement_points": 99}))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "rule_overrides" in errors and "announcement_points" in str(errors["rule_overrides"])
    assert League.objects.get(pk=league.pk).rule_overrides == {"announcement_points": 2}
    assert boss.get(league.get_absolute_url()).status_code == 200


@pytest.mark.parametrize(
    "rules",
    [
        {"no_such_option": 1},
        {"announcement_points": True},
        {"announcement_points": 2**40},
        {"special_points_in": "normal"},
        ["announcement_points", 2],
        "just words",
    ],
)
def test_it_refuses_house_rules_the_engine_refuses(boss, league, rules):
    response = change(boss, league, rule_overrides=json.dumps(rules))
    assert response.status_code == 200
    assert "rule_overrides" in response.context["adminform"].form.errors
    assert League.objects.get(pk=league.pk).rule_overrides == {"announcement_points": 2}
    assert boss.get(league.get_absolute_url()).status_code == 200


def test_it_refuses_a_rule_set_the_game_does_not_have(boss, league):
    response = change(boss, league, variant="no-such-preset")
    assert response.status_code == 200
    assert "variant" in response.context["adminform"].form.errors
    assert League.objects.get(pk=league.pk).variant == "club"
    assert boss.get(league.get_absolute_url()).status_code == 200


def test_it_saves_house_rules_the_engine_accepts(boss, league):
    response = change(boss, league, variant="ddv", rule_overrides=json.dumps({"announcement_points": 3}))
    assert response.status_code == 302
    league.refresh_from_db()
    assert (league.variant, league.rule_overrides) == ("ddv", {"announcement_points": 3})
    assert boss.get(league.get_absolute_url()).status_code == 200


def test_the_game_and_the_public_link_cannot_be_changed(boss, league):
    league.public_token = "a" * 32
    league.save()
    page = boss.get(admin_url("league", league.pk, "change"))
    assert 'name="game"' not in page.content.decode() and 'name="public_token"' not in page.content.decode()
    data = change_form(page)
    response = boss.post(admin_url("league", league.pk, "change"), {**data, "game": "thousand", "public_token": "x"})
    assert response.status_code == 302
    league.refresh_from_db()
    assert (league.game, league.public_token) == ("doppelkopf", "a" * 32)
    assert boss.get(league.get_absolute_url()).status_code == 200


def test_an_emptied_house_rules_field_is_the_preset_as_it_is(boss, league):
    assert change(boss, league, rule_overrides="").status_code == 302
    assert League.objects.get(pk=league.pk).rule_overrides == {}
    assert change(boss, league, rule_overrides="null").status_code == 302
    assert League.objects.get(pk=league.pk).rule_overrides == {}
    assert boss.get(league.get_absolute_url()).status_code == 200


def test_leagues_are_not_added_in_the_admin(boss, db):
    assert boss.get(admin_url("league", "add")).status_code == 403
