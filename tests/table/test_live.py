"""The evening's big screen (leagues/table/views/live.py, leagues/table/live.py): who may see
it, what it shows, and its polled part answered 304 while nothing it shows changed (its ETag:
the mark of the meeting's hands, its end and the reader's language and kind)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Hand, Meeting, Role
from leagues.table import services as table_services
from tests.factories import LeagueFactory, UserFactory, meeting_for, member
from tests.table.test_hand_undo import HANDS, NAMES, won_by

pytestmark = pytest.mark.django_db

TOKEN = "abcdefghijklmnopqrstuvwxyz012345"


@pytest.fixture
def evening():
    """Two hands entered of three (tests/table/test_hand_undo.py), the league with a public link."""
    league = LeagueFactory(name="Kreuz-Dame", game="doppelkopf", variant="club", public_token=TOKEN)
    meeting = meeting_for(league, NAMES)
    keeper = member(league, Role.SCOREKEEPER, first_name="Kai")
    for payload in HANDS[:2]:
        table_services.enter_hand(meeting=meeting, payload=payload, by=keeper)
    return meeting, keeper


def member_urls(meeting):
    args = {"slug": meeting.league.slug, "pk": meeting.pk}
    return reverse("meeting_live", kwargs=args), reverse("meeting_live_hx", kwargs=args)


def public_urls(meeting, token=TOKEN):
    args = {"token": token, "pk": meeting.pk}
    return reverse("public_live", kwargs=args), reverse("public_live_hx", kwargs=args)


def poll(client, url, etag=None):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(url, HTTP_HX_REQUEST="true", **headers)


# --- who may ----------------------------------------------------------------------------------


def test_a_member_sees_the_screen_and_its_part(client, evening):
    meeting, _keeper = evening
    client.force_login(member(meeting.league))
    page, part = member_urls(meeting)
    response = client.get(page)
    assert response.status_code == 200
    text = response.content.decode()
    assert 'hx-trigger="every 3s"' in text and f'hx-get="{part}"' in text
    assert text.count('<tr id="hand-') == 2
    answer = poll(client, part)
    assert answer.status_code == 200 and answer["ETag"]
    assert answer["Cache-Control"] in ("private, no-cache", "no-cache, private")
    assert answer.content.decode().count('<tr id="hand-') == 2


def test_the_public_link_shows_the_screen_without_a_login(client, evening):
    meeting, _keeper = evening
    page, part = public_urls(meeting)
    assert client.get(page).status_code == 200
    answer = poll(client, part)
    assert answer.status_code == 200 and answer["ETag"]
    assert 'href="/l/' not in answer.content.decode()  # no members' link on the public screen


def test_nobody_else_sees_it(client, evening):
    meeting, _keeper = evening
    page, part = member_urls(meeting)
    # Anonymous: the login page.
    assert client.get(page).status_code == 302 and poll(client, part).status_code == 302
    # Not a member (with the ETag a member was given: still no 304).
    client.force_login(member(meeting.league))
    etag = poll(client, part)["ETag"]
    client.force_login(UserFactory())
    assert client.get(page).status_code == 404 and poll(client, part, etag).status_code == 404
    client.logout()
    # A wrong token, and the league's token once revoked.
    wrong_page, wrong_part = public_urls(meeting, token="x" * 32)
    assert client.get(wrong_page).status_code == 404 and poll(client, wrong_part).status_code == 404
    public_page, public_part = public_urls(meeting)
    public_etag = poll(client, public_part)["ETag"]
    meeting.league.public_token = None
    meeting.league.save(update_fields=["public_token"])
    assert client.get(public_page).status_code == 404
    assert poll(client, public_part, public_etag).status_code == 404


def test_a_meeting_of_another_league_is_not_shown_by_this_leagues_link(client, evening):
    meeting, _keeper = evening
    other = meeting_for(LeagueFactory(public_token="o" * 32), NAMES)
    _page, part = public_urls(other)
    assert poll(client, part).status_code == 404


# --- what it shows ----------------------------------------------------------------------------


def test_the_screen_shows_the_standings_and_who_deals_next(client, evening):
    meeting, _keeper = evening
    client.force_login(member(meeting.league))
    text = client.get(member_urls(meeting)[0]).content.decode()
    # After two hands: Ben +1, Anna −1, the others 0 (tests/table/test_hand_undo.py).
    assert '<span class="place">1.</span> <span class="name">Ben</span> <b class="figure">+1</b>' in text
    assert '<span class="name">Anna</span> <b class="figure">−1</b>' in text
    assert "Next: hand 3" in text and "deals" in text
    assert 'class="topbar"' not in text and "<form" not in text  # no controls


def test_the_screen_speaks_german(client, evening):
    meeting, _keeper = evening
    client.force_login(member(meeting.league))
    text = client.get(member_urls(meeting)[0], HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Als Nächstes: Spiel 3" in text and " gibt" in text


# --- the ETag ---------------------------------------------------------------------------------


def test_an_unchanged_poll_is_answered_304(client, evening):
    meeting, _keeper = evening
    client.force_login(member(meeting.league))
    _page, part = member_urls(meeting)
    etag = poll(client, part)["ETag"]
    again = poll(client, part, etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag


def test_the_etag_differs_by_language_and_by_kind_of_reader(client, evening):
    meeting, _keeper = evening
    client.force_login(member(meeting.league))
    member_part, public_part = member_urls(meeting)[1], public_urls(meeting)[1]
    english = poll(client, member_part)["ETag"]
    german = client.get(member_part, HTTP_ACCEPT_LANGUAGE="de")["ETag"]
    public = poll(client, public_part)["ETag"]
    assert len({english, german, public}) == 3


def changes(meeting, keeper):
    """Each write that changes what the screen shows, one after another."""

    def entered():
        table_services.enter_hand(meeting=meeting, payload=HANDS[2], by=keeper)

    def corrected():
        hand = Hand.objects.filter(meeting=meeting).order_by("position").first()
        table_services.change_hand(hand=hand, payload=won_by("Ben", "Carl"), by=keeper, version=hand.version)

    def deleted():
        hand = Hand.objects.filter(meeting=meeting, deleted_at=None).order_by("-position").first()
        table_services.delete_hand(hand=hand, by=keeper, version=hand.version)

    def closed():
        # Mid-round, as an admin's season close ends it (the button waits for the round's end).
        Meeting.objects.filter(pk=meeting.pk).update(closed_at=timezone.now(), closed_by=keeper)

    return [entered, corrected, deleted, closed]


def test_the_etag_changes_with_every_write_the_screen_shows(client, evening):
    meeting, keeper = evening
    client.force_login(member(meeting.league))
    _page, part = member_urls(meeting)
    seen = [poll(client, part)["ETag"]]
    for change in changes(meeting, keeper):
        change()
        answer = poll(client, part, seen[-1])
        assert answer.status_code == 200, change.__name__
        seen.append(answer["ETag"])
        assert poll(client, part, seen[-1]).status_code == 304
    assert len(set(seen)) == len(seen)
    assert "The evening is over" in poll(client, part).content.decode()


def test_the_etag_changes_when_the_end_time_passes(client, evening):
    meeting, _keeper = evening
    client.force_login(member(meeting.league))
    _page, part = member_urls(meeting)
    # An end time long passed (the meeting is dated 2026-11-20; noon or later is that day).
    Meeting.objects.filter(pk=meeting.pk).update(end_time=datetime.time(23, 0))
    before = poll(client, part)["ETag"]
    Meeting.objects.filter(pk=meeting.pk).update(date=datetime.date(2099, 1, 1))
    assert poll(client, part, before).status_code == 200


# --- the meeting page for a member who only reads ------------------------------------------------


def test_a_reader_of_the_meeting_page_polls_its_table(client, evening):
    meeting, keeper = evening
    client.force_login(member(meeting.league))
    address = reverse("meeting_table_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk})
    assert f'hx-get="{address}"' in client.get(meeting.get_absolute_url()).content.decode()
    first = poll(client, address)
    assert first.status_code == 200 and first.content.decode().count('<tr id="hand-') == 2
    assert poll(client, address, first["ETag"]).status_code == 304
    table_services.enter_hand(meeting=meeting, payload=HANDS[2], by=keeper)
    assert poll(client, address, first["ETag"]).content.decode().count('<tr id="hand-') == 3
    # Whoever enters hands has the form instead: his page is drawn by his own entries.
    client.force_login(keeper)
    assert f'hx-get="{address}"' not in client.get(meeting.get_absolute_url()).content.decode()


def test_the_meeting_page_links_its_big_screen_while_the_evening_runs(client, db):
    league = LeagueFactory()
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora"])
    payload = {"kind": "normal", "re": ["Anna", "Ben"], "re_eyes": 131, "announcements": [], "specials": []}
    table_services.enter_hand(meeting=meeting, payload=payload, by=None)
    client.force_login(member(league, Role.MEMBER))
    live = reverse("meeting_live", kwargs={"slug": league.slug, "pk": meeting.pk})
    assert live in client.get(meeting.get_absolute_url()).content.decode()
