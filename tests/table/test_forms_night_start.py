"""The form that starts a club night (leagues/table/night_forms.py): each player's table, a
table the game does not allow named by its number, the host first at his table."""

import pytest

from leagues.models import Player
from leagues.table.night_forms import NightStartForm
from tests.factories import LeagueFactory

pytestmark = pytest.mark.django_db

NINE = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz", "Gabi", "Hans", "Ida"]


@pytest.fixture
def league():
    league = LeagueFactory(game="doppelkopf", variant="club")
    for name in NINE:
        Player.objects.create(league=league, name=name)
    return league


def form(league, tables, *, host="Anna", count=None):
    """The form posted with ``tables`` (names at each table, in seat order)."""
    by_name = {p.name: p for p in league.players.all()}
    data = {
        "players": [str(by_name[n].pk) for table in tables for n in table],
        "table_count": str(count or len(tables)),
        "host": str(by_name[host].pk),
        "date": "2026-11-27",
    }
    data.update({f"table_{by_name[n].pk}": str(i) for i, table in enumerate(tables, start=1) for n in table})
    active = list(league.players.order_by("name"))
    return NightStartForm(data, league=league, active_players=active)


def names(tables):
    return [[p.name for p in table] for table in tables]


def test_it_gives_the_tables_with_the_host_first_at_his(league):
    posted = form(league, [NINE[:5], NINE[5:]], host="Carl")
    assert posted.is_valid(), posted.errors
    assert names(posted.cleaned_data["tables"]) == [["Carl", "Dora", "Emil", "Anna", "Ben"], NINE[5:]]
    assert posted.cleaned_data["host"].name == "Carl"


def test_it_names_each_table_the_game_does_not_allow(league):
    posted = form(league, [NINE[:7], NINE[7:]])
    assert not posted.is_valid()
    assert posted.table_errors == {
        1: "Table 1: Doppelkopf needs 4 to 6 players at the table.",
        2: "Table 2: Doppelkopf needs 4 to 6 players at the table.",
    }
    assert posted.errors["tables"] == list(posted.table_errors.values())


def test_a_table_nobody_sits_at_is_left_out(league):
    posted = form(league, [NINE[:5], [], NINE[5:]])
    assert posted.is_valid(), posted.errors
    assert names(posted.cleaned_data["tables"]) == [NINE[:5], NINE[5:]]


def test_a_player_named_twice_is_refused(league):
    posted = form(league, [NINE[:5], [*NINE[5:], "Anna"]])
    assert not posted.is_valid()
    assert posted.errors["players"] == ["Each player can sit at one table only."]


def test_a_table_count_past_the_bound_is_a_stale_form(league):
    posted = form(league, [NINE[:5], NINE[5:]], count=31)
    assert not posted.is_valid()
    assert "table_count" in posted.errors
