"""What if (issue 10 §4): a season recomputed read-only under other rules, beside the season as
played; nothing stored changes.

Doppelkopf, club rules, four players hosting in turn (as in test_season_closing). Each evening:
three plain wins of Anna and Carl (131 eyes, no calls: gewonnen 1, DDV 7.2.2 (a)), then Ben and
Dora win with "Re" said: gewonnen 1 + Re 2 (club: announcement_points 2) = 3.
As played, per evening: Anna, Carl +3 −3 = 0; Ben, Dora −3 +3 = 0.
With Re and Kontra worth 1: Ben and Dora −3 + 2 = −1, Anna and Carl +1 per evening.
"""

import datetime
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.models import HandResult, Player, Role
from leagues.seasons import selectors
from leagues.seasons import services as seasons_services
from leagues.seasons.what_if import season_what_if
from leagues.table import services as table_services
from tests.factories import LeagueFactory, meeting_for, member

FOUR = ["Anna", "Ben", "Carl", "Dora"]
HOSTS = [FOUR[i:] + FOUR[:i] for i in range(4)]
DATES = [datetime.date(2026, 1, 9), datetime.date(2026, 2, 13), datetime.date(2026, 3, 13), datetime.date(2026, 4, 10)]
ANNA_CARL = {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 131}
BEN_DORA_RE = {
    "kind": "normal",
    "re": ["Ben", "Dora"],
    "re_eyes": 131,
    "announcements": [{"party": "re", "call": "re"}],
}


@pytest.fixture
def league(db):
    return LeagueFactory(game="doppelkopf", variant="club")


@pytest.fixture
def people(league):
    people = {role: member(league, role) for role in (Role.ADMIN, Role.SCOREKEEPER, Role.MEMBER)}
    Player.objects.filter(league=league, user__isnull=False).update(active=False)
    return people


@pytest.fixture
def season(league, people):
    keeper = people[Role.SCOREKEEPER]
    for number in range(4):
        meeting = meeting_for(league, HOSTS[number], date=DATES[number], end_time=datetime.time(22, 0))
        for payload in (ANNA_CARL, ANNA_CARL, ANNA_CARL, BEN_DORA_RE):
            table_services.enter_hand(meeting=meeting, payload=payload, by=keeper)
    return meeting.season


def totals(table):
    return {row.player.name: row.total for row in table}


def test_under_its_own_rules_it_equals_the_stored_standings(season):
    result = season_what_if(season=season, variant="club", overrides={})
    stored = selectors.season_table(season=season)
    assert totals(result.played) == totals(result.what_if) == totals(stored) == dict.fromkeys(FOUR, 0)
    assert [(r.player.name, r.rank, r.wins) for r in result.played] == [(r.player.name, r.rank, r.wins) for r in stored]
    assert all(not e.changes and not e.problem for e in result.evenings)


def test_re_worth_one_point_changes_the_standings_and_nothing_stored(season):
    before = list(HandResult.objects.order_by("id").values_list("id", "delta", "total"))
    with CaptureQueriesContext(connection) as queries:
        result = season_what_if(season=season, variant="club", overrides={"announcement_points": 1})
    # (A statement sent for each of a few rows at once is logged as "5 times: INSERT ...".)
    verbs = [re.sub(r"^\d+ times: ", "", q["sql"]).split()[0].upper() for q in queries]
    writes = [verb for verb in verbs if verb in ("INSERT", "UPDATE", "DELETE")]
    assert writes == []
    assert list(HandResult.objects.order_by("id").values_list("id", "delta", "total")) == before
    # Four evenings: Anna and Carl +4, Ben and Dora −4; as played all 0.
    assert totals(result.what_if) == {"Anna": 4, "Carl": 4, "Ben": -4, "Dora": -4}
    assert totals(result.played) == dict.fromkeys(FOUR, 0)
    assert [(e.meeting.date, e.changes) for e in result.evenings][0] == (
        DATES[0],
        [("Anna", 0, 1), ("Ben", 0, -1), ("Carl", 0, 1), ("Dora", 0, -1)],
    )


def url(league, number=1):
    return reverse("season_what_if", kwargs={"slug": league.slug, "number": number})


def test_who_may_ask_what_if(client, season, people):
    assert client.get(url(season.league)).status_code == 302  # anonymous: to log in
    client.force_login(member(LeagueFactory(), Role.ADMIN))
    assert client.get(url(season.league)).status_code == 404
    client.force_login(people[Role.MEMBER])
    response = client.get(url(season.league))
    assert response.status_code == 200
    assert 'name="rule-announcement_points"' in response.content.decode()
    assert client.post(url(season.league)).status_code == 405


def test_the_page_shows_both_tables_and_the_stored_bill_split_by_both(client, season, people):
    # 100 € by points at 10 cents: as played everyone 0, so 25.00 each; what if: mean 0,
    # Anna and Carl 25 − 0.40 = 24.60, Ben and Dora 25.40.
    seasons_services.settle_bill(
        season=season, bill={"total": "100.00", "method": "per_point", "cents_per_point": "10"}, user=people[Role.ADMIN]
    )
    client.force_login(people[Role.MEMBER])
    response = client.get(url(season.league), {"variant": "club", "rule-announcement_points": "1"})
    assert response.status_code == 200, response.context["rules_form"].errors
    rows = {
        r["what_if"].player.name: (r["played"].total, r["what_if"].total) for r in response.context["result"].rows()
    }
    assert rows == {"Anna": (0, 4), "Carl": (0, 4), "Ben": (0, -4), "Dora": (0, -4)}
    bill = {name: (Decimal(a), Decimal(b)) for name, a, b in response.context["bill"]}
    assert bill == {
        "Anna": (Decimal("25.00"), Decimal("24.60")),
        "Carl": (Decimal("25.00"), Decimal("24.60")),
        "Ben": (Decimal("25.00"), Decimal("25.40")),
        "Dora": (Decimal("25.00"), Decimal("25.40")),
    }
    # Read-only: the stored bill is what it was.
    assert season.bills.current().get().shares == dict.fromkeys(["Anna", "Ben", "Carl", "Dora"], "25.00")


def test_a_bad_option_is_a_400_naming_the_field(client, season, people):
    client.force_login(people[Role.MEMBER])
    response = client.get(url(season.league), {"variant": "club", "rule-announcement_points": "lots"})
    assert response.status_code == 400
    assert "announcement_points" in response.context["rules_form"].errors


def test_a_season_without_an_evening_is_a_404(client, league, people):
    league.seasons.create(number=1, started_on=DATES[0])
    client.force_login(people[Role.MEMBER])
    assert client.get(url(league)).status_code == 404
