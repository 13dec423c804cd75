"""The stakes of a race evening: each finished game and each finished match (robber) is read
from the evening's stored results (no replay) and settled at the seeds' stakes, 20 cents a game
and 2 euros a robber, paid by each loser to the winners.

45 under the Bruff rules: a robber is the first party to three games. Every hand below is a
jink (one party takes all five tricks), which wins the game at the fifth trick, so each hand
is one game.

Teams (Aoife + Ciara against Brian + Dónal), games A A B A | B A A A | B:
robber 1 to A at game 4 (3 to 1), robber 2 to A at game 8 (3 to 1), game 9 opens a third
robber that is not finished and costs nothing. Games: A 6, B 3. Each loser pays 20 cents a
game, shared by the two winners: each A member gets 20 per game won and pays 20 per game lost,
(6 − 3) × 20 = +60; each B member −60. Robbers: each B member pays 200 twice, each A member
gets 400. Nets: Aoife +460, Brian −460, Ciara +460, Dónal −460; equal debts pair first:
Brian → Aoife 4,60 €, Dónal → Ciara 4,60 €.

Cut-throat (Aoife, Brian, Ciara), games A A B A | B C B B: robber 1 to Aoife at game 4
(3, 1, 0), robber 2 to Brian at game 8 (3 of games 5 to 8, Ciara 1). Games: Aoife wins 3
(+40 each: both losers pay her 20) and loses 5 (−20 each): +120 − 100 = +20; Brian wins 4,
loses 4: +160 − 80 = +80; Ciara wins 1, loses 7: +40 − 140 = −100 (sum 0). Robbers: the winner
gets 2 × 200, each loser pays 200: Aoife +400 − 200 = +200, Brian −200 + 400 = +200, Ciara
−400. Nets: Aoife +220, Brian +280, Ciara −500. No equal pair: the largest debtor pays the
largest creditor first: Ciara → Brian 2,80 €, Ciara → Aoife 2,20 €.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leagues.cashbox import settlement
from leagues.models import Role
from leagues.table import meetings as table_meetings
from leagues.table import services
from tests.factories import LeagueFactory, PlayerFactory, meeting_for, member

pytestmark = pytest.mark.django_db

A, B, C, D = "Aoife", "Brian", "Ciara", "Dónal"
SEED_STAKES = {"per_game": 20, "per_match": 200}


def jink(party):
    return {"tricks": [party] * 5, "top_trump_trick": 1}


def closed_race_evening(names, teams, winners, money=SEED_STAKES):
    league = LeagueFactory(game="forty_five", variant="bruff", money_rules=money)
    for name in names:
        PlayerFactory(league=league, name=name)
    keeper = member(league, Role.SCOREKEEPER)
    meeting = meeting_for(league, list(names), teams=teams)
    for party in winners:
        services.enter_hand(meeting=meeting, payload=jink(party), by=keeper)
    table_meetings.close_meeting(meeting=meeting, user=keeper)
    meeting.refresh_from_db()
    return meeting


def payments(evening):
    return [(p.payer, p.payee, p.cents) for p in evening.settlement.payments]


def reasons(evening, reason):
    return sum(line.cents for line in evening.settlement.lines if line.reason == reason)


def test_teams_of_two_settle_games_and_robbers():
    meeting = closed_race_evening((A, B, C, D), {"A": [A, C], "B": [B, D]}, "AABABAAAB")
    evening = settlement.evening_settlement(meeting=meeting)
    assert dict(evening.settlement.nets) == {A: 460, B: -460, C: 460, D: -460}
    assert payments(evening) == [(B, A, 460), (D, C, 460)]
    # 9 games, each two losers paying 20; 2 robbers, each two losers paying 200.
    assert reasons(evening, "game") == 9 * 2 * 20
    assert reasons(evening, "match") == 2 * 2 * 200


def test_cut_throat_settles_games_and_robbers():
    meeting = closed_race_evening((A, B, C), None, [A, A, B, A, B, C, B, B])
    evening = settlement.evening_settlement(meeting=meeting)
    assert dict(evening.settlement.nets) == {A: 220, B: 280, C: -500}
    assert payments(evening) == [(C, B, 280), (C, A, 220)]
    matches = [line for line in evening.settlement.lines if line.reason == "match"]
    assert [(line.payer, line.payee, line.figures["number"]) for line in matches] == [
        (B, A, 1),
        (C, A, 1),
        (A, B, 2),
        (C, B, 2),
    ]


def test_robbers_into_the_cashbox_and_no_stake_per_game():
    money = {"per_match": 200, "per_match_to": "cashbox"}
    meeting = closed_race_evening((A, B, C, D), {"A": [A, C], "B": [B, D]}, "AABABAAAB", money=money)
    evening = settlement.evening_settlement(meeting=meeting)
    # Two robbers lost by Brian and Dónal: 2 × 200 each into the cashbox.
    assert payments(evening) == [(B, None, 400), (D, None, 400)]
    assert evening.settlement.cashbox == 800


def test_an_unfinished_robber_costs_nothing():
    meeting = closed_race_evening((A, B, C, D), {"A": [A, C], "B": [B, D]}, "AAB", money={"per_match": 200})
    assert settlement.evening_settlement(meeting=meeting).settlement.payments == ()


def test_the_stakes_are_read_in_fixed_queries_whatever_the_evenings():
    one = closed_race_evening((A, B, C), None, [A, A, B])
    with CaptureQueriesContext(connection) as first:
        settlement.settlements(meetings=[one])
    more = [one, *(closed_race_evening((A, B, C), None, [A, B, C, A]) for _ in range(3))]
    with CaptureQueriesContext(connection) as second:
        found = settlement.settlements(meetings=more)
    assert len(second) == len(first)
    assert len(found) == 4
