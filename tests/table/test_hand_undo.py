"""Undo the last hand in one tap, and undo the undo (leagues/table/undo.py): a deletion and a
restore (league.md: no entered hand is ever lost, the history keeps who did what), allowed
only for the hand that is the evening's last, only to whoever entered it, at the version the
page showed.

Doppelkopf, club rules, five at the table: the dealer sits out. Every hand is a normal game
Re wins with 131 eyes and no announcements: 1 point ("gewonnen"), +1 to each Re player, -1 to
each Kontra player (doppelkopf.md). Hand 1: Anna deals, Ben and Dora win; hand 2: Ben deals,
Carl and Emil win; hand 3: Carl deals, Anna and Dora win."""

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from leagues import exceptions
from leagues.models import Hand, HandResult, Meeting, MeetingResult, Role
from leagues.table import services, undo, verify
from tests.factories import LeagueFactory, meeting_for, member

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil"]


def won_by(*re):
    return {"kind": "normal", "re": list(re), "re_eyes": 131, "announcements": [], "specials": []}


HANDS = [won_by("Ben", "Dora"), won_by("Carl", "Emil"), won_by("Anna", "Dora")]
AFTER_TWO = {"Anna": -1, "Ben": 1, "Carl": 0, "Dora": 0, "Emil": 0}
AFTER_THREE = {"Anna": 0, "Ben": 0, "Carl": 0, "Dora": 1, "Emil": -1}


@pytest.fixture
def meeting(db):
    return meeting_for(LeagueFactory(game="doppelkopf", variant="club"), NAMES)


@pytest.fixture
def keeper(meeting):
    return member(meeting.league, Role.SCOREKEEPER, first_name="Kai")


@pytest.fixture
def other(meeting):
    return member(meeting.league, Role.SCOREKEEPER, first_name="Olga")


@pytest.fixture
def three(meeting, keeper):
    return [services.enter_hand(meeting=meeting, payload=p, by=keeper).hand for p in HANDS]


def totals(meeting):
    """{player: total after the last live hand} from the cached hand results."""
    rows = HandResult.objects.filter(meeting=meeting).order_by("number").select_related("player")
    return {r.player.name: r.total for r in rows}


def evening(meeting):
    """{player: the evening's total} from the cached meeting results (what the standings sum)."""
    return {r.player.name: r.total for r in MeetingResult.objects.filter(meeting=meeting).select_related("player")}


def fresh(hand):
    return Hand.objects.get(pk=hand.pk)


def replays_as_stored(meeting):
    """The cached hand results, meeting results and numbers are those of a fresh replay."""
    checked, problems = verify.verify_replays(league=meeting.league)
    return checked == 1 and problems == []


def unchanged(meeting, hand, version, history):
    hand = fresh(hand)
    return hand.version == version and hand.history.count() == history and totals(meeting) == AFTER_THREE


# --- the undo --------------------------------------------------------------------------------


def test_the_one_who_entered_the_last_hand_undoes_it(meeting, keeper, three):
    assert totals(meeting) == AFTER_THREE
    undone = undo.undo_last_hand(hand=three[2], user=keeper, version=1)
    hand = fresh(three[2])
    assert undone.pk == hand.pk and hand.deleted_at is not None and hand.number is None and hand.version == 2
    assert hand.payload == HANDS[2]  # kept, to come back
    assert totals(meeting) == AFTER_TWO and evening(meeting) == AFTER_TWO
    assert replays_as_stored(meeting)
    kinds = list(hand.history.order_by("history_id").values_list("history_type", "history_user_id", "number"))
    assert kinds == [("+", keeper.pk, 3), ("~", keeper.pk, None)]  # entered, then deleted: kept in the history


def test_it_refuses_an_undo_by_another_scorekeeper(meeting, other, three):
    with pytest.raises(exceptions.InvalidInput) as caught:
        undo.undo_last_hand(hand=three[2], user=other, version=1)
    assert "Only whoever entered hand 3" in caught.value.errors[0]["message"]
    assert unchanged(meeting, three[2], 1, 1)


