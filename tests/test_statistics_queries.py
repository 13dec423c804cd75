"""The statistics and ratings pages run as many queries in a big league as in a small one,
worked out afresh (the kept parts' table emptied) and read from that table
(``leagues.derived_cache``: its reads and writes are in the counts). The leagues are built as in
test_league_size_queries (random valid Doppelkopf meetings with the real replay's cached
results)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.models import DerivedFigure, Player
from leagues.stats import derived_cache
from tests.bench.build import build_league
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# (seasons, meetings per season): the bench league's 20 seasons, and more evenings in a season.
SIZES = {"small": (1, 3), "big": (3, 5), "seasons": (20, 1)}


@pytest.fixture(scope="module")
def leagues(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        user = UserFactory(username="stats-queries")
        built = {
            label: build_league(slug=f"sq-{label}", seasons=s, meetings=m, hands=12, carry=False, user=user, seed=5)
            for label, (s, m) in SIZES.items()
        }
        yield user, built
        from leagues.models import League

        League.objects.filter(slug__in=[b["slug"] for b in built.values()]).delete()
        user.delete()


def statistics_page(ids):
    return reverse("league_statistics", kwargs={"slug": ids["slug"]})


def season_statistics(ids):
    return reverse("league_statistics", kwargs={"slug": ids["slug"]}) + "?season=1"


def player_page(ids):
    player = Player.objects.filter(league__slug=ids["slug"], name="Anna").get()
    return reverse("player_statistics", kwargs={"slug": ids["slug"], "pk": player.pk})


def ratings_page(ids):
    return reverse("league_ratings", kwargs={"slug": ids["slug"]})


PAGES = {"statistics": statistics_page, "season": season_statistics, "player": player_page, "ratings": ratings_page}


@pytest.mark.parametrize("warm", [False, True], ids=["computed", "cached"])
@pytest.mark.parametrize("name", list(PAGES))
def test_a_page_runs_as_many_queries_in_a_big_league_as_in_a_small_one(
    client, leagues, name, warm, django_assert_num_queries
):
    user, built = leagues
    client.force_login(user)
    urls = {label: PAGES[name](ids) for label, ids in built.items()}
    derived_cache.clear()
    if warm:
        for url in urls.values():
            assert client.get(url).status_code == 200
    with CaptureQueriesContext(connection) as small:
        response = client.get(urls["small"])
    assert response.status_code == 200
    assert len(small.captured_queries) >= (5 if warm else 10)  # the count is real
    sql = [q["sql"] for q in small.captured_queries]
    assert any(DerivedFigure._meta.db_table in q for q in sql)  # the kept parts are read (and, worked out, written)
    if warm:  # and then no hand and no result is read
        assert not any("leagues_handresult" in q or '"leagues_hand"' in q for q in sql)
    for label in ("big", "seasons"):
        with django_assert_num_queries(len(small.captured_queries)):
            response = client.get(urls[label])
        assert response.status_code == 200
    derived_cache.clear()


def summary(stats):
    return {
        p.player.name: (
            p.games.games,
            p.games.wins,
            p.games.points,
            p.streak,
            p.re.points,
            p.kontra.points,
            p.solo.points,
            p.missed,
            p.pennants,
            dict(p.calls),
            dict(p.specials_made),
            {k: (t.games, t.wins, t.points) for k, t in p.partners.items()},
            {k: (t.games, t.wins, t.points) for k, t in p.opponents.items()},
            [(e.meeting_id, e.total) for e in p.evenings],
        )
        for p in stats.players
    }


def test_the_cached_figures_follow_a_correction_of_the_first_evening(leagues):
    """Seasons' parts and rating states come from the cache; a correction of the first hand of
    the first evening changes season 1 and with it every later rating state."""
    pass
    from leagues.models import Hand, League
    from leagues.stats import ratings, statistics
    from leagues.table import services

    user, built = leagues
    league = League.objects.get(slug=built["big"]["slug"])
    derived_cache.clear()
    statistics.league_statistics(league=league)
    ratings.league_ratings(league=league)
    hand = Hand.objects.get(pk=built["big"]["first_hand"])
    payload = {**hand.payload, "re_eyes": 240 - hand.payload["re_eyes"]}
    services.change_hand(hand=hand, payload=payload, by=user, version=hand.version)
    try:
        assert summary(statistics.league_statistics(league=league)) == summary(
            statistics.compute_statistics(league=league)
        )
        cached = [(r.player.name, r.mu, r.sigma, r.games, r.wins) for r in ratings.league_ratings(league=league).rows]
        fresh = [(r.player.name, r.mu, r.sigma, r.games, r.wins) for r in ratings.compute_ratings(league=league).rows]
        assert cached == fresh
    finally:
        hand.refresh_from_db()
        services.change_hand(
            hand=hand, payload={**payload, "re_eyes": 240 - payload["re_eyes"]}, by=user, version=hand.version
        )
        derived_cache.clear()
