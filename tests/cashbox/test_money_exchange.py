"""A league's money rules and each evening's copy of them go out with the JSON export and
come back with the import, checked by the resolver the house rules form uses."""

import copy
import datetime

import pytest

from leagues.cashbox import settlement
from leagues.exchange import league_file as exchange
from leagues.models import League, Role
from tests.cashbox.test_settlement import FOUR, MONEY, closed_evening
from tests.exchange.files import exported, imported
from tests.factories import UserFactory, meeting_for, member

pytestmark = pytest.mark.django_db


@pytest.fixture
def source(league):
    keeper = member(league, Role.SCOREKEEPER)
    meeting_for(league, FOUR, date=datetime.date(2026, 1, 2))  # before money: it plays for nothing
    league.money_rules = {**MONEY, "rate": "2.5"}
    league.save()
    closed_evening(league, keeper, date=datetime.date(2026, 1, 9))
    return league


def test_money_rules_round_trip(source):
    export = exported(source)
    assert export["league"]["money_rules"] == {**MONEY, "rate": "2.5"}
    assert [m["money_rules"] is None for m in export["meetings"]] == [True, False]
    copied = imported(export, user=UserFactory(username="neu"), name="Kopie", slug="kopie")
    assert copied.money_rules == source.money_rules
    old, new = copied.meetings.order_by("date")
    assert old.money_rules is None and new.money_rules == source.meetings.order_by("date").last().money_rules
    # The copy's evening settles as the original's: Carl's 6 points at 2,5 ct are 15 ct.
    money = settlement.evening_settlement(meeting=new)
    assert [(o.payer.name, o.payee.name if o.payee else None, o.cents) for o in money.open] == [
        ("Anna", "Ben", 5),
        ("Carl", "Dora", 15),
        ("Carl", None, 50),
    ]
    assert exported(copied)["league"]["money_rules"] == export["league"]["money_rules"]


@pytest.mark.parametrize(
    ("where", "bad"),
    [
        ("league", {"per_point": "everything"}),
        ("league", {"rate": 0.05}),  # a float is no exact number of cents
        ("league", {"per_game": -1}),
        ("meeting", {"rate": "1000"}),
        ("league", "five cents"),
    ],
)
def test_bad_money_rules_are_refused_naming_where(source, where, bad):
    export = copy.deepcopy(exported(source))
    if where == "league":
        export["league"]["money_rules"] = bad
    else:
        export["meetings"][1]["money_rules"] = bad
    before = League.objects.count()
    with pytest.raises(exchange.ImportProblem) as error:
        imported(export, user=UserFactory(), name="Kaputt", slug="kaputt")
    message = error.value.errors[0]["message"]
    assert message.startswith("league" if where == "league" else "meetings[2]"), message
    assert League.objects.count() == before
