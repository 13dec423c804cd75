"""The standings keep each evening's line (the meetings table and the host list) rendered by
what it shows (issue 12, views/standings.py ``_meeting_lists_html``): a hand entered or
corrected, a renamed host and the other language show at once."""

import re

import pytest
from django.core.cache import caches
from django.urls import reverse

from leagues import fragments, services
from leagues.models import MeetingResult, Player, Role
from tests.factories import LeagueFactory, meeting_for, member
from tests.test_sheet_fragments import NAMES, empty_cache, normal  # noqa: F401 (empty_cache: autouse)


@pytest.fixture
def evening(db):
    league = LeagueFactory(public_token="s" * 32)
    meeting = meeting_for(league, NAMES)  # Friday, 20 November 2026, at Anna's
    hand = services.add_hand(meeting=meeting, payload=normal(["Ben", "Dora"], 131), user=None)
    return meeting, hand


def meetings_table(html):
    return re.search(r'<table class="meetings-table">.*?</table>', html, re.S).group(0)


def winner_cell(html):
    return re.findall(r"<td>([^<]*)</td>\s*</tr>", meetings_table(html))[0].strip()


def stored_winner_total(meeting):
    return MeetingResult.objects.get(meeting=meeting, won_evening=True).total


@pytest.mark.parametrize("public", [False, True])
def test_a_corrected_hand_changes_the_evenings_line_at_once(client, evening, public):
    meeting, hand = evening
    league = meeting.league
    if public:
        url = reverse("public_standings", kwargs={"token": league.public_token})
    else:
        client.force_login(member(league, Role.MEMBER))
        url = reverse("standings", kwargs={"slug": league.slug})
    before = client.get(url).content.decode()
    assert winner_cell(before) == f"+{stored_winner_total(meeting)}"
    services.change_hand(hand=hand, payload=normal(["Ben", "Dora"], 90), user=None, version=hand.version)
    after = client.get(url).content.decode()
    assert winner_cell(after) == f"+{stored_winner_total(meeting)}"
    assert meetings_table(after) != meetings_table(before)  # another winner (Kontra won)
    caches[fragments.CACHE].clear()
    assert meetings_table(client.get(url).content.decode()) == meetings_table(after)


def test_a_renamed_host_shows_at_once(client, evening):
    meeting, _hand = evening
    league = meeting.league
    url = reverse("public_standings", kwargs={"token": league.public_token})
    assert "<td>Anna</td>" in meetings_table(client.get(url).content.decode())
    Player.objects.filter(league=league, name="Anna").update(name="Annabel")
    html = client.get(url).content.decode()
    assert "<td>Annabel</td>" in meetings_table(html)
    assert "<span>Annabel</span>" in html  # the host list of the season


def test_the_lines_are_kept_per_language(client, evening):
    meeting, _hand = evening
    url = reverse("public_standings", kwargs={"token": meeting.league.public_token})
    english = meetings_table(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    german = meetings_table(client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode())
    assert "Fri 20 Nov" in english
    assert "Fr, 20. Nov" in german and "Fri" not in german
