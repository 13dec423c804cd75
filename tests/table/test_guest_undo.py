"""A guest scorer's undo of his last hand, and the undo of that undo, by his scorer link
(leagues/table/views/guest_undo.py over leagues/table/undo.py): the member's rules (only the
evening's last hand, only his own, at the version his page showed), his link's rules (his
table, while it works), and the history names him ("Guest: Jonas") as it does for his hands.

Doppelkopf, club rules, five at the table, the hands of tests/table/test_hand_undo.py: every
hand a normal game Re wins with 131 eyes, 1 point. Hand 1 Ben and Dora win, hand 2 Carl and
Emil, hand 3 Anna and Dora: after two hands Anna -1, Ben 1, Carl 0, Dora 0, Emil 0; after
three Anna 0, Ben 0, Carl 0, Dora 1, Emil -1."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Hand, Role, ScorerLink
from leagues.table import guest_marks, scorer_links, services
from leagues.table.meetings import close_meeting_row
from tests.factories import LeagueFactory, meeting_for, member
from tests.table.test_hand_undo import AFTER_THREE, AFTER_TWO, HANDS, NAMES, totals, won_by

pytestmark = pytest.mark.django_db


@pytest.fixture
def meeting():
    return meeting_for(LeagueFactory(game="doppelkopf", variant="club"), NAMES, date=timezone.localdate())


@pytest.fixture
def keeper(meeting):
    return member(meeting.league, Role.SCOREKEEPER, first_name="Kai")


@pytest.fixture
def link(meeting, keeper):
    return scorer_links.make_link(meeting=meeting, name="Jonas", by=keeper)


@pytest.fixture
def three(meeting, keeper, link):
    """Hands 1 and 2 by Kai, a member; hand 3 by the guest Jonas, by his link."""
    first, second = (services.enter_hand(meeting=meeting, payload=p, by=keeper).hand for p in HANDS[:2])
    third = services.enter_hand(meeting=meeting, payload=HANDS[2], by=None, guest=link).hand
    return [first, second, third]


def address(name, link, hand=None, *, pk=None, token=None):
    kwargs = {"token": token or scorer_links.token_of(link), "pk": pk or link.meeting_id}
    if hand is not None:
        kwargs["hand_pk"] = hand.pk
    return reverse(name, kwargs=kwargs)


def fresh(hand):
    return Hand.objects.get(pk=hand.pk)


def assert_refused(response, words):
    assert response.status_code == 403
    html = response.content.decode()
    assert words in html and 'id="hand-form"' not in html


# --- the guest undoes his last hand ----------------------------------------------------------


def test_the_guest_undoes_his_last_hand_and_his_page_offers_it_back(client, meeting, link, three):
    page = address("guest_table", link)
    assert f'action="{address("guest_hand_undo", link, three[2])}"' in client.get(page).content.decode()
    response = client.post(address("guest_hand_undo", link, three[2]), {"version": "1"})
    assert response.status_code == 302 and response["Location"] == f"{page}?undone={three[2].pk}#sheet"
    assert fresh(three[2]).deleted_at is not None and totals(meeting) == AFTER_TWO
    html = client.get(response["Location"]).content.decode()
    assert "Hand 3 undone." in html and "Enter hand 3" in html
    assert f'action="{address("guest_hand_redo", link, three[2])}"' in html and 'name="version" value="2"' in html
    # Hand 2 is the last now, and Kai entered it: the guest has no undo for it.
    assert 'form="undo-last"' not in html


def test_the_guest_brings_the_undone_hand_back(client, meeting, link, three):
    client.post(address("guest_hand_undo", link, three[2]), {"version": "1"})
    response = client.post(address("guest_hand_redo", link, three[2]), {"version": "2"})
    assert response.status_code == 302 and response["Location"] == address("guest_table", link) + "#hand-3"
    hand = fresh(three[2])
    assert hand.deleted_at is None and hand.number == 3 and hand.version == 3 and totals(meeting) == AFTER_THREE
    html = client.get(response["Location"]).content.decode()
    assert "Hand 3 is back." in html and "Hand 3 undone." not in html
    assert f'action="{address("guest_hand_undo", link, three[2])}"' in html


def test_htmx_gets_the_guests_table_with_the_undo_of_the_undo_in_it(client, meeting, link, three):
    response = client.post(address("guest_hand_undo", link, three[2]), {"version": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="at-table"') and "<html" not in html
    assert 'id="hand-3"' not in html and 'id="hand-2"' in html
    assert "Hand 3 undone." in html and f'hx-post="{address("guest_hand_redo", link, three[2])}"' in html
    response = client.post(address("guest_hand_redo", link, three[2]), {"version": "2"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="hand-3"' in html and "Hand 3 undone." not in html and 'form="undo-last"' in html


def test_the_hand_the_guest_just_entered_comes_with_its_undo(client, meeting, link):
    form = {"expected_hand": "1", "kind": "normal", "re": ["Ben", "Dora"], "eyes": "131", "eyes_for": "re"}
    response = client.post(address("guest_hand", link), form, HTTP_HX_REQUEST="true")
    hand = Hand.objects.get(meeting=meeting)
    assert f'hx-post="{address("guest_hand_undo", link, hand)}"' in response.content.decode()


def test_the_history_names_the_guest_for_the_undo_and_its_undo(client, meeting, keeper, link, three):
    client.post(address("guest_hand_undo", link, three[2]), {"version": "1"})
    client.post(address("guest_hand_redo", link, three[2]), {"version": "2"})
    records = three[2].history.order_by("history_date", "history_id")
    reason = guest_marks.reason(link.pk)
    assert [(r.version, r.history_user_id, r.history_user_name, r.history_change_reason) for r in records] == [
        (1, None, "Jonas", reason),
        (2, None, "Jonas", reason),
        (3, None, "Jonas", reason),
    ]
    client.force_login(keeper)
    html = client.get(reverse("meeting_history", args=[meeting.league.slug, meeting.pk])).content.decode()
    # Entered, deleted and restored by him; hands 1 and 2 by Kai.
    assert html.count("by Guest: Jonas") == 3 and html.count("by Kai") == 2


def test_an_undo_sent_twice_undoes_once_and_answers_both(client, meeting, link, three):
    first = client.post(address("guest_hand_undo", link, three[2]), {"version": "1"})
    second = client.post(address("guest_hand_undo", link, three[2]), {"version": "1"})
    assert first.status_code == second.status_code == 302
    assert fresh(three[2]).version == 2 and fresh(three[1]).deleted_at is None and totals(meeting) == AFTER_TWO


# --- whose hand: his own only ----------------------------------------------------------------


def test_it_refuses_a_members_hand(client, meeting, link, three):
    """Hand 2 is Kai's: even as the last hand it is not the guest's to undo."""
    services.delete_hand(hand=three[2], by=None, version=1, guest=link)
    response = client.post(address("guest_hand_undo", link, three[1]), {"version": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "Only whoever entered hand 2 can undo it; a member at the table can correct or delete it." in (
        response.content.decode()
    )
    assert fresh(three[1]).deleted_at is None and totals(meeting) == AFTER_TWO


def test_it_refuses_another_guests_hand(client, meeting, keeper, link, three):
    lena = scorer_links.make_link(meeting=meeting, name="Lena", by=keeper)
    assert 'form="undo-last"' not in client.get(address("guest_table", lena)).content.decode()
    response = client.post(address("guest_hand_undo", lena, three[2]), {"version": "1"})
    assert response.status_code == 400 and "Only whoever entered hand 3 can undo it" in response.content.decode()
    assert fresh(three[2]).deleted_at is None and totals(meeting) == AFTER_THREE


def test_it_refuses_the_undo_of_another_guests_undo(client, meeting, keeper, link, three):
    lena = scorer_links.make_link(meeting=meeting, name="Lena", by=keeper)
    client.post(address("guest_hand_undo", link, three[2]), {"version": "1"})
    assert "Hand 3 undone." not in client.get(address("guest_table", lena) + f"?undone={three[2].pk}").content.decode()
    response = client.post(address("guest_hand_redo", lena, three[2]), {"version": "2"})
    assert response.status_code == 400 and "Only whoever entered this hand can bring it back" in (
        response.content.decode()
    )
    assert fresh(three[2]).deleted_at is not None and totals(meeting) == AFTER_TWO


def test_a_new_link_for_the_same_guest_is_not_the_link_that_entered_the_hand(client, meeting, keeper, link, three):
    """His hands are his link's: a link made anew for "Jonas" after the first was withdrawn
    entered nothing yet."""
    scorer_links.revoke_link(link=link, by=keeper)
    again = scorer_links.make_link(meeting=meeting, name="Jonas", by=keeper)
    response = client.post(address("guest_hand_undo", again, three[2]), {"version": "1"})
    assert response.status_code == 400 and fresh(three[2]).deleted_at is None


def test_a_member_cannot_undo_the_guests_hand(client, meeting, keeper, link, three):
    client.force_login(keeper)
    target = reverse("hand_undo", args=[meeting.league.slug, meeting.pk, three[2].pk])
    response = client.post(target, {"version": "1"})
    assert response.status_code == 400 and "Only whoever entered hand 3 can undo it" in response.content.decode()
    assert fresh(three[2]).deleted_at is None


def test_it_refuses_his_hand_once_another_follows(client, meeting, keeper, link, three):
    services.enter_hand(meeting=meeting, payload=won_by("Ben", "Carl"), by=keeper)
    response = client.post(address("guest_hand_undo", link, three[2]), {"version": "1"})
    assert response.status_code == 400
    assert "Hand 3 is no longer the last hand: hand 4 was entered after it." in response.content.decode()
    assert fresh(three[2]).deleted_at is None


def test_it_refuses_to_bring_back_his_hand_a_member_deleted_on_its_page(client, meeting, keeper, link, three):
    # A member deleted the guest's hand on its page: the guest's undo of the undo takes back
    # his own undo only, so his link cannot bring it back.
    services.delete_hand(hand=three[2], by=keeper, version=1)
    response = client.post(address("guest_hand_redo", link, three[2]), {"version": "2"})
    assert response.status_code == 400 and "deleted on its own page" in response.content.decode()
    assert fresh(three[2]).deleted_at is not None and totals(meeting) == AFTER_TWO


def test_it_refuses_the_undo_of_the_undo_once_another_hand_follows(client, meeting, keeper, link, three):
    client.post(address("guest_hand_undo", link, three[2]), {"version": "1"})
    services.enter_hand(meeting=meeting, payload=HANDS[2], by=keeper)
    response = client.post(address("guest_hand_redo", link, three[2]), {"version": "2"})
    assert response.status_code == 400
    assert "cannot come back as the last one: hand 3 was entered since" in response.content.decode()
    assert fresh(three[2]).deleted_at is not None


def test_an_undo_of_a_hand_corrected_meanwhile_is_a_409(client, meeting, keeper, link, three):
    services.change_hand(hand=three[2], payload=won_by("Anna", "Ben"), by=keeper, version=1)
    response = client.post(address("guest_hand_undo", link, three[2]), {"version": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "Kai changed hand 3 after this page was shown: nothing was undone." in response.content.decode()
    assert fresh(three[2]).deleted_at is None


@pytest.mark.parametrize("version", ["", "abc", "0"])
def test_an_undo_without_a_good_version_is_a_400(client, meeting, link, three, version):
    response = client.post(address("guest_hand_undo", link, three[2]), {"version": version})
    assert response.status_code == 400 and fresh(three[2]).deleted_at is None


# --- his link: his table, while it works -----------------------------------------------------


@pytest.mark.parametrize("name", ["guest_hand_undo", "guest_hand_redo"])
def test_it_refuses_a_guest_at_another_table(client, meeting, link, three, name):
    other = meeting_for(meeting.league, NAMES, date=meeting.date)
    theirs = services.enter_hand(meeting=other, payload=HANDS[0], by=None, guest=link).hand
    # His token at the other table's address, and the other table's hand at his own.
    assert_refused(client.post(address(name, link, theirs, pk=other.pk), {"version": "1"}), "for another table")
    assert client.post(address(name, link, theirs), {"version": "1"}).status_code == 404
    assert fresh(theirs).deleted_at is None and fresh(three[2]).deleted_at is None


@pytest.mark.parametrize("name", ["guest_hand_undo", "guest_hand_redo"])
def test_it_refuses_a_guest_after_the_evening(client, meeting, keeper, link, three, name):
    if name == "guest_hand_redo":
        services.delete_hand(hand=three[2], by=None, version=1, guest=link)
    close_meeting_row(meeting, user=keeper)
    version = "1" if name == "guest_hand_undo" else "2"
    assert_refused(client.post(address(name, link, three[2]), {"version": version}), "evening has ended")
    assert fresh(three[2]).version == int(version)


def test_it_refuses_an_undo_when_the_evening_closed_after_the_links_check(
    client, meeting, keeper, link, three, monkeypatch
):
    check = scorer_links.usable_link

    def checked_then_closed(**kwargs):
        found = check(**kwargs)
        close_meeting_row(meeting, user=keeper)
        return found

    monkeypatch.setattr(scorer_links, "usable_link", checked_then_closed)
    assert_refused(client.post(address("guest_hand_undo", link, three[2]), {"version": "1"}), "evening has ended")
    assert fresh(three[2]).deleted_at is None


@pytest.mark.parametrize("name", ["guest_hand_undo", "guest_hand_redo"])
def test_it_refuses_a_guest_after_the_links_withdrawal(client, meeting, keeper, link, three, name):
    if name == "guest_hand_redo":
        services.delete_hand(hand=three[2], by=None, version=1, guest=link)
    scorer_links.revoke_link(link=link, by=keeper)
    version = "1" if name == "guest_hand_undo" else "2"
    assert_refused(client.post(address(name, link, three[2]), {"version": version}), "withdrawn this scorer link")
    assert fresh(three[2]).version == int(version)


def test_it_refuses_a_guest_after_the_links_expiry(client, meeting, link, three):
    ScorerLink.objects.filter(pk=link.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    assert_refused(client.post(address("guest_hand_undo", link, three[2]), {"version": "1"}), "has expired")
    assert fresh(three[2]).deleted_at is None


@pytest.mark.parametrize(
    "tamper",
    [
        lambda t: t[:-2] + ("AA" if t[-2:] != "AA" else "BB"),
        lambda t: str(int(t.split(".")[0]) + 1) + t[t.index(".") :],
    ],
    ids=["signature", "id"],
)
def test_it_refuses_a_tampered_token(client, meeting, link, three, tamper):
    token = tamper(scorer_links.token_of(link))
    response = client.post(address("guest_hand_undo", link, three[2], token=token), {"version": "1"})
    assert_refused(response, "not valid")
    assert fresh(three[2]).deleted_at is None


def test_an_undo_is_a_post(client, link, three):
    assert client.get(address("guest_hand_undo", link, three[2])).status_code == 405
