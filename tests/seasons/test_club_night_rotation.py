"""Host rotation, the pennant, Pflichtsolo and money at a club night (docs/decisions.md, "Club
nights": decision 3). A night is one evening: its tables all name its host, so it is hosted
once, listed once and counted once; a forgotten pennant's penalty solo is played at the
holder's table when the night opens the next season; each table settles its own evening, and
the fee per evening is one per player, so nobody pays it twice in a night."""

import datetime

import pytest
from django.utils import timezone

from leagues.cashbox import settlement
from leagues.models import Meeting, Player, Role
from leagues.seasons import selectors as season_selectors
from leagues.stats import derived_cache, statistics
from leagues.stats import selectors as stats_selectors
from leagues.table import meetings, replay
from scoring.money_rules import resolve_money_rules
from tests.factories import LeagueFactory, meeting_for, member, night_for

pytestmark = pytest.mark.django_db

FIRST = ["Anna", "Ben", "Carl", "Dora"]
SECOND = ["Emil", "Fritz", "Gabi", "Hans"]
NIGHT = datetime.date(2026, 11, 20)


@pytest.fixture(autouse=True)
def fresh_cache():
    derived_cache.clear()
    yield
    derived_cache.clear()


@pytest.fixture
def league():
    return LeagueFactory(game="doppelkopf", variant="club")


def test_a_night_is_hosted_once_in_the_rotation(league):
    """Decision 3: Anna hosts the night: one entry in "Hosted", and she is not due again."""
    night_for(league, [FIRST, SECOND], date=NIGHT, host="Anna")
    rotation = stats_selectors.standings(league=league).rotation
    assert [(m.host.name, m.date) for m in rotation.hosted] == [("Anna", NIGHT)]
    due = [player.name for player, _last in rotation.due]
    assert "Anna" not in due and len(due) == 7
    assert season_selectors.suggested_host(league=league) == rotation.suggested


def test_ties_in_the_rotation_follow_the_nights_tables_in_order(league):
    """Decision 3: nobody else hosted; ties go by the seats of the last evening, the night's
    tables one after the other, as the start page and the standings both say."""
    night_for(league, [FIRST, SECOND], date=NIGHT, host="Anna")
    due = [player.name for player, _last in stats_selectors.standings(league=league).rotation.due]
    assert due == ["Ben", "Carl", "Dora", "Emil", "Fritz", "Gabi", "Hans"]
    assert season_selectors.suggested_host(league=league).name == "Ben"


def test_the_statistics_count_a_night_as_one_evening(league):
    """Decision 3: "meetings" on the statistics page counts the night once."""
    meeting_for(league, FIRST, date=NIGHT - datetime.timedelta(days=7))
    night_for(league, [FIRST, SECOND], date=NIGHT, host="Anna")
    for meeting in Meeting.objects.filter(league=league):
        meeting.hands.create(position=1, number=1, payload={"kind": "normal", "re": ["Anna", "Ben"], "re_eyes": 131})
    assert statistics.compute_statistics(league=league).meetings == 2


def test_a_forgotten_pennants_penalty_solo_is_played_at_the_holders_table(league):
    """Decision 3: Fritz forgot the pennant in season 1; the night opens season 2, and his
    penalty solo is owed at his table (table 2), not at table 1."""
    fritz = Player.objects.create(league=league, name="Fritz")
    first = meeting_for(league, ["Anna", "Ben", "Carl", "Dora", "Fritz"], pennant_holder=fritz, pennant_forgotten=True)
    first.season.closed_on = first.date  # complete: the next evening opens season 2
    first.season.save(update_fields=["closed_on"])
    night = night_for(league, [FIRST, SECOND], date=NIGHT + datetime.timedelta(days=7))
    one, two = night.tables.with_season_start().order_by("table_number")
    assert night.season.number == 2 and one.opens_season and two.opens_season
    assert replay.compulsory_solos_for(one, replay.seated_players(one)) == []
    assert replay.compulsory_solos_for(two, replay.seated_players(two)) == ["Fritz"]


def test_each_table_settles_its_evening_and_the_evening_fee_is_paid_once(league):
    """Decision 3: a fee of 0,50 € an evening: each of the eight players pays it once, at his
    own table's settlement, 4,00 € into the cashbox in all."""
    rules = {"per_evening": 50}
    league.money_rules = rules
    league.save(update_fields=["money_rules"])
    night = night_for(league, [FIRST, SECOND], date=NIGHT)
    keeper = member(league, Role.ADMIN)
    for table in night.tables.all():
        table.hands.create(
            position=1,
            number=1,
            payload={
                "kind": "normal",
                "re": list(table.seats.values_list("player__name", flat=True)[:2]),
                "re_eyes": 131,
            },
        )
        meetings.close_meeting_row(table, user=keeper, now=timezone.now())
    assert Meeting.objects.filter(club_night=night).exclude(money_rules=resolve_money_rules(rules)).count() == 0
    fees = {}
    for evening in settlement.settlements(meetings=list(night.tables.all())).values():
        for line in evening.settlement.lines:
            if line.reason == "evening fee":
                fees[line.payer] = fees.get(line.payer, 0) + line.cents
    assert fees == dict.fromkeys(FIRST + SECOND, 50)
