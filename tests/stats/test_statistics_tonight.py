"""The statistics and ratings kept up to tonight (leagues/stats/evenings.py): after a hand tonight, an
evening closed, an old evening reopened and corrected, or one left open before tonight, the
pages equal a count from scratch, and only what changed is counted again.

The league: random valid Doppelkopf evenings with the real replay's cached results (the bench's
builder), special rounds carried from one evening to the next, every evening closed but the
last one (tonight)."""

import datetime

import pytest
from django.utils import timezone

from leagues import exceptions
from leagues.models import DerivedFigure, Hand, Meeting, Season
from leagues.stats import derived_cache, ratings, statistics
from leagues.table import meetings, services
from tests.bench.build import build_league
from tests.exchange.files import exported, imported
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


# The seed found by the first test, so that the others build one league each, not every league
# of the seeds before it.
FOUND_SEED: list[int] = []


@pytest.fixture
def lived(db):
    derived_cache.clear()
    user = UserFactory(username="tonight")
    for seed in FOUND_SEED or range(40):  # the first seed whose last evening is ready for a normal hand
        try:
            ids = build_league(
                slug=f"tonight-{seed}", seasons=3, meetings=3, hands=12, carry=True, user=user, seed=seed
            )
            FOUND_SEED[:] = [seed]
            break
        except RuntimeError:
            continue
    league_meetings = Meeting.objects.filter(league__slug=ids["slug"])
    league_meetings.exclude(pk=ids["entry_meeting"]).update(closed_at=timezone.now())
    yield user, ids, league_meetings.first().league
    derived_cache.clear()


