"""Whole pages kept under their league's stamp (leagues/pages.py): a page shown again as it
was costs the session, the user and the league, and every change of the league shows."""

import datetime
import re
import time

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from leagues import pages, services
from leagues.models import MeetingResult, Player, Role
from tests.factories import LeagueFactory, UserFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]
HAND = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131, "announcements": [], "specials": []}

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    league = LeagueFactory(game="doppelkopf", variant="club")
    return services.set_public_link(league=league, enabled=True)


@pytest.fixture
def meeting(league):
    return meeting_for(league, NAMES)


@pytest.fixture
def scorekeeper(league):
    return member(league, Role.SCOREKEEPER)


def urls(league, meeting):
    return {
        "league": reverse("league", kwargs={"slug": league.slug}),
        "standings": reverse("standings", kwargs={"slug": league.slug}),
        "meeting": reverse("meeting", kwargs={"slug": league.slug, "pk": meeting.pk}),
        "public_standings": reverse("public_standings", kwargs={"token": league.public_token}),
        "public_meeting": reverse("public_meeting", kwargs={"token": league.public_token, "pk": meeting.pk}),
    }


def without_tokens(html):
    """The page but for its idempotency keys (UUIDs) and CSRF tokens (64 letters and digits)."""
    return re.sub(r"[0-9a-f-]{36}|[A-Za-z0-9]{64}", "", html)


def csrf_tokens(html):
    return set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html))


PAGES = ["league", "standings", "meeting", "public_standings", "public_meeting"]


@pytest.mark.parametrize("page", PAGES)
def test_it_keeps_each_page_with_its_league_unchanged(
    client, league, meeting, scorekeeper, page, django_assert_num_queries
):
    services.add_hand(meeting=meeting, payload=HAND, user=scorekeeper)
    client.force_login(scorekeeper)
    target = urls(league, meeting)[page]
    first = client.get(target)
    assert first.status_code == 200
    # Kept: the session, its user, and the league with its stamp (the meeting page, the
    # membership with its league and then the meeting: whether its end time has passed is
    # part of the key; the public one, the meeting with its league).
    with django_assert_num_queries(4 if page == "meeting" else 3):
        second = client.get(target)
    assert second.status_code == 200
    assert without_tokens(second.content.decode()) == without_tokens(first.content.decode())


@pytest.mark.parametrize("page", PAGES)
def test_no_stand_in_reaches_an_answer(client, league, meeting, scorekeeper, page):
    client.force_login(scorekeeper)
    target = urls(league, meeting)[page]
    for _ in range(2):  # rendered, then kept
        html = client.get(target).content.decode()
        assert pages.CSRF_STAND_IN not in html
        assert pages.IDEMPOTENCY_STAND_IN not in html


def test_a_kept_page_has_this_requests_csrf_token_and_a_fresh_key(league, meeting, scorekeeper):
    client = Client(enforce_csrf_checks=True)
    client.force_login(scorekeeper)
    target = urls(league, meeting)["meeting"]
    keys = []
    for _ in range(3):
        html = client.get(target).content.decode()
        keys.append(re.search(r'name="idempotency_key" value="([^"]+)"', html).group(1))
    assert len(set(keys)) == 3, "every form gets its own idempotency key"
    token = next(iter(csrf_tokens(html)))
    post = client.post(
        reverse("hand_add_hx", kwargs={"slug": league.slug, "pk": meeting.pk}),
        {
            "csrfmiddlewaretoken": token,
            "expected_hand": "1",
            "idempotency_key": keys[-1],
            "kind": "normal",
            "re": ["Ben", "Dora"],
            "eyes": "131",
            "eyes_for": "re",
        },
        HTTP_HX_REQUEST="true",
    )
    assert post.status_code == 200, "the kept page's CSRF token is accepted"
    assert meeting.hands.count() == 1


def test_a_page_kept_for_one_session_carries_the_next_sessions_own_csrf_token(league, meeting, scorekeeper):
    # The hand form is rendered by Jinja2 (views.meetings.hand_form_html): the kept page must
    # hold the stand-in there too, not the token of the session it was first rendered for.
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    first.force_login(scorekeeper)
    second.force_login(scorekeeper)
    target = urls(league, meeting)["meeting"]
    first.get(target)  # rendered and kept
    html = second.get(target).content.decode()  # kept
    form = re.search(r'<form id="hand-form".*?</form>', html, re.S).group(0)
    (token,) = csrf_tokens(form)
    post = second.post(
        reverse("hand_add_hx", kwargs={"slug": league.slug, "pk": meeting.pk}),
        {"csrfmiddlewaretoken": token, "expected_hand": "1", "kind": "normal", "re": ["Ben", "Dora"], "eyes": "131"},
        HTTP_HX_REQUEST="true",
    )
    assert post.status_code == 200, "the form's CSRF token is this session's"
    assert meeting.hands.count() == 1


