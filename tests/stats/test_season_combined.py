"""A season counts each evening by its combined score (leagues/ranking.py ``EveningScores``,
docs/decisions.md "Club nights"): a club night by its own way, an evening at one table as a
night of one table under the league's way. Figures worked out by hand.

The season: club Doppelkopf, where a normal game won by Re at 131 eyes is worth 1 (Re +1
each, Kontra −1 each).

- 6 Nov, one table (Anna, Ben, Carl, Dora), two hands: Anna and Ben win, Anna and Carl win:
  Anna +2, Ben 0, Carl 0, Dora −2, two games each.
- 20 Nov, a club night of two tables. Table 1 (Anna, Ben, Carl, Dora), one hand: Ben and Dora
  win: Ben +1, Dora +1, Anna −1, Carl −1, one game each. Table 2 (Emil, Fritz, Gabi, Hans),
  three hands: Emil and Fritz win twice, Emil and Gabi once: Emil +3, Fritz +1, Gabi −1,
  Hans −3, three games each.

The points as scored: Anna 1, Ben 1, Carl −1, Dora −1, Emil 3, Fritz 1, Gabi −1, Hans −3.
"""

import datetime
from fractions import Fraction

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from leagues.models import ClubNight, Combine, League, Player
from leagues.models.season import kept_score, read_score
from leagues.ranking import EveningScores, StandingRow
from leagues.seasons import selectors as season_selectors
from leagues.seasons import services as season_services
from leagues.stats import selectors as stats_selectors
from leagues.table import services as table_services
from tests.factories import LeagueFactory, meeting_for, member, night_for

TABLE = ["Anna", "Ben", "Carl", "Dora"]
OTHER = ["Emil", "Fritz", "Gabi", "Hans"]
TOTALS = {"Anna": 1, "Ben": 1, "Carl": -1, "Dora": -1, "Emil": 3, "Fritz": 1, "Gabi": -1, "Hans": -3}


def won_by(*re):
    return {"kind": "normal", "re": list(re), "re_eyes": 131, "announcements": [], "specials": []}


def season_of(combine):
    """The season above, in a league (and its night) combining tables by ``combine``."""
    league = LeagueFactory(game="doppelkopf", variant="club", combine_tables=combine)
    evening = meeting_for(league, TABLE, date=datetime.date(2026, 11, 6))
    for re in (("Anna", "Ben"), ("Anna", "Carl")):
        table_services.enter_hand(meeting=evening, payload=won_by(*re), by=None)
    night = night_for(league, [TABLE, OTHER], date=datetime.date(2026, 11, 20))
    assert night.combine == combine
    first, second = night.tables.order_by("table_number")
    table_services.enter_hand(meeting=first, payload=won_by("Ben", "Dora"), by=None)
    for re in (("Emil", "Fritz"), ("Emil", "Fritz"), ("Emil", "Gabi")):
        table_services.enter_hand(meeting=second, payload=won_by(*re), by=None)
    return league


def table_of(league):
    """[(rank, name, score)] of the standings, and the standings themselves."""
    data = stats_selectors.standings(league=league)
    return [(row.rank, row.player.name, row.score) for row in data.table], data


def bill(league, method):
    """The season's bill (80.00, a euro a point for per_point, 72.00 by rank) as the league
    splits it: the shares by name."""
    season = league.seasons.get()
    scores = season_selectors.season_scores(season=season)
    request = {"method": method, "scores": scores}
    request.update({"total": "80.00", "cents_per_point": "100"} if method == "per_point" else {"total": "72.00"})
    return season_services.split_season_bill(request=request)["shares"]


