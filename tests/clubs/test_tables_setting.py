"""How a league combines the tables of a club night (docs/decisions.md, "Club nights":
decision 5): chosen in the house rules ("Several tables") by an admin only, copied into a
night as it starts, said in words in the rule book (the league's, a night table's own), and
listed among the rule changes on the activity page."""

import pytest
from django.urls import reverse

from leagues.clubs import services
from leagues.exceptions import InvalidInput
from leagues.models import Combine, Role
from tests.factories import LeagueFactory, member, night_for

pytestmark = pytest.mark.django_db


def rules_post(client, league, **night):
    """The house rules form as the page posts it: the game's options unchanged, the tables'
    way given (none: the section left out, as an older page posts)."""
    page = client.get(league.get_absolute_url())
    data = {"variant": league.variant}
    for field in page.context["rules_form"]:
        value = field.value()
        if isinstance(value, list):
            data[field.html_name] = value
        elif value is True:
            data[field.html_name] = "on"
        elif value not in (None, False):
            data[field.html_name] = value
    data.update({f"night-{name}": value for name, value in night.items()})
    return client.post(reverse("rules_edit", kwargs={"slug": league.slug}), data)


@pytest.fixture
def league():
    return LeagueFactory(slug="tische")


@pytest.fixture
def admin(client, league):
    user = member(league, Role.ADMIN)
    client.force_login(user)
    return user


def test_the_admin_chooses_placings_and_the_next_night_keeps_them(client, league, admin):
    """Decision 5: saved by the house rules form; a night started after copies it."""
    page = client.get(league.get_absolute_url()).content.decode()
    assert 'name="night-combine_tables"' in page
    response = rules_post(client, league, combine_tables="placings")
    assert response.status_code == 302
    league.refresh_from_db()
    assert league.combine_tables == Combine.PLACINGS
    night = night_for(league, [["Anna", "Ben", "Carl", "Dora"], ["Emil", "Fritz", "Gabi", "Hans"]])
    assert night.combine == Combine.PLACINGS


def test_a_post_without_the_section_keeps_the_leagues_way(client, league, admin):
    """Decision 5: an older page's post leaves the choice alone."""
    league.combine_tables = Combine.PER_GAME
    league.save(update_fields=["combine_tables"])
    assert rules_post(client, league).status_code == 302
    league.refresh_from_db()
    assert league.combine_tables == Combine.PER_GAME


def test_an_unknown_way_is_a_400_on_its_field(client, league, admin):
    """Decision 5: bad input names the field, never a 500."""
    response = rules_post(client, league, combine_tables="dice")
    assert response.status_code == 400
    assert response.context["tables_form"].errors["combine_tables"]
    league.refresh_from_db()
    assert league.combine_tables == Combine.POINTS


def test_the_service_refuses_an_unknown_way_naming_the_field(league):
    """Decision 5: the service's own check, for callers other than the form."""
    with pytest.raises(InvalidInput) as raised:
        services.change_rules(league=league, variant=league.variant, rule_overrides={}, combine_tables="dice")
    assert raised.value.errors[0]["field"] == "combine_tables"


@pytest.mark.parametrize("role", [Role.MEMBER, Role.SCOREKEEPER])
def test_only_an_admin_may_change_it(client, league, role):
    """Decision 5: who may not."""
    client.force_login(member(league, role))
    response = client.post(reverse("rules_edit", kwargs={"slug": league.slug}), {"night-combine_tables": "placings"})
    assert response.status_code == 403
    league.refresh_from_db()
    assert league.combine_tables == Combine.POINTS


def test_the_rule_book_says_the_leagues_way_in_words(client, league):
    """Decision 5: every member reads it, the way in force marked."""
    league.combine_tables = Combine.PER_GAME
    league.save(update_fields=["combine_tables"])
    client.force_login(member(league))
    html = client.get(reverse("league_rules", kwargs={"slug": league.slug})).content.decode()
    assert 'id="several-tables"' in html
    assert "<strong>points per game played</strong>" in html
    assert "<strong>Points per game played:" in html and "<strong>Placing at the table:" not in html


def test_a_night_tables_rule_book_says_the_nights_own_way(client, league):
    """Decision 5: a night keeps the way it was started with, whatever the league chose since."""
    night = night_for(league, [["Anna", "Ben", "Carl", "Dora"], ["Emil", "Fritz", "Gabi", "Hans"]])
    league.combine_tables = Combine.PLACINGS
    league.save(update_fields=["combine_tables"])
    client.force_login(member(league))
    table = night.tables.first()
    html = client.get(reverse("meeting_rules", kwargs={"slug": league.slug, "pk": table.pk})).content.decode()
    assert "<strong>points as scored</strong>" in html


def test_the_activity_lists_the_change(client, league, admin):
    """Decision 5: the change shows among the house rules' changes."""
    rules_post(client, league, combine_tables="placings")
    html = client.get(reverse("league_activity", kwargs={"slug": league.slug})).content.decode()
    assert "Tables combined by" in html and "placing at the table" in html
