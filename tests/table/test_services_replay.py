"""leagues/table/replay.py: what a meeting's replay takes from the league around it: the rules
copied at the start, the season closing when everyone has hosted, penalty soli for a
forgotten pennant (league.md, "The pennant") and special rounds carried over
(doppelkopf.md, option carry_special_rounds)."""

import datetime

import pytest

from leagues.clubs import services as clubs_services
from leagues.models import HandResult, Player
from leagues.table import meetings as table_meetings
from leagues.table import replay
from leagues.table import services as table_services
from tests.factories import LeagueFactory, UserFactory

FOUR = ["Anna", "Ben", "Carl", "Dora"]
# Kontra announced and Re (Ben, Carl) won with 150: gewonnen 1 + Kontra angesagt 2 = 3, and
# the kontra_lost trigger queues a Bock round (doppelkopf.md, "Special rounds").
KONTRA_LOST = {
    "kind": "normal",
    "re": ["Ben", "Carl"],
    "re_eyes": 150,
    "announcements": [{"party": "kontra", "call": "kontra"}],
}
PLAIN = {"kind": "normal", "re": ["Anna", "Ben"], "re_eyes": 130}


def day(n):
    return datetime.date(2026, 1, 1) + datetime.timedelta(days=7 * n)


@pytest.fixture
def league(db):
    league = LeagueFactory(slug="dk")
    for name in FOUR:
        Player.objects.create(league=league, name=name)
    return league


def seats(league, host):
    """The four at the table with ``host`` first, the others in their usual order."""
    names = [host] + [n for n in FOUR if n != host]
    return [Player.objects.get(league=league, name=n) for n in names]


def start(league, host, n, **kwargs):
    return table_meetings.start_meeting(league=league, date=day(n), players=seats(league, host), **kwargs)


def test_a_meeting_keeps_the_rules_it_started_with(league):
    meeting = start(league, "Anna", 0)
    clubs_services.change_rules(league=league, variant="club", rule_overrides={"solo_point": False})
    meeting.refresh_from_db()
    assert meeting.rules["solo_point"] is True
    assert start(league, "Ben", 1).rules["solo_point"] is False


def test_the_season_closes_when_everyone_has_hosted_and_the_next_meeting_opens_a_new_one(league):
    meetings = [start(league, host, n) for n, host in enumerate(FOUR)]
    assert {m.season.number for m in meetings} == {1}
    meetings[-1].season.refresh_from_db()
    assert meetings[-1].season.closed_on == day(3)
    assert start(league, "Ben", 4).season.number == 2


def test_a_forgotten_pennant_is_a_penalty_solo_at_the_first_meeting_of_the_next_season(league):
    dora = Player.objects.get(league=league, name="Dora")
    carl = Player.objects.get(league=league, name="Carl")
    start(league, "Anna", 0)
    start(league, "Ben", 1, pennant_holder=dora, pennant_forgotten=True)
    start(league, "Carl", 2, pennant_holder=carl, pennant_forgotten=True)
    start(league, "Dora", 3, pennant_holder=dora, pennant_forgotten=False)
    first = start(league, "Anna", 4)
    # In the order they arose: Dora's, then Carl's; played before the host's first deal.
    assert replay.meeting_request(first)["compulsory_solos"] == ["Dora", "Carl"]
    upcoming = replay.calculate_meeting(first)["next"]
    assert (upcoming["round"], upcoming["round_games_left"], upcoming["soloist"]) == ("penalty", 2, "Dora")
    # Only the first meeting of the season plays them.
    assert "compulsory_solos" not in replay.meeting_request(start(league, "Ben", 5))


def test_special_rounds_are_dropped_at_the_end_of_a_meeting_by_default(league):
    user = UserFactory()
    first = start(league, "Anna", 0)
    table_services.enter_hand(meeting=first, payload=KONTRA_LOST, by=user)
    assert replay.calculate_meeting(first)["next"]["round"] == "bock"
    second = start(league, "Ben", 1)
    assert replay.calculate_meeting(second)["next"]["round"] == "normal"


