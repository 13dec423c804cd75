"""Issue 12: every page and every write runs the same number of queries whatever the size of
the league, carry leagues (``carry_special_rounds``) included.

Each league is built as `make bench-league` builds it (random valid Doppelkopf meetings, the
cached results the real replay gives), once small and once with more seasons and meetings;
the query count of each request on the small league is the count the big one must meet."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.models import Hand, HandResult, MeetingResult
from tests.bench.build import build_league
from tests.bench.league import normal_hand_form
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

HANDS = 12
SIZES = {"small": (1, 3), "big": (3, 5)}  # (seasons, meetings per season)


@pytest.fixture(params=[False, True], ids=["plain", "carry"])
def leagues(request):
    user = UserFactory()
    built = {
        label: build_league(
            slug=f"q-{label}", seasons=seasons, meetings=meetings, hands=HANDS, carry=request.param, user=user, seed=3
        )
        for label, (seasons, meetings) in SIZES.items()
    }
    return user, built


def league_page(client, ids):
    return client.get(reverse("league", kwargs={"slug": ids["slug"]}))


def standings(client, ids):
    return client.get(reverse("standings", kwargs={"slug": ids["slug"]}))


def public_standings(client, ids):
    return client.get(f"/p/{ids['token']}/")


def meeting_page(client, ids):
    return client.get(reverse("meeting", kwargs={"slug": ids["slug"], "pk": ids["full_meeting"]}))


def public_sheet(client, ids):
    return client.get(f"/p/{ids['token']}/m/{ids['full_meeting']}/")


def enter_hand(client, ids):
    form = {"expected_hand": str(HANDS), **normal_hand_form(ids["entry_active"], eyes=131)}
    url = reverse("hand_add_hx", kwargs={"slug": ids["slug"], "pk": ids["entry_meeting"]})
    return client.post(url, form, HTTP_HX_REQUEST="true")


def correct_first_hand(client, ids):
    hand = Hand.objects.get(pk=ids["first_hand"])
    form = {"version": str(hand.version), **normal_hand_form(ids["first_hand_active"], eyes=150)}
    url = reverse("hand_edit", kwargs={"slug": ids["slug"], "pk": ids["first_meeting"], "hand_pk": hand.pk})
    return client.post(url, form)


REQUESTS = {
    "league page": (league_page, 200),
    "standings": (standings, 200),
    "public standings": (public_standings, 200),
    "meeting page": (meeting_page, 200),
    "public sheet": (public_sheet, 200),
    "htmx hand POST": (enter_hand, 200),
    "correction of hand 1": (correct_first_hand, 302),
}


@pytest.mark.parametrize("name", list(REQUESTS))
def test_a_request_runs_as_many_queries_in_a_big_league_as_in_a_small_one(
    client, leagues, name, django_assert_num_queries
):
    user, built = leagues
    request, status = REQUESTS[name]
    client.force_login(user)
    with CaptureQueriesContext(connection) as small:
        response = request(client, built["small"])
    assert response.status_code == status
    with django_assert_num_queries(len(small.captured_queries)):
        response = request(client, built["big"])
    assert response.status_code == status


def test_the_big_leagues_are_what_they_say(leagues):
    """The sizes compared above really differ (and the caches were built for them)."""
    _user, built = leagues
    assert built["big"]["meetings"] == 15 and built["small"]["meetings"] == 3
    big = built["big"]["slug"]
    assert HandResult.objects.filter(league__slug=big).count() == 5 * (15 * HANDS - 1)
    assert MeetingResult.objects.filter(league__slug=big).count() == 5 * 15
