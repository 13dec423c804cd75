"""The "Share" button (leagues/table/sharing.py): a closed evening's result and a season's bill as a
text in the reader's language, a link, and the table the phone's picture is drawn from; the
script (static/js/at-table.js) hands them to the share sheet, else copies them. An open
evening has no result to share; the screen-on toggle is on its sheet instead."""

import html
import json
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Meeting, Role
from leagues.seasons import services as seasons_services
from leagues.table import services as table_services
from tests.factories import LeagueFactory, meeting_for, member
from tests.seasons.test_views_bill import league as bill_league  # noqa: F401 (a fixture)
from tests.seasons.test_views_bill import url as bill_url
from tests.table.test_hand_undo import HANDS, NAMES

pytestmark = pytest.mark.django_db


def share_of(page, ident):
    """The share button's title, text and link, and the table of the picture."""
    button = re.search(rf'<button[^>]*data-share="{ident}"[^>]*>', page, re.S).group(0)

    def attr(name):
        return html.unescape(re.search(rf'{name}="([^"]*)"', button).group(1))

    table = re.search(rf'<script id="{ident}" type="application/json">(.*?)</script>', page, re.S).group(1)
    return attr("data-share-title"), attr("data-share-text"), attr("data-share-url"), json.loads(table)


@pytest.fixture
def evening():
    """Three hands (tests/table/test_hand_undo.py): Dora +1, Anna, Ben and Carl 0, Emil −1."""
    meeting = meeting_for(LeagueFactory(name="Kreuz-Dame", game="doppelkopf", variant="club"), NAMES)
    keeper = member(meeting.league, Role.SCOREKEEPER, first_name="Kai")
    for payload in HANDS:
        table_services.enter_hand(meeting=meeting, payload=payload, by=keeper)
    return meeting, keeper


def close(meeting, user):
    Meeting.objects.filter(pk=meeting.pk).update(closed_at=timezone.now(), closed_by=user)


def test_a_closed_evening_shares_its_result_with_a_link_to_it(client, evening):
    meeting, keeper = evening
    close(meeting, keeper)
    client.force_login(member(meeting.league))
    title, text, link, table = share_of(client.get(meeting.get_absolute_url()).content.decode(), "share-evening")
    assert title == "Kreuz-Dame · Nov. 20, 2026"
    # Tied players share a place, in seat order; the minus is a real one.
    assert text.splitlines() == [
        title,
        "Tonight's winner: Dora",
        "1. Dora +1",
        "2. Anna 0",
        "2. Ben 0",
        "2. Carl 0",
        "5. Emil −1",
        "3 hands",
    ]
    assert link == "http://testserver" + meeting.get_absolute_url()
    assert table["title"] == title and table["rows"][0] == ["1.", "Dora", "+1"] and len(table["rows"]) == 5
    assert table["file"] == f"kartenliga-{meeting.league.slug}-2026-11-20.png"


def test_a_league_with_a_public_link_shares_the_evenings_public_page(client, evening):
    meeting, keeper = evening
    meeting.league.public_token = "abcdefghijklmnopqrstuvwxyz012345"
    meeting.league.save(update_fields=["public_token"])
    close(meeting, keeper)
    client.force_login(keeper)
    _title, _text, link, _table = share_of(client.get(meeting.get_absolute_url()).content.decode(), "share-evening")
    assert link == "http://testserver" + reverse("public_meeting", args=[meeting.league.public_token, meeting.pk])


def test_an_open_evening_has_nothing_to_share_and_offers_the_screen_on(client, evening):
    meeting, keeper = evening
    client.force_login(keeper)
    page = client.get(meeting.get_absolute_url()).content.decode()
    assert "data-share=" not in page
    assert re.search(
        r'<button type="button" class="secondary wake-lock" hidden aria-pressed="false" data-wake-lock>', page
    )
    close(meeting, keeper)
    assert "data-wake-lock" not in client.get(meeting.get_absolute_url()).content.decode()


def test_the_evenings_text_is_in_the_readers_language(client, evening):
    meeting, keeper = evening
    close(meeting, keeper)
    client.force_login(keeper)
    page = client.get(meeting.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    title, text, _link, _table = share_of(page, "share-evening")
    assert title == "Kreuz-Dame · 20. November 2026"


def test_a_stored_bill_is_shared_with_its_shares_and_who_pays_whom(client, bill_league):  # noqa: F811
    keeper = member(bill_league, Role.SCOREKEEPER)
    bill = {"total": "100.00", "method": "equal", "paid_by": "Anna"}
    seasons_services.settle_bill(season=bill_league.seasons.get(), bill=bill, user=keeper)
    client.force_login(keeper)
    title, text, link, table = share_of(client.get(bill_url(bill_league)).content.decode(), "share-bill")
    season = bill_league.seasons.get()
    assert title == f"{bill_league.name} · {season}: the bill"
    lines = text.splitlines()
    assert lines[:3] == [title, "100.00\u00a0€ to split", "1. Ben (+5): 20.00\u00a0€"]
    assert lines[-5:] == [
        "Who pays whom:",
        "Ben → Anna: 20.00\u00a0€",
        "Emil → Anna: 20.00\u00a0€",
        "Carl → Anna: 20.00\u00a0€",
        "Dora → Anna: 20.00\u00a0€",
    ]
    assert link == "http://testserver" + bill_url(bill_league)
    assert table["rows"][-1] == ["5.", "Dora", "−6", "20.00\u00a0€"]


def test_a_split_from_a_link_is_shared_with_that_link(client, bill_league):  # noqa: F811
    client.force_login(member(bill_league, Role.SCOREKEEPER))
    response = client.get(bill_url(bill_league), {"total": "100", "method": "per_point", "cents_per_point": "10"})
    title, text, link, _table = share_of(response.content.decode(), "share-split")
    assert "1. Ben (+5): 19.50\u00a0€" in text.splitlines() and "Who pays whom:" not in text
    assert link == response.context["share_url"]
    assert 'data-share="share-bill"' not in response.content.decode()
