"""Starting an evening "as last time" (nothing lost): the last evening's table in its
seat order, turned to start with the host due, in one tap."""

import datetime

import pytest
from django.urls import reverse

from leagues.models import Player, Role
from leagues.seasons import selectors
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    league = LeagueFactory()
    meeting_for(league, ["Anna", "Ben", "Carl", "Dora"], date=datetime.date(2026, 11, 13))
    return league


def url(league, **query):
    base = reverse("meeting_start", kwargs={"slug": league.slug})
    return base + ("?same=1" if query else "")


def test_the_start_page_offers_last_times_table_from_the_host_due(client, league):
    keeper = member(league, Role.SCOREKEEPER)
    Player.objects.filter(user=keeper).update(active=False)  # the scorekeeper does not play
    client.force_login(keeper)
    host = selectors.suggested_host(league=league)
    # Anna hosted; Ben, Carl and Dora have not: the host due is one of them (league.md).
    assert host.name in ("Ben", "Carl", "Dora")
    order = ["Anna", "Ben", "Carl", "Dora"]
    start = order.index(host.name)
    expected = order[start:] + order[:start]
    page = client.get(url(league))
    assert [p.name for p in page.context["same_table"]] == expected
    assert [s["player"].name for s in page.context["seated"]] == [host.name]
    tapped = client.get(url(league, same=1))
    assert [s["player"].name for s in tapped.context["seated"]] == expected
    assert tapped.context["same_table"] is None  # already seated so
    assert not any(p.name in expected for p in tapped.context["bench"])


def test_a_player_who_no_longer_plays_is_left_out(client, league):
    Player.objects.filter(league=league, name="Carl").update(active=False)
    keeper = member(league, Role.SCOREKEEPER)
    Player.objects.filter(user=keeper).update(active=False)
    client.force_login(keeper)
    names = [p.name for p in client.get(url(league)).context["same_table"]]
    assert "Carl" not in names and sorted(names) == ["Anna", "Ben", "Dora"]
