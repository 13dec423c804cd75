"""The meeting page's undo of the last hand and its undo (leagues/table/views/undo.py): a POST form
that works without JavaScript (an answer that redirects to the page, which then offers the
undo of the undo) and with htmx (the table with the offer in it). Who may: the scorekeeper
who entered the hand; anyone else is refused, and nothing changes.

Doppelkopf, club rules, five at the table; the hands as in tests/table/test_hand_undo.py."""

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Hand, Meeting, Role
from leagues.table import services
from tests.factories import LeagueFactory, meeting_for, member
from tests.table.test_hand_undo import AFTER_THREE, AFTER_TWO, HANDS, NAMES, totals, won_by

pytestmark = pytest.mark.django_db


@pytest.fixture
def meeting():
    return meeting_for(LeagueFactory(game="doppelkopf", variant="club"), NAMES)


@pytest.fixture
def people(meeting):
    league = meeting.league
    return {
        "keeper": member(league, Role.SCOREKEEPER, first_name="Kai"),
        "other": member(league, Role.SCOREKEEPER, first_name="Olga"),
        "admin": member(league, Role.ADMIN, first_name="Ada"),
        "member": member(league, Role.MEMBER, first_name="Mia"),
        "outsider": member(LeagueFactory(), Role.ADMIN),
    }


@pytest.fixture
def three(meeting, people):
    return [services.enter_hand(meeting=meeting, payload=p, by=people["keeper"]).hand for p in HANDS]


def url(name, meeting, hand=None):
    args = [meeting.league.slug, meeting.pk] + ([hand.pk] if hand is not None else [])
    return reverse(name, args=args)


def fresh(hand):
    return Hand.objects.get(pk=hand.pk)


# --- without JavaScript ----------------------------------------------------------------------


def test_the_enterer_undoes_the_last_hand_and_the_page_offers_it_back(client, meeting, people, three):
    client.force_login(people["keeper"])
    response = client.post(url("hand_undo", meeting, three[2]), {"version": "1"})
    assert response.status_code == 302
    assert response["Location"] == url("meeting", meeting) + f"?undone={three[2].pk}#sheet"
    assert fresh(three[2]).deleted_at is not None and totals(meeting) == AFTER_TWO
    html = client.get(response["Location"]).content.decode()
    assert "Hand 3 undone." in html
    assert f'action="{url("hand_redo", meeting, three[2])}"' in html and 'name="version" value="2"' in html
    # Hand 2 is the last now, and Kai entered it: one tap undoes it too.
    assert f'action="{url("hand_undo", meeting, three[1])}"' in html


def test_the_undo_of_the_undo_brings_the_hand_back_without_javascript(client, meeting, people, three):
    client.force_login(people["keeper"])
    client.post(url("hand_undo", meeting, three[2]), {"version": "1"})
    response = client.post(url("hand_redo", meeting, three[2]), {"version": "2"})
    assert response.status_code == 302 and response["Location"] == url("meeting", meeting) + "#hand-3"
    hand = fresh(three[2])
    assert hand.deleted_at is None and hand.number == 3 and totals(meeting) == AFTER_THREE
    html = client.get(response["Location"]).content.decode()
    assert "Hand 3 is back." in html and "Hand 3 undone." not in html
    assert f'action="{url("hand_undo", meeting, three[2])}"' in html


def test_the_page_offers_nothing_for_an_undone_hand_that_cannot_come_back_last(client, meeting, people, three):
    client.force_login(people["keeper"])
    client.post(url("hand_undo", meeting, three[2]), {"version": "1"})
    services.enter_hand(meeting=meeting, payload=HANDS[2], by=people["other"])
    html = client.get(url("meeting", meeting) + f"?undone={three[2].pk}").content.decode()
    assert "undone." not in html and url("hand_redo", meeting, three[2]) not in html.split('class="deleted-hands"')[0]


@pytest.mark.parametrize("undone", ["abc", "", "99999999", "-1"])
def test_a_page_address_with_no_undone_hand_in_it_is_the_plain_page(client, meeting, people, three, undone):
    client.force_login(people["keeper"])
    response = client.get(url("meeting", meeting) + f"?undone={undone}")
    assert response.status_code == 200 and "undone." not in response.content.decode()


# --- with htmx -------------------------------------------------------------------------------


