"""The bill is split by the standings as they are once no evening of the season can change:
on PostgreSQL, a correction of an open evening's hand that is being written while the bill is
saved ends before the bill reads the standings, so the bill stored is split by the corrected
standings (real threads, each with its own database connection).

The season of tests/seasons/test_bill_two_steps.py, its last evening open at a round's end (4 hands,
Ben and Dora +1 each hand). The correction makes that evening's first hand a win of Anna and
Carl (131 eyes, gewonnen 1): Ben and Dora lose 2 points each on the season, Anna and Carl
gain 2 (DDV 7.2.2 (a)).
"""

import threading
import time

import pytest
from django.db import connection, transaction

from leagues import locks
from leagues.models import Role
from leagues.seasons import selectors
from leagues.seasons import services as seasons_services
from leagues.table import services as table_services
from tests.seasons.test_bill_two_steps import BILL, at_round_end, league, people  # noqa: F401

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL's row locks and a connection per thread (set DATABASE_URL); CI runs it there",
    ),
    pytest.mark.django_db(transaction=True),
]

ANNA_CARL = {"kind": "normal", "re": ["Anna", "Carl"], "re_eyes": 131}


def test_a_bill_saved_while_a_hand_is_corrected_is_split_by_the_corrected_standings(league, people, at_round_end):  # noqa: F811
    keeper, admin = people[Role.SCOREKEEPER], people[Role.ADMIN]
    hand = at_round_end.hands.live().order_by("position").first()
    before = selectors.season_scores(season=at_round_end.season)
    locked, errors = threading.Event(), []

    def correct():
        try:
            with transaction.atomic():
                locks.lock_meeting(at_round_end.pk)  # the scorekeeper's correction holds the evening
                locked.set()
                time.sleep(1.0)  # meanwhile the bill is being saved
                table_services.change_hand(hand=hand, payload=ANNA_CARL, by=keeper, version=hand.version)
        except Exception as error:  # noqa: BLE001
            errors.append(repr(error))
        finally:
            connection.close()

    def settle():
        try:
            locked.wait(5)
            seasons_services.settle_bill(season=at_round_end.season, bill=BILL, user=admin)
        except Exception as error:  # noqa: BLE001
            errors.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=correct), threading.Thread(target=settle)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert not errors
    after = selectors.season_scores(season=at_round_end.season)
    assert after["Ben"] == before["Ben"] - 2 and after["Anna"] == before["Anna"] + 2
    stored = at_round_end.season.bills.current().get()
    assert stored.score_map() == after
