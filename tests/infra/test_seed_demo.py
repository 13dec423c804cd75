"""manage.py seed_demo: a living demo league, built once, with the login printed every time."""

from collections import Counter
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.http import HttpRequest
from django.urls import reverse

from leagues.management.commands.seed_demo import PASSWORD, SLUG
from leagues.models import Hand, HandResult, League, Meeting, Role
from leagues.stats import selectors
from leagues.table import replay

pytestmark = pytest.mark.django_db

LOGIN = f"Log in at http://127.0.0.1:8000/accounts/login/ as demo / {PASSWORD}"


def seed(*args):
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def test_it_builds_the_demo_once_and_always_says_how_to_log_in(client):
    first = seed("--if-empty")
    assert LOGIN in first
    league = League.objects.get(slug=SLUG)
    assert league.name == "Stammtisch Kreuz-Dame" and league.game == "doppelkopf" and league.variant == "club"
    counts = (Meeting.objects.count(), Hand.objects.count(), HandResult.objects.count())

    # make run calls it on every start: nothing doubles, the login line is there again.
    again = seed("--if-empty")
    assert LOGIN in again
    assert "Created" not in again
    assert seed() and LOGIN in seed()
    assert (Meeting.objects.count(), Hand.objects.count(), HandResult.objects.count()) == counts
    assert League.objects.filter(slug=SLUG).count() == 1

    # Five players with accounts; "demo" is the admin and the printed password works.
    assert league.players.filter(user__isnull=False).count() == 5
    demo = get_user_model().objects.get(username="demo")
    assert league.memberships.get(user=demo).role == Role.ADMIN
    assert client.login(request=HttpRequest(), username="demo", password=PASSWORD)  # django-axes wants the request

    # A complete first season (its bill can be split) and a second one under way.
    seasons = list(league.seasons.order_by("number"))
    assert [s.number for s in seasons] == [1, 2]
    assert seasons[0].closed_on is not None and seasons[1].closed_on is None
    assert Meeting.objects.filter(season=seasons[0]).count() == 5

    # The hands went in through the services: replaying gives the stored results, and the
    # season shows Bock, Ramsch and Pflichtsolo rounds among mostly normal games.
    rounds = Counter()
    for meeting in league.meetings.all():
        result = replay.calculate_meeting(meeting)
        rounds.update(hand["round"] for hand in result["hands"])
        stored = dict(
            HandResult.objects.filter(meeting=meeting, number=len(result["hands"])).values_list("player__name", "total")
        )
        assert stored == result["totals"]
    assert {"bock", "ramsch", "pflichtsolo"} <= set(rounds)
    assert rounds["normal"] > sum(rounds.values()) / 2

    # The pages a newcomer opens next all work.
    assert client.get(reverse("standings", kwargs={"slug": SLUG})).status_code == 200
    assert client.get(reverse("season_bill", kwargs={"slug": SLUG, "number": 1})).status_code == 200
    assert selectors.standings(league=league).table


def test_it_resets_a_changed_demo_password():
    seed("--if-empty")
    demo = get_user_model().objects.get(username="demo")
    demo.set_password("something else")
    demo.save()
    assert LOGIN in seed("--if-empty")
    demo.refresh_from_db()
    assert demo.check_password(PASSWORD)
