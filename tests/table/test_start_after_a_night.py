"""Starting the next evening after a club night (docs/decisions.md, "Club nights": the next
evening): the open-evening notice names a table still open, the pennant goes to the night's
winner, and "as last time" seats the table the host due sat at.

Doppelkopf, club rules (a normal game Re wins at 131 eyes is 1 point). Table 1: Anna, Ben,
Carl, Dora; Ben and Dora win all four games: Ben +4, Dora +4. Table 2: Emil, Fritz, Gabi,
Hans; Fritz and Gabi win three, Fritz and Hans one: Fritz +4, Gabi +2. Combined by points
Ben and Fritz are level at 4; the tie goes to the lower table: Ben wins the night."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Player, Role
from leagues.seasons import selectors as season_selectors
from leagues.table import meetings, night_selectors, services
from leagues.table import selectors as table_selectors
from tests.factories import LeagueFactory, member, night_for

pytestmark = pytest.mark.django_db

FIRST = ["Anna", "Ben", "Carl", "Dora"]
SECOND = ["Emil", "Fritz", "Gabi", "Hans"]
NOW = datetime.datetime(2026, 11, 20, 23, 0, tzinfo=timezone.get_current_timezone())


def won_by(*re):
    return {"kind": "normal", "re": list(re), "re_eyes": 131, "announcements": [], "specials": []}


@pytest.fixture
def league():
    return LeagueFactory(game="doppelkopf", variant="club")


@pytest.fixture
def keeper(league):
    user = member(league, Role.SCOREKEEPER, first_name="Keeper")
    Player.objects.filter(user=user).update(active=False)  # the scorekeeper does not play
    return user


@pytest.fixture
def tables(league, keeper):
    night = night_for(league, [FIRST, SECOND], host="Emil")
    first, second = night.tables.order_by("table_number")
    for _ in range(4):
        services.enter_hand(meeting=first, payload=won_by("Ben", "Dora"), by=keeper, now=NOW)
    for payload in (won_by("Fritz", "Gabi"),) * 3 + (won_by("Fritz", "Hans"),):
        services.enter_hand(meeting=second, payload=payload, by=keeper, now=NOW)
    return first, second


def start_page(client, league, keeper, **query):
    client.force_login(keeper)
    return client.get(reverse("meeting_start", kwargs={"slug": league.slug}), query)


def test_the_notice_names_a_table_still_open(client, league, keeper, tables):
    """Decision 2: the last evening is the night; its open table is named and linked."""
    first, second = tables
    meetings.close_meeting(meeting=second, user=keeper, now=NOW)
    page = start_page(client, league, keeper)
    assert page.context["open_evening"].pk == first.pk
    html = page.content.decode()
    assert "still open at table 1" in html
    assert reverse("meeting", kwargs={"slug": league.slug, "pk": first.pk}) in html
    assert page.context["form"].initial["pennant_holder"] is None  # no winner yet


def test_the_pennant_goes_to_the_nights_winner(client, league, keeper, tables):
    """Decision 2: the next evening's pennant holder is the night's winner, not a table's."""
    first, second = tables
    meetings.close_meeting(meeting=first, user=keeper, now=NOW)
    meetings.close_meeting(meeting=second, user=keeper, now=NOW)
    page = start_page(client, league, keeper)
    assert page.context["open_evening"] is None
    assert page.context["form"].initial["pennant_holder"] == Player.objects.get(league=league, name="Ben").pk
    assert table_selectors.suggested_pennant_holder(league=league).name == "Ben"


def test_as_last_time_seats_the_table_the_host_due_sat_at(client, league, keeper, tables):
    """Decision 2: "as last time" after a night is the host due's table, from him; the bench
    lists the night's players table after table."""
    host = season_selectors.suggested_host(league=league)
    table = FIRST if host.name in FIRST else SECOND
    start = table.index(host.name)
    page = start_page(client, league, keeper)
    assert [p.name for p in page.context["same_table"]] == table[start:] + table[:start]
    bench = [p.name for p in page.context["bench"]]
    assert bench[: len(FIRST + SECOND) - 1] == [name for name in FIRST + SECOND if name != host.name]


def test_last_tables_are_the_nights_tables_in_order(league, tables):
    """Decision 2: the seats of the last evening, table by table."""
    names = dict(Player.objects.filter(league=league).values_list("pk", "name"))
    assert [[names[pk] for pk in table] for table in night_selectors.last_evening(league=league).tables] == [
        FIRST,
        SECOND,
    ]
