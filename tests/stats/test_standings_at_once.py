"""The standings' evenings (the meetings table and the host list), the season picker, the
season's table and the all-time table: a hand entered or corrected, a renamed player, another
season and the other language show at once."""

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Meeting, MeetingResult, Player, Role
from leagues.seasons import services as seasons_services
from leagues.table import services as table_services
from tests.factories import LeagueFactory, meeting_for, member
from tests.table.test_meeting_sheet import NAMES, normal


@pytest.fixture
def evening(db):
    league = LeagueFactory(public_token="s" * 32)
    meeting = meeting_for(league, NAMES)  # Friday, 20 November 2026, at Anna's
    hand = table_services.enter_hand(meeting=meeting, payload=normal(["Ben", "Dora"], 131), by=None).hand
    return meeting, hand


def standings_url(client, league, *, public):
    """The public standings, or the members' with ``client`` logged in as a member."""
    if public:
        return reverse("public_standings", kwargs={"token": league.public_token})
    client.force_login(member(league, Role.MEMBER))
    return reverse("standings", kwargs={"slug": league.slug})


def meetings_table(html):
    return re.search(r'<table class="meetings-table">.*?</table>', html, re.S).group(0)


def winner_cell(html):
    return re.findall(r"<td>([^<]*)</td>\s*</tr>", meetings_table(html))[0].strip()


def ended(meeting, closed):
    """The evening closed (or open again), as its pages read it."""
    Meeting.objects.filter(pk=meeting.pk).update(closed_at=timezone.now() if closed else None)


def stored_winner_total(meeting):
    return MeetingResult.objects.get(meeting=meeting, won_evening=True).total


@pytest.mark.parametrize("public", [False, True])
def test_a_corrected_hand_changes_the_evenings_line_at_once(client, evening, public):
    meeting, hand = evening
    league = meeting.league
    url = standings_url(client, league, public=public)
    ended(meeting, True)  # only a closed evening has a winner
    before = client.get(url).content.decode()
    assert winner_cell(before) == f"+{stored_winner_total(meeting)}"
    ended(meeting, False)  # reopened, corrected, closed again
    table_services.change_hand(hand=hand, payload=normal(["Ben", "Dora"], 90), by=None, version=hand.version)
    ended(meeting, True)
    after = client.get(url).content.decode()
    assert winner_cell(after) == f"+{stored_winner_total(meeting)}"
    assert meetings_table(after) != meetings_table(before)  # another winner (Kontra won)


def test_a_renamed_host_shows_at_once(client, evening):
    meeting, _hand = evening
    league = meeting.league
    url = reverse("public_standings", kwargs={"token": league.public_token})
    assert "<td>Anna</td>" in meetings_table(client.get(url).content.decode())
    Player.objects.filter(league=league, name="Anna").update(name="Annabel")
    html = client.get(url).content.decode()
    assert "<td>Annabel</td>" in meetings_table(html)
    assert "<span>Annabel</span>" in html  # the host list of the season