@pytest.mark.django_db
def test_under_placings_the_season_adds_placing_points_of_every_evening():
    # Rule: the one-table evening counts by placings too (the league's way), the night by its
    # own. 6 Nov: Anna ahead of three: 3; Ben and Carl ahead of Dora, level with each other:
    # 1½; Dora 0. 20 Nov table 1: Ben and Dora ahead of two, level with one: 2½; Anna, Carl ½.
    # Table 2: Emil 3, Fritz 2, Gabi 1, Hans 0. Season: Anna 3½, Ben 4, Carl 2, Dora 2½,
    # Emil 3, Fritz 2, Gabi 1, Hans 0; Fritz before Carl at 2 by the points (1 to −1).
    league = season_of(Combine.PLACINGS)
    rows, data = table_of(league)
    half = Fraction(1, 2)
    assert rows == [
        (1, "Ben", 4),
        (2, "Anna", 3 + half),
        (3, "Emil", 3),
        (4, "Dora", 2 + half),
        (5, "Fritz", 2),
        (6, "Carl", 2),
        (7, "Gabi", 1),
        (8, "Hans", 0),
    ]
    assert {row.player.name: row.total for row in data.table} == TOTALS  # the points stay as scored
    assert data.by_score and data.choosing_restaurant.name == "Hans"
    # By rank, 72.00 over the places 1..8 (sum 36): 2.00 a place; the bill ranks by the score
    # alone, so Fritz and Carl, level at 2, share places 5 and 6: 5½ × 2.00 = 11.00 each.
    assert bill(league, "by_rank") == {
        "Ben": "2.00",
        "Anna": "4.00",
        "Emil": "6.00",
        "Dora": "8.00",
        "Fritz": "11.00",
        "Carl": "11.00",
        "Gabi": "14.00",
        "Hans": "16.00",
    }
    # Per point: 10.00 each ± a euro per point from the mean score 18 / 8 = 2¼:
    # Ben 10 − 1.75, Anna 10 − 1.25, Emil 10 − 0.75, Dora 10 − 0.25, Fritz and Carl 10 + 0.25,
    # Gabi 10 + 1.25, Hans 10 + 2.25.
    assert bill(league, "per_point") == {
        "Ben": "8.25",
        "Anna": "8.75",
        "Emil": "9.25",
        "Dora": "9.75",
        "Fritz": "10.25",
        "Carl": "10.25",
        "Gabi": "11.25",
        "Hans": "12.25",
    }


@pytest.mark.django_db
def test_under_per_game_the_season_adds_points_per_game_over_each_evenings_average():
    # Rule: points per game × the evening's mean games. 6 Nov: everyone played 2, so the
    # points: Anna 2, Ben 0, Carl 0, Dora −2. 20 Nov: mean (4 × 1 + 4 × 3) / 8 = 2; table 1
    # ±1 / 1 × 2 = ±2; table 2 Emil 3 / 3 × 2 = 2, Fritz 2/3, Gabi −2/3, Hans −2. Season:
    # Anna 0, Ben 2, Carl −2, Dora 0, Emil 2, Fritz 2/3, Gabi −2/3, Hans −2; level scores go
    # by the points (Emil 3 before Ben 1, Anna 1 before Dora −1, Carl −1 before Hans −3).
    league = season_of(Combine.PER_GAME)
    rows, data = table_of(league)
    third = Fraction(1, 3)
    assert rows == [
        (1, "Emil", 2),
        (2, "Ben", 2),
        (3, "Fritz", 2 * third),
        (4, "Anna", 0),
        (5, "Dora", 0),
        (6, "Gabi", -2 * third),
        (7, "Carl", -2),
        (8, "Hans", -2),
    ]
    # The worst score, −2, is Carl's and Hans's: the first of them in the standings chooses
    # (by the points as scored it would be Hans, at −3).
    assert data.choosing_restaurant.name == "Carl"
    # Per point: mean 0, 10.00 each − a euro per point; Fritz 9.33⅓ and Gabi 10.66⅔: the
    # leftover cent to the larger remainder, Gabi's.
    assert bill(league, "per_point") == {
        "Emil": "8.00",
        "Ben": "8.00",
        "Fritz": "9.33",
        "Anna": "10.00",
        "Dora": "10.00",
        "Gabi": "10.67",
        "Carl": "12.00",
        "Hans": "12.00",
    }
    # By rank, 2.00 a place, level scores sharing their places: Emil and Ben 1½, Fritz 3,
    # Anna and Dora 4½, Gabi 6, Carl and Hans 7½.
    assert list(bill(league, "by_rank").values()) == ["3.00", "3.00", "6.00", "9.00", "9.00", "12.00", "15.00", "15.00"]


@pytest.mark.django_db
def test_under_points_nothing_changes(client):
    # Rule: every evening counts by the points as scored: the score is the total, the table
    # ranks as it always did (total, then wins, then name: Anna, Ben and Fritz won two hands
    # each) and shows no score column.
    league = season_of(Combine.POINTS)
    rows, data = table_of(league)
    assert [(rank, name) for rank, name, _score in rows] == [
        (1, "Emil"),
        (2, "Anna"),
        (2, "Ben"),
        (2, "Fritz"),
        (5, "Carl"),
        (5, "Dora"),
        (5, "Gabi"),
        (8, "Hans"),
    ]
    assert {name: score for _rank, name, score in rows} == TOTALS
    assert not data.by_score and data.choosing_restaurant.name == "Hans"
    assert season_selectors.season_scores(season=league.seasons.get()) == TOTALS
    assert all(type(score) is int for score in season_selectors.season_scores(season=league.seasons.get()).values())
    client.force_login(member(league))
    text = client.get(reverse("standings", kwargs={"slug": league.slug})).content.decode()
    assert "combined score" not in text


