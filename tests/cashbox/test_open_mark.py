"""What is open is read from the evenings that may still owe money (``Meeting.money_open``),
never from the league's whole history: an evening whose payments were all ticked is marked
settled and skipped; reopening it, or a correction that changes its money, marks it again.

The evening is test_settlement's: Anna → Ben 0,10 €, Carl → Dora 0,30 €, Carl → cashbox 0,50 €.
"""

import datetime

import pytest

from leagues.cashbox import open_mark, services, settlement
from leagues.models import Hand, Meeting
from leagues.table import meetings as table_meetings
from leagues.table import services as table_services
from tests.cashbox.test_settlement import FOUR, MONEY, closed_evening, lines
from tests.factories import meeting_for

pytestmark = pytest.mark.django_db


def pay_all(meeting, user):
    for line in settlement.evening_settlement(meeting=meeting).open:
        services.tick_payment(meeting=meeting, key=line.key, paid_how="cash", user=user)


@pytest.fixture
def money_league(league):
    league.money_rules = MONEY
    league.save()
    return league


def read_evenings(monkeypatch):
    """The evenings each call of ``settlements`` is given."""
    seen = []
    real = settlement.settlements

    def spy(*, meetings):
        meetings = list(meetings)
        seen.append([m.date.day for m in meetings])
        return real(meetings=meetings)

    monkeypatch.setattr(settlement, "settlements", spy)
    return seen


def test_an_evening_all_paid_is_marked_and_no_longer_read(monkeypatch, money_league, people):
    keeper = people["scorekeeper"]
    settled = [closed_evening(money_league, keeper, date=datetime.date(2026, 1, day)) for day in (2, 9, 16)]
    owing = closed_evening(money_league, keeper, date=datetime.date(2026, 1, 23))
    assert Meeting.objects.get(pk=owing.pk).money_open
    for meeting in settled:
        pay_all(meeting, keeper)
        assert not Meeting.objects.get(pk=meeting.pk).money_open
    tonight = meeting_for(money_league, FOUR, date=datetime.date(2026, 1, 30))
    seen = read_evenings(monkeypatch)
    evening, before = settlement.evening_and_before(meeting=tonight)
    assert seen == [[23, 30]]  # three settled evenings not read
    assert lines(before) == [("Anna", "Ben", 10), ("Carl", "Dora", 30), ("Carl", None, 50)]
    carl = tonight.seats.get(player__name="Carl").player
    assert lines(settlement.open_for(player=carl)) == [("Carl", "Dora", 30), ("Carl", None, 50)]
    assert seen[-1] == [23]


def test_a_partly_paid_evening_stays_marked(money_league, people):
    meeting = closed_evening(money_league, people["scorekeeper"])
    first = settlement.evening_settlement(meeting=meeting).open[0]
    services.tick_payment(meeting=meeting, key=first.key, paid_how="cash", user=people["scorekeeper"])
    assert Meeting.objects.get(pk=meeting.pk).money_open


def test_reopening_marks_it_and_a_correction_opens_lines_again(money_league, people):
    """The correction of test_settlement: Ben → Anna 0,15 €, Dora → Carl 0,15 €."""
    keeper, admin = people["scorekeeper"], people["admin"]
    meeting = closed_evening(money_league, keeper)
    pay_all(meeting, keeper)
    table_meetings.reopen_meeting(meeting=meeting, user=admin, reason="Hand 1 was Kontra's")
    assert Meeting.objects.get(pk=meeting.pk).money_open
    hand = Hand.objects.get(meeting=meeting, number=1)
    table_services.change_hand(
        hand=hand, payload={"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 110}, by=admin, version=hand.version
    )
    table_meetings.close_meeting(meeting=meeting, user=admin)
    assert Meeting.objects.get(pk=meeting.pk).money_open
    tonight = meeting_for(money_league, FOUR, date=datetime.date(2026, 1, 16))
    assert lines(settlement.evening_and_before(meeting=tonight)[1]) == [("Ben", "Anna", 15), ("Dora", "Carl", 15)]


def test_reopened_and_closed_unchanged_it_is_settled_again(money_league, people):
    keeper, admin = people["scorekeeper"], people["admin"]
    meeting = closed_evening(money_league, keeper)
    pay_all(meeting, keeper)
    table_meetings.reopen_meeting(meeting=meeting, user=admin, reason="a look")
    table_meetings.close_meeting(meeting=meeting, user=admin)
    assert not Meeting.objects.get(pk=meeting.pk).money_open


def test_many_evenings_are_marked_at_once(money_league, people):
    """As a correction reaching later evenings marks them: the settled one cleared, the owing
    one set, an evening still open left alone."""
    keeper = people["scorekeeper"]
    settled = closed_evening(money_league, keeper, date=datetime.date(2026, 1, 2))
    owing = closed_evening(money_league, keeper, date=datetime.date(2026, 1, 9))
    pay_all(settled, keeper)
    Meeting.objects.filter(pk=settled.pk).update(money_open=True)
    Meeting.objects.filter(pk=owing.pk).update(money_open=False)
    tonight = meeting_for(money_league, FOUR, date=datetime.date(2026, 1, 16))
    open_mark.keep_marks(list(Meeting.objects.filter(pk__in=[settled.pk, owing.pk, tonight.pk])))
    marks = dict(Meeting.objects.values_list("date__day", "money_open"))
    assert marks == {2: False, 9: True, 16: True}