def normal(value):
    if isinstance(value, statistics.Tally):
        return (value.games, value.wins, value.points)
    if isinstance(value, statistics.Evening):
        return (value.meeting_id, value.date, value.total, value.won)
    if isinstance(value, dict):
        return {k: normal(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normal(v) for v in value]
    return value


def figures(stats):
    """Every figure of every player, and the counts of hands and evenings."""
    players = {p.player.name: {k: normal(v) for k, v in vars(p).items() if k != "player"} for p in stats.players}
    return players, stats.hands, stats.meetings


def rated(result):
    return [(r.player.name, r.mu, r.sigma, r.games, r.wins) for r in result.rows], result.hands, result.chart


def assert_as_from_scratch(league):
    assert figures(statistics.league_statistics(league=league)) == figures(statistics.compute_statistics(league=league))
    for season in Season.objects.filter(league=league):
        kept = statistics.league_statistics(league=league, season=season)
        assert figures(kept) == figures(statistics.compute_statistics(league=league, season=season))
    assert rated(ratings.league_ratings(league=league)) == rated(ratings.compute_ratings(league=league))


@pytest.fixture
def counted(monkeypatch):
    """The evenings counted (statistics) and rated (ratings) afresh, call by call."""
    calls = {"statistics": [], "ratings": []}
    count, rate = statistics.evening_parts, ratings.rate_evenings

    def counting(**kwargs):
        calls["statistics"].append(set(kwargs["groups"]))
        return count(**kwargs)

    def rating(**kwargs):
        calls["ratings"].append({e.id for e in kwargs["evenings"]})
        return rate(**kwargs)

    monkeypatch.setattr(statistics, "evening_parts", counting)
    monkeypatch.setattr(ratings, "rate_evenings", rating)
    return calls


def read_all(league):
    statistics.league_statistics(league=league)
    ratings.league_ratings(league=league)


def enter_a_hand(ids, user):
    payload = {"kind": "normal", "re": list(ids["entry_active"][:2]), "re_eyes": 131}
    return services.enter_hand(meeting=Meeting.objects.get(pk=ids["entry_meeting"]), payload=payload, by=user).hand


def test_after_a_hand_tonight_only_tonight_is_counted_and_the_figures_are_as_from_scratch(lived, counted):
    user, ids, league = lived
    read_all(league)
    counted["statistics"].clear()
    counted["ratings"].clear()
    enter_a_hand(ids, user)
    read_all(league)
    assert counted == {"statistics": [{ids["entry_meeting"]}], "ratings": [{ids["entry_meeting"]}]}
    assert_as_from_scratch(league)


def test_an_evening_closed_is_counted_once_and_kept(lived, counted):
    user, ids, league = lived
    read_all(league)
    Meeting.objects.filter(pk=ids["entry_meeting"]).update(closed_at=timezone.now())
    counted["statistics"].clear()
    counted["ratings"].clear()
    read_all(league)
    read_all(league)
    # The first page counts the evening closed since and keeps it; the next one counts nothing.
    assert counted == {"statistics": [{ids["entry_meeting"]}], "ratings": [{ids["entry_meeting"]}]}
    assert_as_from_scratch(league)


def test_a_new_evening_is_counted_alone_on_top_of_the_kept_ones(lived, counted):
    user, ids, league = lived
    Meeting.objects.filter(pk=ids["entry_meeting"]).update(closed_at=timezone.now())
    read_all(league)
    counted["statistics"].clear()
    counted["ratings"].clear()
    tonight = Meeting.objects.get(pk=ids["entry_meeting"])
    later = meetings.start_meeting(
        league=league, date=tonight.date + datetime.timedelta(days=7), players=[s.player for s in tonight.seats.all()]
    )
    read_all(league)
    assert counted == {"statistics": [{later.pk}], "ratings": [{later.pk}]}
    assert_as_from_scratch(league)


def plain_hands(meeting):
    """The hands of ``meeting`` whose correction (Re's eyes to the other side) may still add up."""
    return [h for h in meeting.hands.filter(deleted_at=None).order_by("position") if "re_eyes" in h.payload]


def correct_a_hand(meeting, user) -> bool:
    """Correct one of ``meeting``'s hands, the first whose correction adds up (later evenings
    included, the rounds carried into them replayed)."""
    for hand in plain_hands(meeting):
        payload = {
            **hand.payload,
            "re_eyes": 240 - hand.payload["re_eyes"] + (1 if hand.payload["re_eyes"] == 120 else 0),
        }
        try:
            services.change_hand(hand=hand, payload=payload, by=user, version=hand.version)
        except exceptions.InvalidInput:
            continue
        return True
    return False


def test_a_correction_of_a_closed_evening_counts_again_from_its_season_on(lived, counted):
    user, ids, league = lived
    read_all(league)
    second = Meeting.objects.filter(league=league, season__number=2).order_by("date", "id")[1]
    meetings.reopen_meeting(meeting=second, user=user, reason="a hand was written down wrong")
    assert correct_a_hand(second, user)
    counted["statistics"].clear()
    counted["ratings"].clear()
    read_all(league)
    first_season = set(Meeting.objects.filter(league=league, season__number=1).values_list("pk", flat=True))
    assert counted["statistics"] and counted["ratings"]
    assert all(not (evenings & first_season) for evenings in counted["statistics"] + counted["ratings"])
    assert_as_from_scratch(league)
    # Closed again: kept anew, and still as from scratch.
    Meeting.objects.filter(pk=second.pk).update(closed_at=timezone.now())
    assert_as_from_scratch(league)


def test_an_evening_left_open_before_tonight_is_kept_until_it_changes(lived, counted):
    user, ids, league = lived
    old = Meeting.objects.filter(league=league, season__number=3).order_by("date", "id").first()
    meetings.reopen_meeting(meeting=old, user=user, reason="forgot a hand")
    read_all(league)
    counted["statistics"].clear()
    counted["ratings"].clear()
    enter_a_hand(ids, user)
    read_all(league)
    assert counted == {"statistics": [{ids["entry_meeting"]}], "ratings": [{ids["entry_meeting"]}]}
    assert_as_from_scratch(league)
    # A hand of the evening left open changes it and every evening after it.
    assert correct_a_hand(old, user)
    assert_as_from_scratch(league)


def test_a_deleted_and_restored_hand_tonight_shows_at_once(lived):
    user, ids, league = lived
    hand = enter_a_hand(ids, user)
    read_all(league)
    services.delete_hand(hand=hand, by=user, version=hand.version)
    assert_as_from_scratch(league)
    hand = Hand.objects.get(pk=hand.pk)
    services.restore_hand(hand=hand, by=user, version=hand.version)
    assert_as_from_scratch(league)


def test_an_evening_reopened_corrected_and_closed_again_unseen_is_counted_again(lived):
    user, ids, league = lived
    read_all(league)
    second = Meeting.objects.filter(league=league, season__number=2).order_by("date", "id")[1]
    meetings.reopen_meeting(meeting=second, user=user, reason="a hand was written down wrong")
    assert correct_a_hand(second, user)
    Meeting.objects.filter(pk=second.pk).update(closed_at=timezone.now())
    assert_as_from_scratch(league)


@pytest.mark.parametrize("tonight", [True, False], ids=["tonight open", "every evening closed"])
def test_the_row_before_tonight_lost_is_made_again_from_the_seasons(lived, counted, tonight):
    user, ids, league = lived
    if not tonight:
        Meeting.objects.filter(pk=ids["entry_meeting"]).update(closed_at=timezone.now())
    read_all(league)
    before_tonight = [f"kl-stats-{statistics.VERSION}:{league.pk}", f"kl-ratings-{ratings.METHOD}:{league.pk}"]
    DerivedFigure.objects.filter(key__in=before_tonight).delete()
    read_all(league)
    assert len(derived_cache.get_many(league, before_tonight)) == 2
    counted["statistics"].clear()
    counted["ratings"].clear()
    read_all(league)
    expected = [{ids["entry_meeting"]}] if tonight else []
    assert counted == {"statistics": expected, "ratings": expected}
    assert_as_from_scratch(league)


def test_a_league_counted_some_evenings_at_a_time_is_as_from_scratch(lived, monkeypatch):
    user, ids, league = lived
    stats, rated_at_once = (
        figures(statistics.compute_statistics(league=league)),
        rated(ratings.compute_ratings(league=league)),
    )
    monkeypatch.setattr(statistics, "EVENINGS_AT_ONCE", 2)
    monkeypatch.setattr(ratings, "EVENINGS_AT_ONCE", 2)
    assert figures(statistics.league_statistics(league=league)) == stats
    assert rated(ratings.league_ratings(league=league)) == rated_at_once


def test_after_an_import_the_first_pages_count_only_tonight(lived, counted):
    user, ids, league = lived
    copied = imported(exported(league), user=user, name="Copy", slug="copy")
    tonight = copied.meetings.get(closed_at=None).pk
    counted["statistics"].clear()
    counted["ratings"].clear()
    read_all(copied)
    assert counted == {"statistics": [{tonight}], "ratings": [{tonight}]}
    assert_as_from_scratch(copied)
