"""Club nights (leagues/table/nights.py, night_selectors.py): opening several tables at once
and the evening's standings they make together."""

import pytest

from leagues.exceptions import InvalidInput
from leagues.models import ClubNight, Combine, Meeting, MeetingCarry
from leagues.table import night_selectors
from leagues.table import services as table_services
from tests.factories import LeagueFactory, night_for

pytestmark = pytest.mark.django_db

FIVE = ["Anna", "Ben", "Carl", "Dora", "Emil"]
FOUR = ["Fritz", "Gabi", "Hans", "Ida"]


def won_by(*re):
    return {"kind": "normal", "re": list(re), "re_eyes": 131, "announcements": [], "specials": []}


@pytest.fixture
def league():
    return LeagueFactory(game="doppelkopf", variant="club")


def test_it_opens_a_meeting_per_table_under_one_host_and_season(league):
    night = night_for(league, [FIVE, FOUR])
    tables = list(night.tables.order_by("table_number"))
    assert [t.table_number for t in tables] == [1, 2]
    assert {t.host.name for t in tables} == {"Anna"}
    assert {t.season_id for t in tables} == {night.season_id}
    assert [s.player.name for s in tables[1].seats.order_by("position")] == FOUR
    assert night.combine == Combine.POINTS


def test_it_refuses_a_player_at_two_tables_and_a_table_too_small(league):
    with pytest.raises(InvalidInput) as raised:
        night_for(league, [FIVE, ["Anna", "Fritz", "Gabi"]])
    messages = " ".join(e["message"] for e in raised.value.errors)
    assert "one table only" in messages and "Table 2" in messages
    assert not ClubNight.objects.exists() and not Meeting.objects.exists()


def test_it_refuses_a_single_table(league):
    with pytest.raises(InvalidInput):
        night_for(league, [FIVE])


def test_it_keeps_the_pennant_at_the_holders_table(league):
    night_for(league, [FIVE, FOUR], date=None)
    holder = league.players.get(name="Hans")
    night = night_for(league, [FIVE, FOUR], pennant_holder=holder, pennant_forgotten=True)
    first, second = night.tables.order_by("table_number")
    assert first.pennant_holder is None and not first.pennant_forgotten
    assert second.pennant_holder == holder and second.pennant_forgotten


def test_standings_combine_the_tables_by_points(league):
    night = night_for(league, [FIVE, FOUR])
    first, second = night.tables.order_by("table_number")
    # Club rules: a normal game won by Re at 131 eyes is worth 1 point (Re +1 each, Kontra -1).
    table_services.enter_hand(meeting=first, payload=won_by("Ben", "Dora"), by=None)
    table_services.enter_hand(meeting=second, payload=won_by("Fritz", "Gabi"), by=None)
    table_services.enter_hand(meeting=second, payload=won_by("Fritz", "Hans"), by=None)
    rows = night_selectors.night_standings(night=night)
    top = [(r.place, r.name, r.points) for r in rows[:2]]
    assert top == [(1, "Fritz", 2), (2, "Ben", 1)]
    assert {r.name: r.table for r in rows}["Gabi"] == 2


def test_a_hand_at_one_table_leaves_the_other_alone(league):
    league.rule_overrides = {"carry_special_rounds": True}
    league.save()
    night = night_for(league, [FIVE, FOUR])
    first, second = night.tables.order_by("table_number")
    table_services.enter_hand(meeting=first, payload=won_by("Ben", "Dora"), by=None)
    # The second table was neither replayed nor given rounds by the first.
    assert not MeetingCarry.objects.filter(meeting=second).exclude(carried_in=[]).exists()
    assert not second.results.exists()