@pytest.mark.django_db
def test_the_standings_show_the_score_rounded_as_the_night_page(client):
    # Rule: placings in halves, points per game to two decimals (Fritz 2/3: +0.67).
    league = season_of(Combine.PLACINGS)
    client.force_login(member(league))
    response = client.get(reverse("standings", kwargs={"slug": league.slug}))
    rows = response.context["season_table"]["rows"]
    assert [row["score"] for row in rows] == ["4", "3½", "3", "2½", "2", "2", "1", "0"]
    assert 'title="Each evening counted by its combined score">Score</th>' in response.content.decode()
    League.objects.filter(pk=league.pk).update(combine_tables=Combine.PER_GAME)
    ClubNight.objects.filter(league=league).update(combine=Combine.PER_GAME)
    rows = client.get(reverse("standings", kwargs={"slug": league.slug})).context["season_table"]["rows"]
    assert [(row["name"], row["score"]) for row in rows][2] == ("Fritz", "+0.67")


@pytest.mark.django_db
def test_a_one_table_evening_counts_by_the_leagues_current_way_a_night_by_its_own():
    # Rule: the night keeps the way it was started with (placings); the one-table evening
    # follows the league, now points: Anna 2 + ½, Ben 0 + 2½, Carl 0 + ½, Dora −2 + 2½,
    # Emil 3, Fritz 2, Gabi 1, Hans 0.
    league = season_of(Combine.PLACINGS)
    League.objects.filter(pk=league.pk).update(combine_tables=Combine.POINTS)
    league.refresh_from_db()
    scores = season_selectors.season_scores(season=league.seasons.get())
    half = Fraction(1, 2)
    assert scores == {
        "Ben": 2 + half,
        "Emil": 3,
        "Anna": 2 + half,
        "Fritz": 2,
        "Gabi": 1,
        "Dora": half,
        "Carl": half,
        "Hans": 0,
    }
    # Anna before Ben at 2½: level in points (1) and hands won (2), by name.
    assert list(scores) == ["Emil", "Anna", "Ben", "Fritz", "Gabi", "Carl", "Dora", "Hans"]


@pytest.mark.django_db
def test_the_bill_keeps_an_exact_score_as_a_fraction_in_text():
    # Rule: JSON holds ints; a score of halves or thirds is kept as "7/2" and read back exact;
    # the digest of a split reads it the same way.
    league = season_of(Combine.PLACINGS)
    scores = season_selectors.season_scores(season=league.seasons.get())
    assert kept_score(scores["Anna"]) == "7/2" and kept_score(scores["Ben"]) == 4
    assert read_score("7/2") == Fraction(7, 2) and read_score("4") == 4
    result = season_services.split_season_bill(request={"total": "72.00", "method": "by_rank", "scores": scores})
    assert season_services.bill_digest(scores, result) == season_services.bill_digest(dict(scores), result)
    assert result["chooses_restaurant"] == "Hans"


players = st.sampled_from(["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"])
played = st.tuples(st.integers(-500, 500), st.integers(0, 500), st.integers(0, 40))
evening = st.lists(st.dictionaries(players, played, min_size=1, max_size=4), min_size=1, max_size=3)


@given(evenings=st.lists(evening, min_size=1, max_size=5), race=st.booleans())
def test_under_points_the_score_is_the_total_or_the_games_won(evenings, race):
    # Rule: under "points" each evening's score is the figure its table ranks by, so the
    # season's score is every player's total (a race game: his games won).
    scores = EveningScores(race=race, league_method="points")
    expected: dict[str, int] = {}
    meeting = 0
    for number, tables in enumerate(evenings):
        seen: set[str] = set()
        for table in tables:
            meeting += 1
            for name, (total, won, games) in table.items():
                if name in seen:
                    continue  # a player sits at one table of a night
                seen.add(name)
                night = number + 1 if len(tables) > 1 else None
                scores.add(
                    meeting_id=meeting,
                    night_id=night,
                    night_method="points",
                    player_id=name,
                    total=total,
                    games_won=won,
                    games=games,
                )
                expected[name] = expected.get(name, 0) + (won if race else total)
    assert scores.totals() == expected and not scores.by_score
    rows = scores.rank([StandingRow(player=Player(pk=name, name=name)) for name in expected])
    assert {row.player.name: row.score for row in rows} == expected