def test_a_hand_entered_shows_on_every_page_at_once(client, league, meeting, scorekeeper):
    """Each page kept before the hand shows it right after. Re (Ben, Dora) win with 131 eyes
    against 109: 1 point for winning (doppelkopf.md, Points), +1 each for Re, -1 each for the
    two Kontra players, 0 for the dealer who sits out at five."""
    client.force_login(scorekeeper)
    anonymous = Client()
    u = urls(league, meeting)

    def page(name):
        return without_tokens((anonymous if name.startswith("public") else client).get(u[name]).content.decode())

    before = {name: page(name) for name in u}
    assert before["meeting"].count('<tr id="hand-') == 0
    response = client.post(
        reverse("hand_add_hx", kwargs={"slug": league.slug, "pk": meeting.pk}),
        {"expected_hand": "1", "kind": "normal", "re": ["Ben", "Dora"], "eyes": "131", "eyes_for": "re"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    after = {name: page(name) for name in u}
    assert after["meeting"].count('<tr id="hand-') == 1
    for name in ("standings", "public_standings", "public_meeting"):
        assert after[name] != before[name], name
    totals = {r.player.name: r.total for r in MeetingResult.objects.filter(meeting=meeting).select_related("player")}
    assert sorted(totals.values()) == [-1, -1, 0, 1, 1] and totals["Ben"] == totals["Dora"] == 1
    for name in ("standings", "public_standings"):
        # Ben's row in the season's table: his name, then his total of +1.
        assert re.search(r"Ben\s*</th>\s*<td[^>]*>\s*\+1\b", after[name]), name


def test_a_renamed_player_shows_on_the_kept_standings(client, league, meeting, scorekeeper):
    services.add_hand(meeting=meeting, payload=HAND, user=scorekeeper)
    client.force_login(scorekeeper)
    target = urls(league, meeting)["standings"]
    assert "Dora" in client.get(target).content.decode()
    Player.objects.filter(league=league, name="Dora").update(name="Dorothea")
    assert "Dorothea" in client.get(target).content.decode()


def test_each_role_and_each_member_get_their_own_page(client, league, meeting, scorekeeper):
    plain = member(league, Role.MEMBER)
    target = urls(league, meeting)["meeting"]
    client.force_login(scorekeeper)
    assert 'name="idempotency_key"' in client.get(target).content.decode()
    client.force_login(plain)
    assert 'name="idempotency_key"' not in client.get(target).content.decode(), "a member gets no hand form"


def test_the_language_is_part_of_the_key(client, league, meeting, scorekeeper):
    client.force_login(scorekeeper)
    target = urls(league, meeting)["standings"]
    english = client.get(target, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    german = client.get(target, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'lang="en"' in english
    assert 'lang="de"' in german


def test_a_message_is_shown_once_and_never_kept(client, league, meeting, scorekeeper):
    client.force_login(scorekeeper)
    target = urls(league, meeting)["meeting"]
    client.get(target)  # kept without a message
    response = client.post(
        reverse("hand_add_hx", kwargs={"slug": league.slug, "pk": meeting.pk}),
        {"expected_hand": "1", "kind": "normal", "re": ["Ben", "Dora"], "eyes": "131", "eyes_for": "re"},
    )
    assert response.status_code == 302
    shown = client.get(target)
    assert "Hand 1 saved." in shown.content.decode()
    assert "Hand 1 saved." not in client.get(target).content.decode()


def test_an_open_invite_is_not_kept_past_its_expiry(client, league, meeting):
    admin = member(league, Role.ADMIN)
    client.force_login(admin)
    invite = services.create_invite(league=league, role=Role.MEMBER, player=None, user=admin)
    target = urls(league, meeting)["league"]
    assert invite.token in client.get(target).content.decode()
    # It expires without a write: Invite.objects.open() reads the clock. Moving its expiry
    # into the past (a write) would change the stamp, so the clock moves instead.
    later = invite.expires_at + datetime.timedelta(seconds=1)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(timezone, "now", lambda: later)
        patch.setattr(time, "time", lambda: later.timestamp())  # the kept pages' clock
        assert invite.token not in client.get(target).content.decode()


def test_a_superuser_who_is_no_member_gets_pages_rendered_afresh(client, league, meeting):
    boss = UserFactory(is_superuser=True, is_staff=True)
    client.force_login(boss)
    target = urls(league, meeting)["standings"]
    assert client.get(target).status_code == 200
    assert client.get(target).status_code == 200


def test_another_leagues_meeting_is_no_public_sheet(client, league, meeting):
    other = LeagueFactory()
    elsewhere = meeting_for(other, NAMES)
    target = reverse("public_meeting", kwargs={"token": league.public_token, "pk": elsewhere.pk})
    assert client.get(target).status_code == 404
    assert client.get(target).status_code == 404


def _writes(league, meeting, user):
    """A few things a club does in an evening, one after the other."""
    hand = services.add_hand(meeting=meeting, payload=HAND, user=user)
    yield
    second = services.add_hand(meeting=meeting, payload={**HAND, "re": ["Anna", "Carl"]}, user=user)
    yield
    services.change_hand(hand=hand, payload={**HAND, "re_eyes": 90}, user=user, version=hand.version)
    yield
    services.delete_hand(hand=second, user=user, version=second.version)
    yield
    Player.objects.filter(league=league, name="Emil").update(name="Emilia")
    yield
    services.add_player(league=league, name="Fritz")
    yield
    services.change_role(membership=user.memberships.get(league=league), role=Role.ADMIN)
    yield


@pytest.mark.parametrize("page", PAGES)
def test_a_kept_page_is_always_the_page_rendered_afresh(client, league, meeting, scorekeeper, page):
    """Whatever the club did last, the page served equals the page rendered with nothing
    kept (but for the CSRF token and the idempotency key)."""
    client.force_login(scorekeeper)
    target = urls(league, meeting)[page]
    for _step in _writes(league, meeting, scorekeeper):
        client.get(target)  # kept (or rendered and kept)
        served = without_tokens(client.get(target).content.decode())
        pages.clear()
        fresh = without_tokens(client.get(target).content.decode())
        assert served == fresh