def test_with_carry_special_rounds_the_next_meeting_starts_with_them(league):
    league.rule_overrides = {"carry_special_rounds": True}
    league.save()
    user = UserFactory()
    first = start(league, "Anna", 0)
    table_services.enter_hand(meeting=first, payload=KONTRA_LOST, by=user)
    second = start(league, "Ben", 1)
    upcoming = replay.calculate_meeting(second)["next"]
    # The whole Bock round (one game per player at the table) is still to play.
    assert (upcoming["round"], upcoming["round_games_left"]) == ("bock", 4)
    table_services.enter_hand(meeting=second, payload=PLAIN, by=user)
    # A Bock game doubles: 1 point becomes 2 (doppelkopf.md, "Multiplier").
    row = HandResult.objects.get(meeting=second, player__name="Anna")
    assert (row.delta, row.round) == (2, "bock")


def test_a_correction_rewrites_every_later_result(league):
    user = UserFactory()
    meeting = start(league, "Anna", 0)
    first = table_services.enter_hand(meeting=meeting, payload=KONTRA_LOST, by=user).hand
    table_services.enter_hand(meeting=meeting, payload=PLAIN, by=user)
    # Hand 2 in the Bock round: Anna +2 (1 doubled); running total after Kontra lost -3: -1.
    assert HandResult.objects.get(hand__position=2, player__name="Anna").total == -1
    table_services.change_hand(hand=first, payload=PLAIN, by=user, version=1)
    # Without the Kontra lost there is no Bock: Anna +1, +1 = 2.
    row = HandResult.objects.get(hand__position=2, player__name="Anna")
    assert (row.delta, row.total, row.round) == (1, 2, "normal")
    assert first.history.count() == 2


def test_a_replay_follows_its_whole_input(league, settings):
    """Hands, names, rules and carried rounds each give another replay."""
    meeting = start(league, "Anna", 0)
    hand = table_services.enter_hand(meeting=meeting, payload=PLAIN, by=None).hand
    before = replay.calculate_meeting(meeting)
    table_services.change_hand(hand=hand, payload=KONTRA_LOST, by=None, version=hand.version)
    after = replay.calculate_meeting(meeting)
    assert after["hands"][0]["deltas"] != before["hands"][0]["deltas"]
    assert after == replay.calculate_meeting(meeting)
    Player.objects.filter(league=league, name="Anna").update(name="Anne")
    renamed = replay.calculate_meeting(meeting, payloads=[])
    assert "Anne" in renamed["parties"] and "Anna" not in renamed["parties"]
    other_rules = dict(meeting.rules, solo_point=not meeting.rules["solo_point"])
    assert replay.calculate_meeting(meeting, payloads=[], rules=(meeting.variant, other_rules))["rules"] == other_rules
    plain = replay.calculate_meeting(meeting, payloads=[], carried=())
    bock = replay.calculate_meeting(meeting, payloads=[], carried=("bock",))
    assert plain["next"] != bock["next"]
    assert replay.calculate_meeting(meeting, payloads=[], carried=()) == plain


def test_with_season_start_tells_the_first_meeting_of_each_season_also_inside_another_query(league):
    from leagues.models import Meeting

    meetings = [start(league, host, n) for n, host in enumerate(FOUR)]  # season 1 closes with the fourth
    same_day = table_meetings.start_meeting(league=league, date=day(4), players=seats(league, "Anna"))  # opens season 2
    second = table_meetings.start_meeting(
        league=league, date=day(4), players=seats(league, "Ben")
    )  # same date, later id
    expected = {m.pk: m.pk in (meetings[0].pk, same_day.pk) for m in [*meetings, same_day, second]}
    assert {m.pk: m.opens_season for m in Meeting.objects.with_season_start()} == expected
    inner = Meeting.objects.with_season_start().filter(opens_season=True).values("pk")
    assert set(Meeting.objects.filter(pk__in=inner).values_list("pk", flat=True)) == {meetings[0].pk, same_day.pk}
