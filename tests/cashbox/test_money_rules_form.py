"""A league's money rules: off by default, edited in the house rules form (the rate in the
page's language), copied into each meeting as it starts, shown in the rule book."""

import pytest
from django.urls import reverse

from leagues.models import Role
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db

DK_RULES = None  # the doppelkopf club preset's values, as the form posts them


def rules_post(client, league, **money):
    """The house rules form as the page posts it: the game's options unchanged, the money ones given."""
    page = client.get(league.get_absolute_url())
    form = page.context["rules_form"]
    data = {"variant": league.variant}
    for field in form:
        value = field.value()
        if isinstance(value, list):
            data[field.html_name] = value
        elif value is True:
            data[field.html_name] = "on"
        elif value not in (None, False):
            data[field.html_name] = value
    money_form = page.context["money_form"]
    for field in money_form:
        data[field.html_name] = field.value()
    data.update({f"money-{k}": v for k, v in money.items()})
    return client.post(reverse("rules_edit", kwargs={"slug": league.slug}), data, HTTP_ACCEPT_LANGUAGE="de")


@pytest.fixture
def league():
    return LeagueFactory(slug="geld")


@pytest.fixture
def admin(client, league):
    user = member(league, Role.ADMIN)
    client.force_login(user)
    return user


def test_money_rules_are_off_by_default_and_meetings_copy_none(league):
    assert league.money_rules == {}
    meeting = meeting_for(league, ["Anna", "Ben", "Cem", "Dora"])
    assert meeting.money_rules is None


def test_the_admin_sets_five_cents_a_point_in_german(client, league, admin):
    response = rules_post(client, league, per_point="between_players", rate="0,05", per_lost_solo="50")
    assert response.status_code == 302, response.content.decode()[:2000]
    league.refresh_from_db()
    assert league.money_rules == {"per_point": "between_players", "rate": "5", "per_lost_solo": 50}
    meeting = meeting_for(league, ["Anna", "Ben", "Cem", "Dora"])
    assert meeting.money_rules["rate"] == "5" and meeting.money_rules["per_game"] == 0
    # The form shows it back the German way.
    page = client.get(league.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de")
    assert page.context["money_form"]["rate"].value() == "0,05"


def test_cents_with_a_unit_are_read_too(client, league, admin):
    assert rules_post(client, league, per_point="cashbox_minus", rate="2,5 ct").status_code == 302
    league.refresh_from_db()
    assert league.money_rules == {"per_point": "cashbox_minus", "rate": "2.5"}


@pytest.mark.parametrize(
    ("money", "field", "words"),
    [
        ({"per_point": "between_players", "rate": "1.234"}, "rate", "1.234"),
        ({"per_point": "between_players", "rate": "0,00"}, "rate", "0,05"),
        ({"per_point": "between_players", "rate": "zehn"}, "rate", "zehn"),
        ({"per_game": "-5"}, "per_game", None),
        ({"per_game": "100001"}, "per_game", None),
        ({"per_point": "to_the_moon"}, "per_point", None),
    ],
)
def test_bad_money_rules_are_refused_on_their_field(client, league, admin, money, field, words):
    response = rules_post(client, league, **money)
    assert response.status_code == 400
    errors = response.context["money_form"].errors
    assert field in errors
    if words:
        assert words in " ".join(errors[field])
    league.refresh_from_db()
    assert league.money_rules == {}


def test_a_post_without_the_money_section_keeps_the_money_rules(client, league, admin):
    league.money_rules = {"per_evening": 200}
    league.save()
    response = client.post(reverse("rules_edit", kwargs={"slug": league.slug}), {"variant": "club"})
    league.refresh_from_db()
    assert league.money_rules == {"per_evening": 200}, response.status_code


def test_the_rule_book_shows_the_money_rules_when_on(client, league, admin):
    url = reverse("league_rules", kwargs={"slug": league.slug})
    assert 'id="money"' not in client.get(url).content.decode()
    league.money_rules = {"per_point": "between_players", "rate": "2.5", "per_lost_solo": 50}
    league.save()
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="money"' in page and "0.025\u00a0€" in page and "0.50\u00a0€" in page
