"""The statistics' "won/lost in euros": each player's nets summed over the evenings counted
that were played for money, kept with the rest of the statistics; members only (the public
link has no statistics and shows no money).

Two evenings of test_settlement's hands at 5 cents a point between the players and 0,50 € a
lost solo: each evening Anna −0,10 €, Ben +0,10 €, Carl −0,30 € − 0,50 € = −0,80 €,
Dora +0,30 €. Over both: Anna −0,20 €, Ben +0,20 €, Carl −1,60 €, Dora +0,60 € (the cashbox
holds the other 1,00 €). A third evening, played before money was on, adds nothing.

A 45 evening (test_match_stakes, teams): Aoife and Ciara +4,60 €, Brian and Dónal −4,60 €.
"""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from leagues.models import Player, Role
from leagues.stats import statistics
from tests.cashbox.test_match_stakes import A, B, C, D, closed_race_evening
from tests.cashbox.test_settlement import MONEY, closed_evening
from tests.factories import LeagueFactory, member

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return LeagueFactory(slug="euro", public_token="e" * 32)


@pytest.fixture
def admin(league):
    user = member(league, Role.ADMIN)
    closed_evening(league, user, date=datetime.date(2026, 1, 2))  # no money yet
    league.money_rules = MONEY
    league.save()
    closed_evening(league, user, date=datetime.date(2026, 1, 9))
    closed_evening(league, user, date=datetime.date(2026, 1, 16))
    return user


def money(stats):
    return {p.player.name: (p.money_cents, p.money_evenings) for p in stats.players if p.money_evenings}


def test_the_nets_add_up_over_the_evenings_counted(league, admin):
    expected = {"Anna": (-20, 2), "Ben": (20, 2), "Carl": (-160, 2), "Dora": (60, 2)}
    first = statistics.league_statistics(league=league)
    assert money(first) == expected and first.money
    again = statistics.league_statistics(league=league)  # read from what was kept
    assert money(again) == expected
    season = league.seasons.get()
    assert money(statistics.league_statistics(league=league, season=season)) == expected
    assert money(statistics.compute_statistics(league=league)) == expected


def test_the_page_shows_the_column_in_german(client, league, admin):
    client.force_login(admin)
    url = reverse("league_statistics", kwargs={"slug": league.slug})
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    card = page[page.index('id="stats-money"') :]
    assert '+<span class="money">0,60\u00a0€</span>' in card
    assert "1,60\u00a0€" in card and "0,20\u00a0€" in card


def test_a_league_without_money_has_no_column(client, db):
    league = LeagueFactory(slug="frei")
    user = member(league, Role.ADMIN)
    closed_evening(league, user)
    assert not statistics.league_statistics(league=league).money
    client.force_login(user)
    page = client.get(reverse("league_statistics", kwargs={"slug": league.slug})).content.decode()
    assert 'id="stats-money"' not in page


def test_a_race_evening_counts_its_games_and_robbers():
    meeting = closed_race_evening((A, B, C, D), {"A": [A, C], "B": [B, D]}, "AABABAAAB")
    stats = statistics.league_statistics(league=meeting.league)
    assert money(stats) == {A: (460, 1), B: (-460, 1), C: (460, 1), D: (-460, 1)}
    assert stats.of(stats.players[0].player.id).money == Decimal("4.60")


@pytest.mark.parametrize(("who", "status"), [("member", 200), ("stranger", 404), ("anonymous", 302)])
def test_who_sees_the_money_column(client, league, admin, who, status):
    user = {"member": member(league, Role.MEMBER), "stranger": member(LeagueFactory(), Role.ADMIN)}.get(who)
    if user is not None:
        client.force_login(user)
    response = client.get(reverse("league_statistics", kwargs={"slug": league.slug}))
    assert response.status_code == status
    assert ('id="stats-money"' in response.content.decode()) is (status == 200)


def test_the_public_link_shows_no_money(client, league, admin):
    for name, kwargs in (("public_standings", {}), ("public_season_report", {"number": 1})):
        page = client.get(reverse(name, kwargs={"token": league.public_token, **kwargs})).content.decode()
        assert "€" not in page and "stats-money" not in page and "season-money" not in page


def test_the_players_page_shows_his_tile(client, league, admin):
    client.force_login(admin)
    carl = Player.objects.get(league=league, name="Carl")
    url = reverse("player_statistics", kwargs={"slug": league.slug, "pk": carl.pk})
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    tile = page[page.index('id="stat-money"') :]
    assert "1,60\u00a0€" in tile[:300]
