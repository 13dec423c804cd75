"""The reads the statistics and the ratings share (leagues.stats.evenings.hands_in_play_order,
active_results): the hands and rows of some evenings in playing and seat order, without
deleted hands and without whoever sat out."""

import datetime

import pytest

from leagues.models import Hand, HandResult, Role
from leagues.stats.evenings import active_results, hands_in_play_order
from leagues.table import services
from tests.factories import LeagueFactory, meeting_for, member

FIVE = ["Anna", "Ben", "Carl", "Dora", "Emil"]
# At a table of five the dealer sits out (doppelkopf.md "Table"): Anna deals hand 1, Ben hand 2.
H1 = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}
H2 = {"kind": "solo", "solo": "trumpf", "re": ["Emil"], "re_eyes": 100}
H3 = {"kind": "normal", "re": ["Ben", "Carl"], "re_eyes": 121}


@pytest.fixture
def league(db):
    league = LeagueFactory(game="doppelkopf", variant="club")
    keeper = member(league, Role.SCOREKEEPER, username="keeper", first_name="Keeper")
    # The later evening first, so that the playing order is the date's, not the id's.
    later = meeting_for(league, FIVE, date=datetime.date(2026, 11, 27))
    services.enter_hand(meeting=later, payload=H3, by=keeper)
    earlier = meeting_for(league, FIVE, date=datetime.date(2026, 11, 20))
    for payload in (H1, H2):
        services.enter_hand(meeting=earlier, payload=payload, by=keeper)
    return league, keeper, earlier, later


def test_the_hands_come_in_playing_order_with_their_payloads(league):
    league, _keeper, earlier, later = league
    got = hands_in_play_order(meetings=[later.pk, earlier.pk])
    assert [(meeting, payload) for _id, meeting, payload in got] == [
        (earlier.pk, H1),
        (earlier.pk, H2),
        (later.pk, H3),
    ]
    assert [hand_id for hand_id, _m, _p in got] == [
        Hand.objects.get(meeting=earlier, number=1).pk,
        Hand.objects.get(meeting=earlier, number=2).pk,
        Hand.objects.get(meeting=later, number=1).pk,
    ]


def test_a_deleted_hand_is_left_out(league):
    league, keeper, earlier, later = league
    hand = Hand.objects.get(meeting=earlier, number=1)
    services.delete_hand(hand=hand, by=keeper, version=hand.version)
    got = hands_in_play_order(meetings=[earlier.pk, later.pk])
    assert [payload for _id, _m, payload in got] == [H2, H3]
    assert hand.pk not in active_results(meetings=[earlier.pk])


def test_the_results_are_the_active_players_rows_in_seat_order(league):
    league, _keeper, earlier, _later = league
    by_hand = active_results(meetings=[earlier.pk])
    hand = Hand.objects.get(meeting=earlier, number=1)
    expected = [
        (r.player_id, r.active, r.delta, r.won, r.round, r.games_won)
        for r in HandResult.objects.filter(hand=hand, active=True).order_by("id")
    ]
    # Anna dealt hand 1 and sat out: four rows, Ben to Emil in seat order; Re (Ben, Dora) won
    # with 131 eyes: 1 point each (doppelkopf.md "Game value"), Kontra -1.
    assert [(pid, delta, bool(won)) for pid, _a, delta, won, _r, _g in by_hand[hand.pk]] == [
        (pid, delta, won) for pid, _a, delta, won, _r, _g in expected
    ]
    names = dict(HandResult.objects.filter(hand=hand).values_list("player_id", "player__name"))
    assert [names[row[0]] for row in by_hand[hand.pk]] == ["Ben", "Carl", "Dora", "Emil"]
    assert [row[2] for row in by_hand[hand.pk]] == [1, -1, 1, -1]
    # Unordered (the statistics' read): the same rows.
    assert sorted(active_results(meetings=[earlier.pk], seat_order=False)[hand.pk]) == sorted(by_hand[hand.pk])
