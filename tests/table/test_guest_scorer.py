"""The guest scorer's pages (leagues/table/views/guest.py): a guest without an account opens
his table by the link a scorekeeper made, enters its hands, and the history names him; the
link is refused (403, a page saying why) at another table, after the evening, after its
revocation and expiry, and when tampered with. And a member who scans the table's code logs
in and lands at the table.

Doppelkopf, club rules, five at the table: hand 1 is a normal game Re (Ben and Dora) wins with
131 eyes and no announcements: 1 point, +1 to each Re player, -1 to each Kontra player, Anna
deals and sits out (doppelkopf.md)."""

import datetime
import uuid

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Hand, HandResult, Role, ScorerLink
from leagues.table import scorer_links, services
from leagues.table.meetings import close_meeting_row, reopen_meeting
from tests.factories import PASSWORD, LeagueFactory, meeting_for, member

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]
FORM = {"kind": "normal", "re": ["Ben", "Dora"], "eyes": "131", "eyes_for": "re"}
PAYLOAD = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131, "announcements": [], "specials": []}


@pytest.fixture
def meeting():
    return meeting_for(LeagueFactory(), NAMES, date=timezone.localdate())


@pytest.fixture
def keeper(meeting):
    return member(meeting.league, Role.SCOREKEEPER, first_name="Kai")


@pytest.fixture
def link(meeting, keeper):
    return scorer_links.make_link(meeting=meeting, name="Jonas", by=keeper)


def page(link, pk=None):
    return reverse("guest_table", kwargs={"token": scorer_links.token_of(link), "pk": pk or link.meeting_id})


def entry(link, pk=None):
    return reverse("guest_hand", kwargs={"token": scorer_links.token_of(link), "pk": pk or link.meeting_id})


def hand_one(**extra):
    return {"expected_hand": "1", "idempotency_key": str(uuid.uuid4()), **FORM, **extra}


def totals(meeting):
    rows = HandResult.objects.filter(hand__meeting=meeting, hand__number=1).select_related("player")
    return {row.player.name: row.total for row in rows}


# --- the guest at his table ----------------------------------------------------------------


def test_the_guest_sees_his_tables_sheet_and_form_and_nothing_else_of_the_league(client, meeting, link):
    response = client.get(page(link))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="hand-form"' in html and "Enter hand 1" in html
    assert f'action="{entry(link)}"' in html
    assert "You keep score as a guest: Jonas." in html
    # No way into the league: its page, standings, the evening's history, other tables.
    slug = meeting.league.slug
    assert f"/l/{slug}/" not in html
    assert "My leagues" not in html and 'href="/"' not in html
    assert meeting.league.name not in html


def test_the_guest_enters_a_hand_and_the_history_names_him(client, meeting, link, keeper):
    response = client.post(entry(link), hand_one())
    assert response.status_code == 302 and response["Location"] == page(link) + "#sheet"
    hand = Hand.objects.get(meeting=meeting)
    assert hand.entered_by is None and hand.payload == PAYLOAD
    assert totals(meeting) == {"Anna": 0, "Ben": 1, "Carl": -1, "Dora": 1, "Emil": -1}
    record = hand.history.get()
    assert (record.history_user, record.history_user_name) == (None, "Jonas")
    # The members' history page says who: a guest, by his name.
    client.force_login(keeper)
    html = client.get(reverse("meeting_history", args=[meeting.league.slug, meeting.pk])).content.decode()
    assert "by Guest: Jonas" in html


def test_the_leagues_activity_names_the_guest(client, meeting, link, keeper):
    client.post(entry(link), hand_one())
    client.force_login(keeper)
    html = client.get(reverse("league_activity", args=[meeting.league.slug])).content.decode()
    assert "by Guest: Jonas" in html


