"""Only a closed evening has a winner (league.md, the pennant: "the winner of a meeting"): an
evening still open names nobody on the standings (members' and public), in the statistics'
evenings won, as the pennant holder the next evening's form picks, or on its own sheet. Once
closed, its winner counts everywhere. And a complete season still open is not called closed.

Doppelkopf, club rules. Tonight (20 Nov), four hands: Ben and Dora win the first three, Anna
and Carl the fourth: Ben +2, Dora +2, Anna -2, Carl -2; Ben sits first, so he wins once the
evening is closed."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from leagues.models import Role
from leagues.stats import derived_cache, statistics
from leagues.stats import selectors as stats_selectors
from leagues.table import meetings, services
from leagues.table import selectors as table_selectors
from tests.factories import LeagueFactory, meeting_for, member

FOUR = ["Anna", "Ben", "Carl", "Dora"]
BEN_DORA = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
ANNA_CARL = {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 131}
TOKEN = "w" * 32
NOW = datetime.datetime(2026, 11, 20, 23, 0, tzinfo=timezone.get_current_timezone())


@pytest.fixture(autouse=True)
def fresh_cache(db):
    derived_cache.clear()
    yield
    derived_cache.clear()


@pytest.fixture
def league(db):
    return LeagueFactory(game="doppelkopf", variant="club", public_token=TOKEN)


@pytest.fixture
def keeper(league):
    return member(league, Role.SCOREKEEPER, first_name="Keeper")


@pytest.fixture
def tonight(league, keeper):
    meeting = meeting_for(league, FOUR, date=datetime.date(2026, 11, 20))
    for payload in (BEN_DORA, BEN_DORA, BEN_DORA, ANNA_CARL):
        services.enter_hand(meeting=meeting, payload=payload, by=keeper, now=NOW)
    return meeting


def close(meeting, keeper):
    meetings.close_meeting(meeting=meeting, user=keeper, now=NOW)
    meeting.refresh_from_db()


def evenings_won(league):
    return {row.player.name: row.evenings_won for row in stats_selectors.standings(league=league).table}


def test_an_open_evening_has_no_winner_in_the_standings(league, keeper, tonight):
    assert set(evenings_won(league).values()) == {0}
    (evening,) = stats_selectors.standings(league=league).meetings
    assert evening.winner is None
    close(tonight, keeper)
    assert evenings_won(league) == {"Anna": 0, "Ben": 1, "Carl": 0, "Dora": 0}
    (evening,) = stats_selectors.standings(league=league).meetings
    assert (evening.winner.name, evening.winner_total) == ("Ben", 2)


def test_the_standings_pages_give_no_pennant_to_an_evening_in_progress(client, league, keeper, tonight):
    pages = [reverse("public_standings", kwargs={"token": TOKEN}), reverse("standings", kwargs={"slug": league.slug})]
    client.force_login(member(league))
    for page in pages:
        html = client.get(page).content.decode()
        assert "⚑</span> Ben" not in html, page
        assert "still running" in html, page  # the evening's line says it goes on
    close(tonight, keeper)
    for page in pages:
        assert "⚑</span> Ben" in client.get(page).content.decode(), page


def test_the_statistics_count_only_closed_evenings_as_won(league, keeper, tonight):
    # Read (and kept) while open, then again after closing: the kept part is not reused.
    stats = {p.player.name: p.pennants for p in statistics.league_statistics(league=league).players}
    assert set(stats.values()) == {0}
    close(tonight, keeper)
    stats = {p.player.name: p.pennants for p in statistics.league_statistics(league=league).players}
    assert stats == {"Anna": 0, "Ben": 1, "Carl": 0, "Dora": 0}
    season = tonight.season
    stats = {p.player.name: p.pennants for p in statistics.league_statistics(league=league, season=season).players}
    assert stats["Ben"] == 1


def test_the_next_evening_preselects_no_pennant_holder_from_an_open_evening(league, keeper, tonight):
    assert table_selectors.meeting_winner(meeting=tonight) is None
    assert table_selectors.suggested_pennant_holder(league=league) is None
    client = Client()
    client.force_login(keeper)
    start = reverse("meeting_start", kwargs={"slug": league.slug})
    form = client.get(start).context["form"]
    assert form.initial.get("pennant_holder") is None
    close(tonight, keeper)
    assert table_selectors.suggested_pennant_holder(league=league).name == "Ben"
    form = client.get(start).context["form"]
    assert form.initial["pennant_holder"] == table_selectors.suggested_pennant_holder(league=league).pk


def test_the_start_page_says_the_last_evening_is_still_open(league, keeper, tonight):
    client = Client()
    client.force_login(keeper)
    html = client.get(reverse("meeting_start", kwargs={"slug": league.slug})).content.decode()
    assert "is still open" in html and tonight.get_absolute_url() in html
    close(tonight, keeper)
    html = client.get(reverse("meeting_start", kwargs={"slug": league.slug})).content.decode()
    assert "is still open" not in html


def test_a_complete_season_still_open_is_not_called_closed(client, league, keeper, tonight):
    season = tonight.season
    season.closed_on = tonight.date  # everyone hosted: complete, its bill not stored yet
    season.save(update_fields=["closed_on"])
    client.force_login(keeper)
    html = client.get(reverse("standings", kwargs={"slug": league.slug}), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "abgeschlossen" not in html
    html = client.get(reverse("standings", kwargs={"slug": league.slug}), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<span class="badge done">complete</span>' in html


def test_an_evening_over_but_open_names_who_wins_it_once_ended(league, keeper):
    """The round was finished before 22:00 and the end time has passed since: no hand more,
    but the evening is still open. Its panel says who wins it once ended, not its winner."""
    meeting = meeting_for(league, FOUR, date=datetime.date(2026, 11, 20), end_time=datetime.time(22, 0))
    for payload in (BEN_DORA, BEN_DORA, BEN_DORA, ANNA_CARL):
        services.enter_hand(meeting=meeting, payload=payload, by=keeper, now=NOW.replace(hour=21))
    client = Client()
    client.force_login(keeper)
    html = client.get(meeting.get_absolute_url()).content.decode()
    assert "The evening is over" in html and "Wins the evening</span><b>Ben</b>" in html
    assert "Tonight's winner" not in html and "⚑ Ben" not in html
    close(meeting, keeper)
    html = client.get(meeting.get_absolute_url()).content.decode()
    assert "Tonight's winner</span><b>Ben</b>" in html and "⚑ Ben" in html
