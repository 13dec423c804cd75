"""The standings page: who may see it and what it shows."""

import datetime

import pytest
from django.urls import reverse
from django.utils import translation

from leagues import games
from leagues.models import Role
from scoring.registry import game_names
from tests.factories import LeagueFactory, member
from tests.stats.test_standings_queries import FIVE, played, two_meetings

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    league = LeagueFactory(name="Stammtisch Kreuz-Dame")
    two_meetings(league)
    return league


def url(league, **query):
    base = reverse("standings", kwargs={"slug": league.slug})
    return base + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_it_sends_an_anonymous_visitor_to_log_in(client, league):
    response = client.get(url(league))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("role", [Role.MEMBER, Role.SCOREKEEPER, Role.ADMIN])
def test_it_shows_the_season_to_every_member(client, league, role):
    client.force_login(member(league, role))
    response = client.get(url(league))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Stammtisch Kreuz-Dame" in page
    assert "season-chart-data" in page
    assert "chart-4.6.1.umd.min.js" in page
    table = response.context["s"].table
    assert [(r.player.name, r.total) for r in table][:2] == [("Ben", 5), ("Anna", 1)]


def test_it_hides_a_league_from_a_member_of_another_league(client, league):
    client.force_login(member(LeagueFactory()))
    response = client.get(url(league))
    assert response.status_code == 404
    assert "not a member of its league" in response.content.decode()  # the site's page, not Django's


def test_it_shows_the_running_totals_as_chart_data(client, league):
    client.force_login(member(league))
    response = client.get(url(league))
    chart = response.context["s"].chart
    assert {d["label"]: d["data"][-1] for d in chart["datasets"]} == {
        "Anna": 1,
        "Ben": 5,
        "Carl": 0,
        "Dora": -6,
        "Emil": 0,
    }


def test_it_shows_who_hosts_next(client, league):
    client.force_login(member(league))
    page = client.get(url(league)).content.decode()
    assert "Host rotation" in page
    assert "<b>Emil</b>" in page.split("Next host")[1]


def test_it_picks_a_season(client, league):
    played(
        league, datetime.date(2026, 4, 1), FIVE, [{"Ben": -3, "Carl": 1, "Dora": 1, "Emil": 1, "solo": "Ben"}], season=2
    )
    client.force_login(member(league))
    assert client.get(url(league)).context["s"].season.number == 2
    response = client.get(url(league, season=1))
    assert response.context["s"].season.number == 1
    assert "All time" in response.content.decode()


def test_an_unknown_season_is_a_404(client, league):
    client.force_login(member(league))
    assert client.get(url(league, season=9)).status_code == 404


@pytest.mark.parametrize("season", ["x", "1.5", "%20"])
def test_a_season_that_is_not_a_number_is_a_400_with_a_message(client, league, season):
    client.force_login(member(league))
    response = client.get(url(league, season=season))
    assert response.status_code == 400
    assert "is not a season number" in response.content.decode()
    response = client.get(reverse("public_standings", kwargs={"token": "t" * 32}) + "?season=x")
    assert response.status_code == 404  # no such public link: nothing said about seasons


def test_a_complete_season_offers_the_bill_and_names_who_chooses(client, league):
    league.seasons.update(closed_on=datetime.date(2026, 2, 13))
    client.force_login(member(league))
    page = client.get(url(league)).content.decode()
    assert reverse("season_bill", kwargs={"slug": league.slug, "number": 1}) in page
    assert "chooses the restaurant" in page


def test_a_league_without_meetings_has_a_friendly_page(client):
    league = LeagueFactory()
    client.force_login(member(league, Role.ADMIN))
    response = client.get(url(league))
    assert response.status_code == 200
    assert "No meeting yet" in response.content.decode()


def test_a_race_game_ranks_by_games_won(client):
    league = LeagueFactory(game="forty_five", variant="bruff")
    played(
        league,
        datetime.date(2026, 1, 9),
        ["Xaver", "Yusuf", "Zoe"],
        [{"Xaver": 45, "Yusuf": 10, "Zoe": 50, "games": {"Xaver": 1}}],
    )
    client.force_login(member(league))
    response = client.get(url(league))
    assert [r.player.name for r in response.context["s"].table][0] == "Xaver"
    assert "Points" in response.content.decode()
    assert "Solos" not in response.content.decode()  # 45 has no soloists


def test_a_doppelkopf_table_counts_solos(client, league):
    client.force_login(member(league))
    assert "Solos" in client.get(url(league)).content.decode()


def test_which_games_are_races_and_have_the_pennant_is_asked_of_scoring():
    # calculate-api.md: start_totals belong to the race games; compulsory_solos to Doppelkopf.
    races = {game for game in game_names() if games.is_race_game(game)}
    assert races == {"twenty_five", "forty_five", "one_ten", "auction_45", "thousand"}
    assert [game for game in game_names() if games.has_pennant(game)] == ["doppelkopf"]


# --- an evening copied from paper as totals has no games behind it ---------------------------


def average_cells(page):
    """Each row's name and its last figure before ★ (the Ø column) of the season's table."""
    import re

    table = page.split('<table class="standings-table">', 2)[1]
    rows = re.findall(r'<th scope="row">\s*(.*?)\s*</th>(.*?)</tr>', table, re.S)
    return {name: re.findall(r"<td[^>]*>(.*?)</td>", cells, re.S)[-2] for name, cells in rows}


@pytest.mark.parametrize("role", [Role.MEMBER, Role.ADMIN])
def test_a_player_without_games_has_a_dash_for_his_average_not_zero(client, role):
    from leagues.exchange import paper_import
    from tests.exchange.test_paper_import import TOTALS

    league = LeagueFactory(public_token="p" * 32)
    user = member(league, role)
    paper_import.run(league=league, kind="totals", text=TOTALS, user=user, commit=True)
    client.force_login(user)
    for address in (url(league), reverse("public_standings", kwargs={"token": "p" * 32})):
        page = client.get(address, HTTP_ACCEPT_LANGUAGE="de").content.decode()
        translation.deactivate()  # the request's German stays in this thread: not handed on
        averages = average_cells(page)
        # Two evenings of totals, no game played here: Ann's +30 is no "0,00 per game".
        assert averages["Ann"] == "–" and averages["Ben"] == "–"
        assert "0,00" not in page


def test_the_standings_of_a_paper_league_are_hidden_from_outsiders(client):
    from leagues.exchange import paper_import
    from tests.exchange.test_paper_import import TOTALS

    league = LeagueFactory()
    paper_import.run(league=league, kind="totals", text=TOTALS, user=member(league, Role.ADMIN), commit=True)
    assert client.get(url(league)).status_code == 302
    client.force_login(member(LeagueFactory()))
    assert client.get(url(league)).status_code == 404