def test_htmx_gets_the_table_with_the_undo_of_the_undo_in_it(client, meeting, people, three):
    client.force_login(people["keeper"])
    response = client.post(url("hand_undo", meeting, three[2]), {"version": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="at-table"') and "<html" not in html
    assert 'id="hand-3"' not in html and 'id="hand-2"' in html
    assert "Hand 3 undone." in html and 'hx-post="{}"'.format(url("hand_redo", meeting, three[2])) in html
    response = client.post(url("hand_redo", meeting, three[2]), {"version": "2"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="hand-3"' in html and "Hand 3 undone." not in html


# --- who may, and what is refused ------------------------------------------------------------


def test_only_the_enterer_sees_the_undo(client, meeting, people, three):
    button = 'form="undo-last"'
    for who, shown in (("keeper", True), ("other", False), ("admin", False), ("member", False)):
        client.force_login(people[who])
        assert (button in client.get(url("meeting", meeting)).content.decode()) is shown, who


@pytest.mark.parametrize("name", ["hand_undo", "hand_redo"])
def test_anonymous_members_and_outsiders_are_refused(client, meeting, people, three, name):
    if name == "hand_redo":
        services.delete_hand(hand=three[2], by=people["keeper"], version=1)
    version = "1" if name == "hand_undo" else "2"
    target = url(name, meeting, three[2])
    response = client.post(target, {"version": version})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    for who, status in (("member", 403), ("outsider", 404)):
        client.force_login(people[who])
        assert client.post(target, {"version": version}).status_code == status, who
    assert fresh(three[2]).version == int(version)


@pytest.mark.parametrize("who", ["other", "admin"])
def test_a_scorekeeper_or_admin_who_did_not_enter_it_is_refused(client, meeting, people, three, who):
    client.force_login(people[who])
    response = client.post(url("hand_undo", meeting, three[2]), {"version": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "Only whoever entered hand 3 can undo it" in response.content.decode()
    assert fresh(three[2]).deleted_at is None and totals(meeting) == AFTER_THREE


def test_an_undo_after_another_hand_was_entered_is_refused(client, meeting, people):
    first, second = (services.enter_hand(meeting=meeting, payload=p, by=people["keeper"]).hand for p in HANDS[:2])
    services.enter_hand(meeting=meeting, payload=HANDS[2], by=people["other"])
    client.force_login(people["keeper"])
    response = client.post(url("hand_undo", meeting, second), {"version": "1"})
    assert response.status_code == 400
    assert "Hand 2 is no longer the last hand: hand 3 was entered after it." in response.content.decode()
    assert fresh(second).deleted_at is None and totals(meeting) == AFTER_THREE


def test_an_undo_of_a_hand_corrected_meanwhile_is_a_409(client, meeting, people, three):
    services.change_hand(hand=three[2], payload=won_by("Anna", "Ben"), by=people["other"], version=1)
    client.force_login(people["keeper"])
    response = client.post(url("hand_undo", meeting, three[2]), {"version": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "Olga changed hand 3 after this page was shown: nothing was undone." in response.content.decode()
    assert fresh(three[2]).deleted_at is None


def test_an_undo_sent_twice_undoes_once_and_answers_both(client, meeting, people, three):
    client.force_login(people["keeper"])
    first = client.post(url("hand_undo", meeting, three[2]), {"version": "1"})
    second = client.post(url("hand_undo", meeting, three[2]), {"version": "1"})
    assert first.status_code == second.status_code == 302
    assert fresh(three[2]).version == 2 and fresh(three[1]).deleted_at is None


def test_an_undo_on_a_closed_evening_is_refused(client, meeting, people, three):
    Meeting.objects.filter(pk=meeting.pk).update(closed_at=timezone.now(), closed_by=people["keeper"])
    client.force_login(people["keeper"])
    response = client.post(url("hand_undo", meeting, three[2]), {"version": "1"})
    assert response.status_code == 400 and "This evening is closed" in response.content.decode()
    assert fresh(three[2]).deleted_at is None


@pytest.mark.parametrize("version", ["", "abc", "0"])
def test_an_undo_without_a_good_version_is_a_400_naming_it(client, meeting, people, three, version):
    client.force_login(people["keeper"])
    response = client.post(url("hand_undo", meeting, three[2]), {"version": version})
    assert response.status_code == 400
    assert fresh(three[2]).deleted_at is None


def test_a_hand_of_another_meeting_is_not_found(client, meeting, people, three):
    other = meeting_for(meeting.league, NAMES, date=meeting.date.replace(day=27))
    client.force_login(people["keeper"])
    assert client.post(url("hand_undo", other, three[2]), {"version": "1"}).status_code == 404
    assert client.get(url("hand_undo", meeting, three[2])).status_code == 405