def test_it_refuses_an_undo_by_an_admin_who_did_not_enter_the_hand(meeting, three):
    admin = member(meeting.league, Role.ADMIN)
    with pytest.raises(exceptions.InvalidInput):
        undo.undo_last_hand(hand=three[2], user=admin, version=1)
    assert unchanged(meeting, three[2], 1, 1)


def test_it_refuses_an_undo_by_an_anonymous_user_even_of_a_hand_whose_enterer_is_gone(meeting, keeper, three):
    Hand.objects.filter(pk=three[2].pk).update(entered_by=None)  # the account was deleted
    with pytest.raises(exceptions.InvalidInput):
        undo.undo_last_hand(hand=three[2], user=AnonymousUser(), version=1)
    assert unchanged(meeting, three[2], 1, 1)


def test_it_refuses_to_undo_a_hand_that_is_not_the_last(meeting, keeper, three):
    with pytest.raises(exceptions.InvalidInput) as caught:
        undo.undo_last_hand(hand=three[1], user=keeper, version=1)
    assert caught.value.errors[0]["message"] == (
        "Hand 2 is no longer the last hand: hand 3 was entered after it. Correct or delete it on its own page."
    )
    assert fresh(three[1]).deleted_at is None and totals(meeting) == AFTER_THREE


def test_it_refuses_an_undo_once_someone_entered_another_hand(meeting, keeper, other):
    """The phone showed hand 2 as the last (version 1); another phone entered hand 3 meanwhile."""
    first, second = (services.enter_hand(meeting=meeting, payload=p, by=keeper).hand for p in HANDS[:2])
    services.enter_hand(meeting=meeting, payload=HANDS[2], by=other)
    with pytest.raises(exceptions.InvalidInput) as caught:
        undo.undo_last_hand(hand=second, user=keeper, version=1)
    assert "hand 3 was entered after it" in caught.value.errors[0]["message"]
    assert fresh(second).deleted_at is None and totals(meeting) == AFTER_THREE


def test_it_refuses_an_undo_of_a_hand_corrected_since_the_page_was_shown(meeting, keeper, other, three):
    services.change_hand(hand=three[2], payload=won_by("Anna", "Ben"), by=other, version=1)
    with pytest.raises(exceptions.StaleHand) as caught:
        undo.undo_last_hand(hand=three[2], user=keeper, version=1)
    assert caught.value.changed_by == other
    assert fresh(three[2]).deleted_at is None and fresh(three[2]).version == 2


def test_the_same_undo_sent_twice_undoes_once(meeting, keeper, three):
    undo.undo_last_hand(hand=three[2], user=keeper, version=1)
    again = undo.undo_last_hand(hand=three[2], user=keeper, version=1)  # a double tap, a resent form
    assert again.pk == three[2].pk and fresh(three[2]).version == 2
    assert fresh(three[2]).history.count() == 2
    assert fresh(three[1]).deleted_at is None and totals(meeting) == AFTER_TWO


def test_it_refuses_an_undo_of_a_closed_evening(meeting, keeper, three):
    Meeting.objects.filter(pk=meeting.pk).update(closed_at=timezone.now(), closed_by=keeper)
    with pytest.raises(exceptions.MeetingClosed):
        undo.undo_last_hand(hand=three[2], user=keeper, version=1)
    assert unchanged(meeting, three[2], 1, 1)


# --- the undo of the undo --------------------------------------------------------------------


def test_the_undo_of_the_undo_brings_the_same_hand_back_with_its_number(meeting, keeper, three):
    undo.undo_last_hand(hand=three[2], user=keeper, version=1)
    back = undo.redo_hand(hand=three[2], user=keeper, version=2)
    hand = fresh(three[2])
    assert back.pk == hand.pk and hand.deleted_at is None and hand.number == 3 and hand.version == 3
    assert hand.payload == HANDS[2] and Hand.objects.filter(meeting=meeting).count() == 3
    assert totals(meeting) == AFTER_THREE and evening(meeting) == AFTER_THREE
    assert replays_as_stored(meeting)
    assert list(hand.history.order_by("history_id").values_list("number", flat=True)) == [3, None, 3]