def test_the_lines_in_either_language(client, evening):
    meeting, _hand = evening
    url = reverse("public_standings", kwargs={"token": meeting.league.public_token})
    english = meetings_table(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    german = meetings_table(client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode())
    assert "Fri 20 Nov" in english
    assert "Fr, 20. Nov" in german and "Fri" not in german


def tables(html):
    """The season's table and the all-time table, in page order."""
    return re.findall(r'<table class="standings-table">.*?</table>', html, re.S)


def picker(html):
    return re.search(r'<nav class="chips season-picker".*?</nav>', html, re.S).group(0)


def row_of(table, name):
    return re.search(
        rf"<tr[^>]*>\s*<td class=\"rank\">\d+\.</td>\s*<th scope=\"row\">\s*{name}\s*</th>.*?</tr>", table, re.S
    ).group(0)


@pytest.fixture
def two_seasons(evening):
    """The evening above in season 1, closed; a second season's evening with one hand."""
    meeting, hand = evening
    league = meeting.league
    season = meeting.season
    season.closed_on = meeting.date
    season.save()
    seasons_services.close_season(season=season, user=None)
    later = meeting_for(league, NAMES[1:] + NAMES[:1], date=meeting.date.replace(day=27))
    second = table_services.enter_hand(meeting=later, payload=normal(["Anna", "Carl"], 131), by=None).hand
    assert later.season.number == 2
    return meeting, hand, later, second


@pytest.mark.parametrize("public", [False, True])
def test_a_corrected_hand_changes_both_tables_at_once(client, two_seasons, public):
    _meeting, _hand, later, second = two_seasons
    league = later.league
    url = standings_url(client, league, public=public)
    before = tables(client.get(url).content.decode())
    assert len(before) == 2  # the season's and all time
    table_services.change_hand(hand=second, payload=normal(["Anna", "Carl"], 90), by=None, version=second.version)
    after = tables(client.get(url).content.decode())
    assert row_of(after[0], "Anna") != row_of(before[0], "Anna")
    assert row_of(after[1], "Anna") != row_of(before[1], "Anna")


def test_the_season_picker_marks_the_season_shown(client, two_seasons):
    league = two_seasons[0].league
    url = reverse("public_standings", kwargs={"token": league.public_token})
    latest = picker(client.get(url).content.decode())
    assert '<a class="chip on" href="?season=2" aria-current="page">Season 2</a>' in latest
    first = picker(client.get(url + "?season=1").content.decode())
    assert '<a class="chip on" href="?season=1" aria-current="page">Season 1</a>' in first
    assert '<a class="chip" href="?season=2">Season 2</a>' in first
    german = picker(client.get(url + "?season=1", HTTP_ACCEPT_LANGUAGE="de").content.decode())
    assert ">Saison 1</a>" in german and "Season" not in german


def test_a_renamed_player_shows_in_both_tables_at_once(client, two_seasons):
    league = two_seasons[0].league
    url = reverse("public_standings", kwargs={"token": league.public_token})
    client.get(url)
    Player.objects.filter(league=league, name="Carl").update(name="Carlos")
    season, all_time = tables(client.get(url).content.decode())
    assert row_of(season, "Carlos") and row_of(all_time, "Carlos")
    assert ">Carl<" not in season + all_time and "Carl\n" not in season + all_time


def test_the_restaurant_chooser_is_marked_in_a_closed_season(client, two_seasons):
    league = two_seasons[0].league
    url = reverse("public_standings", kwargs={"token": league.public_token})
    season, all_time = tables(client.get(url + "?season=1").content.decode())
    assert season.count(" chooser") == 1 and " chooser" not in all_time
    assert " chooser" not in tables(client.get(url).content.decode())[0]  # season 2 is running


def test_a_hand_entered_shows_on_the_standings_and_the_public_pages_at_once(client, evening):
    """Re (Carl, Dora) win with 131 eyes against 109: 1 point for winning (doppelkopf.md,
    Points), +1 each for Re, -1 each for the two Kontra players, 0 for the dealer who sits
    out at five (Ben): Dora, Re in both hands, has +2."""
    meeting, _hand = evening
    league = meeting.league
    public = reverse("public_standings", kwargs={"token": league.public_token})
    sheet = reverse("public_meeting", kwargs={"token": league.public_token, "pk": meeting.pk})
    members = standings_url(client, league, public=False)
    before = {url: client.get(url).content.decode() for url in (members, public, sheet)}
    table_services.enter_hand(meeting=meeting, payload=normal(["Carl", "Dora"], 131), by=None)
    for url, html in before.items():
        assert client.get(url).content.decode() != html, url
    for url in (members, public):
        # Dora's row in the season's table: her name, then her total of +2.
        assert re.search(r"Dora\s*</th>\s*<td[^>]*>\s*\+2\b", client.get(url).content.decode()), url
