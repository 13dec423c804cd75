"""The statistics and ratings pages run as many queries in a big league as in a small one: the
first ever (the table of kept parts emptied), right after a hand tonight, and read again. The
leagues are built as in test_league_size_queries (random valid Doppelkopf evenings with the real
replay's cached results) and lived as a club does: every evening closed but tonight's."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from leagues.models import Hand, League, Meeting, Player
from leagues.stats import derived_cache
from leagues.table import services
from tests.bench.build import build_league
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# (seasons, evenings per season): more seasons, and more evenings in a season.
SIZES = {"small": (1, 3), "big": (3, 5), "seasons": (20, 1)}


@pytest.fixture(scope="module")
def leagues(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        user = UserFactory(username="stats-queries")
        built = {}
        for label, (seasons, evenings) in SIZES.items():
            ids = build_league(
                slug=f"sq-{label}", seasons=seasons, meetings=evenings, hands=12, carry=False, user=user, seed=5
            )
            ids["seasons"] = seasons
            Meeting.objects.filter(league__slug=ids["slug"]).exclude(pk=ids["entry_meeting"]).update(
                closed_at=timezone.now()
            )
            built[label] = ids
        yield user, built
        League.objects.filter(slug__in=[b["slug"] for b in built.values()]).delete()
        user.delete()


def statistics_page(ids):
    return reverse("league_statistics", kwargs={"slug": ids["slug"]})


def season_statistics(ids):
    return reverse("league_statistics", kwargs={"slug": ids["slug"]}) + f"?season={ids['seasons']}"


def player_page(ids):
    player = Player.objects.filter(league__slug=ids["slug"], name="Anna").get()
    return reverse("player_statistics", kwargs={"slug": ids["slug"], "pk": player.pk})


def ratings_page(ids):
    return reverse("league_ratings", kwargs={"slug": ids["slug"]})


PAGES = {"statistics": statistics_page, "season": season_statistics, "player": player_page, "ratings": ratings_page}


def enter_a_hand(ids, user) -> Hand:
    """A plain normal game tonight (the built league's last evening is ready for one)."""
    payload = {"kind": "normal", "re": list(ids["entry_active"][:2]), "re_eyes": 131}
    return services.enter_hand(meeting=Meeting.objects.get(pk=ids["entry_meeting"]), payload=payload, by=user).hand


def take_back(hand: Hand, user) -> None:
    hand.refresh_from_db()
    services.delete_hand(hand=hand, by=user, version=hand.version)


@pytest.mark.parametrize("state", ["first ever", "after a hand", "read again"])
@pytest.mark.parametrize("name", list(PAGES))
def test_a_page_runs_as_many_queries_in_a_big_league_as_in_a_small_one(
    client, leagues, name, state, django_assert_num_queries
):
    user, built = leagues
    client.force_login(user)
    small = None
    for ids in built.values():
        url = PAGES[name](ids)
        derived_cache.clear()
        if state != "first ever":
            assert client.get(url).status_code == 200  # kept up to tonight
        hand = enter_a_hand(ids, user) if state == "after a hand" else None
        try:
            if small is None:
                with CaptureQueriesContext(connection) as captured:
                    response = client.get(url)
                small = len(captured.captured_queries)
                assert small >= 8  # the count is real
            else:
                with django_assert_num_queries(small):
                    response = client.get(url)
            assert response.status_code == 200
        finally:
            if hand is not None:
                take_back(hand, user)
    derived_cache.clear()