def test_a_hand_can_be_undone_again_after_the_undo_of_the_undo(meeting, keeper, three):
    undo.undo_last_hand(hand=three[2], user=keeper, version=1)
    undo.redo_hand(hand=three[2], user=keeper, version=2)
    undo.undo_last_hand(hand=three[2], user=keeper, version=3)
    assert fresh(three[2]).deleted_at is not None and fresh(three[2]).version == 4
    assert totals(meeting) == AFTER_TWO and replays_as_stored(meeting)


def test_the_same_undo_of_the_undo_sent_twice_brings_it_back_once(meeting, keeper, three):
    undo.undo_last_hand(hand=three[2], user=keeper, version=1)
    undo.redo_hand(hand=three[2], user=keeper, version=2)
    again = undo.redo_hand(hand=three[2], user=keeper, version=2)
    assert again.deleted_at is None and fresh(three[2]).version == 3 and fresh(three[2]).history.count() == 3


def test_it_refuses_the_undo_of_the_undo_once_another_hand_was_entered(meeting, keeper, other, three):
    """Hand 3 came back in its place, before the new hand 3, and renumbered it: refused."""
    undo.undo_last_hand(hand=three[2], user=keeper, version=1)
    new = services.enter_hand(meeting=meeting, payload=HANDS[2], by=other).hand
    with pytest.raises(exceptions.InvalidInput) as caught:
        undo.redo_hand(hand=three[2], user=keeper, version=2)
    assert "hand 3 was entered since" in caught.value.errors[0]["message"]
    assert fresh(three[2]).deleted_at is not None and fresh(new).number == 3


def test_it_refuses_to_bring_back_a_hand_someone_else_deleted_on_its_page(meeting, keeper, other, three):
    # The undo of the undo takes back one's own undo; a hand another scorekeeper deleted on
    # its page comes back from the deleted hands, where whoever restores it sees what he does.
    services.delete_hand(hand=three[2], by=other, version=1)
    with pytest.raises(exceptions.InvalidInput) as caught:
        undo.redo_hand(hand=three[2], user=keeper, version=2)
    assert "deleted on its own page" in caught.value.errors[0]["message"]
    assert fresh(three[2]).deleted_at is not None and totals(meeting) == AFTER_TWO


def test_it_refuses_the_undo_of_the_undo_by_someone_else(meeting, keeper, other, three):
    undo.undo_last_hand(hand=three[2], user=keeper, version=1)
    with pytest.raises(exceptions.InvalidInput):
        undo.redo_hand(hand=three[2], user=other, version=2)
    assert fresh(three[2]).deleted_at is not None and totals(meeting) == AFTER_TWO


def test_it_refuses_the_undo_of_the_undo_of_a_hand_restored_by_someone_else(meeting, keeper, other, three):
    undo.undo_last_hand(hand=three[2], user=keeper, version=1)
    services.restore_hand(hand=three[2], by=other, version=2)
    with pytest.raises(exceptions.StaleHand):
        undo.redo_hand(hand=three[2], user=keeper, version=2)
    assert fresh(three[2]).version == 3 and fresh(three[2]).history.count() == 3


def test_the_results_of_a_later_evening_follow_an_undo_and_its_undo(meeting, keeper, three):
    """A later evening's caches are replayed too (the services' own replay of later meetings)."""
    later = meeting_for(meeting.league, NAMES, date=datetime.date(2026, 11, 27))
    services.enter_hand(meeting=later, payload=HANDS[0], by=keeper)
    undo.undo_last_hand(hand=three[2], user=keeper, version=1)
    assert verify.verify_replays(league=meeting.league) == (2, [])
    undo.redo_hand(hand=three[2], user=keeper, version=2)
    assert verify.verify_replays(league=meeting.league) == (2, [])
