"""The meeting page put together from its kept frame and its table (views.meetings.whole_page,
issue 12) is the page rendered whole, for whoever reads it, in either language; and what the
frame shows (the league's name, the host, the pennant, the end time) shows as soon as it
changes."""

import datetime
import re

import pytest
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from leagues import fragments, pages, services
from leagues.models import Meeting, Membership, Player, Role
from leagues.views import meetings
from tests.factories import LeagueFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora"]
HAND = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131, "announcements": [], "specials": []}

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return LeagueFactory(game="doppelkopf", variant="club", name="Stammtisch Süd")


@pytest.fixture
def meeting(league):
    meeting = meeting_for(league, NAMES, end_time=datetime.time(23, 30))
    for _ in range(3):
        services.add_hand(meeting=meeting, payload=HAND, user=None)
    return meeting


def without_tokens(html):
    """The page but for its idempotency keys (UUIDs) and CSRF tokens (64 letters and digits)."""
    return re.sub(r"[0-9a-f-]{36}|[A-Za-z0-9]{64}", "", html)


def rendered_whole(request, context, *, status=200):
    return render(request, "meetings/meeting.html", context, status=status)


def both_ways(client, url, monkeypatch, *, keep=False, **headers):
    """The page as served (frame kept, table rendered) and as rendered whole, each afresh
    (``keep``: the frames kept by earlier requests stay, only the whole pages go)."""
    pages.clear()
    if not keep:
        fragments.clear()
    served = client.get(url, **headers)
    assert served.status_code == 200
    html = served.content.decode()
    # No stand-in reaches an answer (looked for before the tokens are taken out).
    assert meetings.TABLE_MARK not in html and pages.CSRF_STAND_IN not in html
    pages.clear()
    fragments.clear()
    with monkeypatch.context() as patch:
        patch.setattr(meetings, "whole_page", rendered_whole)
        whole = client.get(url, **headers)
    return without_tokens(html), without_tokens(whole.content.decode())


@pytest.mark.parametrize("role", [Role.MEMBER, Role.SCOREKEEPER, Role.ADMIN])
@pytest.mark.parametrize("language", ["de", "en"])
def test_the_page_from_its_frame_is_the_page_rendered_whole(client, monkeypatch, league, meeting, role, language):
    client.force_login(member(league, role))
    url = reverse("meeting", kwargs={"slug": league.slug, "pk": meeting.pk})
    served, whole = both_ways(client, url, monkeypatch, HTTP_ACCEPT_LANGUAGE=language)
    assert served == whole
    assert "Stammtisch Süd" in served


def test_a_frame_kept_for_one_reader_is_not_another_readers(client, monkeypatch, league, meeting):
    # Frames kept for a member in English; then the same member made scorekeeper, in English
    # and in German, then another member: each gets the page rendered whole for him, not a
    # kept frame of another role (the outbox), language or reader.
    url = reverse("meeting", kwargs={"slug": league.slug, "pk": meeting.pk})
    pages.clear()
    fragments.clear()
    reader = member(league, Role.MEMBER)
    client.force_login(reader)
    client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    Membership.objects.filter(league=league, user=reader).update(role=Role.SCOREKEEPER)
    for language in ["en", "de"]:
        served, whole = both_ways(client, url, monkeypatch, keep=True, HTTP_ACCEPT_LANGUAGE=language)
        assert served == whole and 'id="outbox"' in served
    client.force_login(member(league, Role.MEMBER))
    served, whole = both_ways(client, url, monkeypatch, keep=True, HTTP_ACCEPT_LANGUAGE="de")
    assert served == whole and 'id="outbox"' not in served


def test_a_closed_evening_with_a_forgotten_pennant_is_the_page_rendered_whole(client, monkeypatch, league, meeting):
    holder = Player.objects.get(league=league, name="Carl")
    meeting.pennant_holder, meeting.pennant_forgotten = holder, True
    meeting.save(update_fields=["pennant_holder", "pennant_forgotten"])
    admin = member(league, Role.ADMIN)
    # Closed as the page shows it (closing through services asks the round to be finished).
    Meeting.objects.filter(pk=meeting.pk).update(closed_at=timezone.now(), closed_by=admin)
    client.force_login(admin)
    url = reverse("meeting", kwargs={"slug": league.slug, "pk": meeting.pk})
    served, whole = both_ways(client, url, monkeypatch, HTTP_ACCEPT_LANGUAGE="de")
    assert served == whole
    assert "⚑ Carl" in served


def test_what_the_frame_shows_shows_as_soon_as_it_changes(client, league, meeting):
    client.force_login(member(league, Role.SCOREKEEPER))
    url = reverse("meeting", kwargs={"slug": league.slug, "pk": meeting.pk})
    assert "until 23:30" in client.get(url).content.decode()
    league.name = "Stammtisch Nord"
    league.save(update_fields=["name"])
    meeting.end_time = datetime.time(1, 15)
    meeting.save(update_fields=["end_time"])
    Player.objects.filter(pk=meeting.host_id).update(name="Annalena")
    page = client.get(url).content.decode()
    assert "Stammtisch Nord" in page and "Stammtisch Süd" not in page
    # The frame's own words (the table names the players too).
    assert "until 01:15" in page and re.search(r"at Annalena(&#x27;|')s", page)


def test_a_page_with_a_message_is_rendered_whole_with_it(client, league, meeting):
    client.force_login(member(league, Role.SCOREKEEPER))
    url = reverse("hand_add_hx", kwargs={"slug": league.slug, "pk": meeting.pk})
    post = {"expected_hand": "4", "kind": "normal", "re": ["Ben", "Dora"], "eyes": "131", "eyes_for": "re"}
    page = client.post(url, post, follow=True).content.decode()
    assert "Hand 4 saved." in page


def test_an_evening_copied_from_paper_is_the_page_rendered_whole(client, monkeypatch, league):
    # No hands, no form and no outbox: the totals as written (services.store_imported_totals).
    meeting = meeting_for(league, NAMES)
    players = {p.name: p.pk for p in Player.objects.filter(league=league)}
    services.store_imported_totals(meeting=meeting, totals={players["Anna"]: 30, players["Ben"]: -30})
    Meeting.objects.filter(pk=meeting.pk).update(closed_at=timezone.now())  # as the import leaves it
    client.force_login(member(league, Role.SCOREKEEPER))
    url = reverse("meeting", kwargs={"slug": league.slug, "pk": meeting.pk})
    served, whole = both_ways(client, url, monkeypatch, HTTP_ACCEPT_LANGUAGE="de")
    assert served == whole
    assert 'id="outbox"' not in served
