"""An entry that waits for its meeting's lock while another writer holds it, on PostgreSQL (real
threads, a connection each): once it has the lock it must add its hand to the sums that
writer left, not to those stored when it began to wait. A statement that waits for a row lock
keeps the view of the other rows it began with, so the stored rows are read in statements of
their own, after the lock (``services.write_results``)."""

import threading
import time

import pytest
from django.db import connection, transaction

from leagues.models import Hand, MeetingCarry, MeetingResult, Role
from leagues.table import replay, services, verify
from tests.factories import LeagueFactory, meeting_for, member

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL's row locks (set DATABASE_URL)"),
    pytest.mark.django_db(transaction=True),
]

FOUR = ["Anna", "Ben", "Carl", "Dora"]


def normal(re, eyes=151):
    return {"kind": "normal", "re": list(re), "re_eyes": eyes}


def side_by_side(hold, enter):
    """``hold`` runs in a transaction kept open a while after it wrote; ``enter`` starts once
    ``hold`` wrote, and so waits for the meeting's lock. Each thread has its own connection."""
    wrote, errors = threading.Event(), []

    def first():
        try:
            with transaction.atomic():
                hold()
                wrote.set()
                time.sleep(1.0)  # still holding the lock
        except Exception as error:  # noqa: BLE001 (reported below)
            errors.append(repr(error))
        finally:
            wrote.set()
            connection.close()

    def second():
        try:
            wrote.wait()
            time.sleep(0.2)
            enter()
        except Exception as error:  # noqa: BLE001
            errors.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_an_entry_that_waited_for_a_correction_adds_to_the_corrected_sums():
    league = LeagueFactory(game="doppelkopf", variant="club")
    meeting = meeting_for(league, FOUR)
    keeper = member(league, Role.SCOREKEEPER)
    hands = [services.enter_hand(meeting=meeting, payload=normal(("Anna", "Ben")), by=keeper).hand for _ in range(5)]
    replay.calculate_meeting(meeting)  # kept, as after the last entry

    def correct():
        hand = Hand.objects.get(pk=hands[1].pk)
        services.change_hand(hand=hand, payload=normal(("Carl", "Dora")), by=keeper, version=hand.version)

    side_by_side(
        correct, lambda: services.enter_hand(meeting=meeting, payload=normal(("Anna", "Carl")), by=keeper).hand
    )
    # Five hands won by Re with 151 eyes (2 points each, doppelkopf.md): Anna and Ben won four
    # of the first five and Carl and Dora one; Anna and Carl won the sixth.
    totals = dict(MeetingResult.objects.filter(meeting=meeting).values_list("player__name", "total"))
    assert totals == {"Anna": 8, "Ben": 4, "Carl": -4, "Dora": -8}
    assert verify.verify_replays(league=league)[1] == []


def test_an_entry_that_waited_for_an_earlier_evening_rewriting_it_adds_to_the_rewritten_sums():
    league = LeagueFactory(game="doppelkopf", variant="club", rule_overrides={"carry_special_rounds": True})
    first = meeting_for(league, FOUR)
    second = meeting_for(league, FOUR, date=first.date.replace(day=first.date.day + 7))
    keeper = member(league, Role.SCOREKEEPER)
    services.enter_hand(meeting=first, payload=normal(("Ben", "Dora"), 131), by=keeper)
    for _ in range(3):
        services.enter_hand(meeting=second, payload=normal(("Anna", "Ben"), 131), by=keeper)
    assert MeetingCarry.objects.get(meeting=second).carried_in == []
    replay.calculate_meeting(second)

    def split_the_first():
        # 120 against 120 (club rules): a Bock round follows, carried into the second evening,
        # whose three hands now count double; its rows and sums are rewritten under its lock.
        hand = first.hands.get(number=1)
        services.change_hand(hand=hand, payload=normal(("Ben", "Dora"), 120), by=keeper, version=hand.version)

    side_by_side(
        split_the_first,
        lambda: services.enter_hand(meeting=second, payload=normal(("Anna", "Ben"), 131), by=keeper).hand,
    )
    assert MeetingCarry.objects.get(meeting=second).carried_in == ["bock"]
    assert verify.verify_replays(league=league)[1] == []