def test_htmx_gets_the_guests_table_with_the_new_row(client, meeting, link):
    response = client.post(entry(link), hand_one(), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="at-table"')
    assert 'id="hand-1"' in html and "Enter hand 2" in html


def test_a_double_tap_enters_the_hand_once(client, meeting, link):
    form = hand_one()
    assert client.post(entry(link), form, HTTP_HX_REQUEST="true").status_code == 200
    assert client.post(entry(link), form, HTTP_HX_REQUEST="true").status_code == 200
    assert Hand.objects.filter(meeting=meeting).count() == 1


def test_a_hand_another_phone_entered_first_is_a_conflict(client, meeting, link, keeper):
    services.enter_hand(meeting=meeting, payload=PAYLOAD, by=keeper, number=1)
    response = client.post(entry(link), hand_one(re=["Carl", "Emil"]), HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    html = response.content.decode()
    assert "Someone just entered hand 1." in html and 'value="Carl" checked' in html
    assert Hand.objects.filter(meeting=meeting).count() == 1


def test_a_form_with_problems_is_answered_with_its_messages(client, meeting, link):
    response = client.post(entry(link), hand_one(eyes="300"))
    assert response.status_code == 400
    assert 'id="hand-form"' in response.content.decode()
    assert not Hand.objects.filter(meeting=meeting).exists()


def test_a_guest_at_a_table_of_a_club_night_sees_that_table_only(client):
    from tests.factories import night_for

    league = LeagueFactory()
    night = night_for(league, [NAMES[:4], ["Fritz", "Gabi", "Hans", "Ida"]], date=timezone.localdate())
    second = night.tables.get(table_number=2)
    link = scorer_links.make_link(meeting=second, name="Jonas", by=None)
    html = client.get(page(link)).content.decode()
    assert "Table 2" in html and "Fritz" in html and "Anna" not in html
    first = night.tables.get(table_number=1)
    assert_refused(client.post(entry(link, pk=first.pk), hand_one()), "for another table")
    assert client.post(entry(link), {**hand_one(), "re": ["Fritz", "Gabi"]}).status_code == 302
    assert list(Hand.objects.values_list("meeting_id", flat=True)) == [second.pk]


# --- refused -------------------------------------------------------------------------------


def assert_refused(response, words):
    assert response.status_code == 403
    html = response.content.decode()
    assert words in html and 'id="hand-form"' not in html


def test_it_refuses_a_token_at_another_table(client, meeting, link):
    other = meeting_for(meeting.league, NAMES, date=meeting.date)
    assert_refused(client.get(page(link, pk=other.pk)), "for another table")
    assert_refused(client.post(entry(link, pk=other.pk), hand_one()), "for another table")
    assert not Hand.objects.exists()


def test_it_refuses_a_token_at_a_members_address_of_its_own_table(client, meeting, link):
    """The token opens the guest's addresses only: the members' sheet asks for a login."""
    address = reverse("hand_add_hx", args=[meeting.league.slug, meeting.pk])
    response = client.post(address + f"?token={scorer_links.token_of(link)}", hand_one())
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not Hand.objects.exists()


def test_it_refuses_a_token_after_the_evening(client, meeting, link, keeper):
    close_meeting_row(meeting, user=keeper)
    assert_refused(client.get(page(link)), "evening has ended")
    assert_refused(client.post(entry(link), hand_one()), "evening has ended")
    # Nor after a reopening: the links of before it stay ended.
    reopen_meeting(meeting=meeting, user=member(meeting.league, Role.ADMIN), reason="Hand 1 was wrong")
    assert_refused(client.post(entry(link), hand_one()), "evening has ended")
    assert not Hand.objects.exists()


def test_it_refuses_a_hand_when_the_evening_closed_while_the_form_was_open(client, meeting, link, keeper, monkeypatch):
    """Closed between the link's check and the meeting's lock: the write refuses it (403)."""
    check = scorer_links.usable_link

    def checked_then_closed(**kwargs):
        found = check(**kwargs)
        close_meeting_row(meeting, user=keeper)
        return found

    monkeypatch.setattr(scorer_links, "usable_link", checked_then_closed)
    assert_refused(client.post(entry(link), hand_one()), "evening has ended")
    assert not Hand.objects.exists()


def test_it_refuses_a_token_after_revocation(client, meeting, link, keeper):
    assert client.get(page(link)).status_code == 200
    scorer_links.revoke_link(link=link, by=keeper)
    assert_refused(client.get(page(link)), "withdrawn this scorer link")
    assert_refused(client.post(entry(link), hand_one()), "withdrawn this scorer link")
    assert not Hand.objects.exists()


def test_it_refuses_a_token_after_its_expiry(client, meeting, link):
    ScorerLink.objects.filter(pk=link.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    assert_refused(client.get(page(link)), "has expired")
    assert_refused(client.post(entry(link), hand_one()), "has expired")
    assert not Hand.objects.exists()


@pytest.mark.parametrize(
    "tamper",
    [
        lambda t: t[:-2] + ("AA" if t[-2:] != "AA" else "BB"),
        lambda t: str(int(t.split(".")[0]) + 1) + t[t.index(".") :],
        lambda t: t.replace(":", ":x", 1)[:-1],
    ],
    ids=["signature", "id", "signature shifted"],
)
def test_it_refuses_a_tampered_token(client, meeting, link, tamper):
    token = tamper(scorer_links.token_of(link))
    for response in (
        client.get(reverse("guest_table", kwargs={"token": token, "pk": meeting.pk})),
        client.post(reverse("guest_hand", kwargs={"token": token, "pk": meeting.pk}), hand_one()),
    ):
        assert_refused(response, "not valid")
    assert not Hand.objects.exists()


def test_a_token_of_no_form_at_all_is_no_address(client, meeting):
    assert client.get(f"/s/nonsense/m/{meeting.pk}/").status_code == 404
    assert client.get(f"/s/1.abc:%00/m/{meeting.pk}/").status_code == 404


# --- a member scans the table's code -------------------------------------------------------


def test_a_member_who_scans_the_code_logs_in_and_lands_at_the_table(client, meeting):
    scorer = member(meeting.league, Role.SCOREKEEPER, username="mia")
    sheet = reverse("meeting", args=[meeting.league.slug, meeting.pk])
    response = client.get(sheet)
    assert response.status_code == 302 and response["Location"] == f"/accounts/login/?next={sheet}"
    response = client.post(response["Location"], {"username": scorer.username, "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == sheet
    assert 'id="hand-form"' in client.get(sheet).content.decode()
