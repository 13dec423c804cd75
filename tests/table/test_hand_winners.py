"""HandResult.won is who won the hand (the replay's ``hand_winners``, scoring/results.py), the
same key for every game; never the sign of the delta. Under Doppelkopf's "loser
gets the points" (club preset) the winners pay, and the standings' wins must still be theirs."""

import datetime

import pytest

from leagues.models import HandResult, MeetingResult, Role
from leagues.stats import selectors
from leagues.table import services, verify
from tests.factories import LeagueFactory, meeting_for, member

FOUR = ["Anna", "Ben", "Carl", "Dora"]
THREE = ["Anna", "Ben", "Carl"]
# Club rule (a), doppelkopf.md "Loser gets the points": Re (Ben, Dora) wins 181:59 and
# announced nothing: value 1 + keine 90 + keine 60 = 3, the signs swapped: Ben and Dora -3
# each, the losers Anna and Carl +3.
LOSER_GETS_POINTS = {"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 181}
# The same rule with a soloist: Carl's trump solo won 190:50, nothing said: 1 + keine 90 +
# keine 60 + Solopunkt = 4, swapped: Carl -12, each of the others +4.
SOLO_LOSER_GETS_POINTS = {"kind": "solo", "solo": "trumpf", "re": ["Carl"], "re_eyes": 190}
# Re keine 60 (needs 181), Kontra keine 90 (needs 151), 170:70: no winner (DDV TSR 7.1.4); Re
# (Anna, Ben) ahead by 1 gets +1, but nobody won.
NO_WINNER = {
    "kind": "normal",
    "re": ["Anna", "Ben"],
    "re_eyes": 170,
    "announcements": [{"party": "re", "call": "keine_60"}, {"party": "kontra", "call": "keine_90"}],
    "specials": [{"kind": "doppelkopf", "party": "kontra"}],
}


def results(meeting, number):
    rows = HandResult.objects.filter(meeting=meeting, number=number).select_related("player")
    return {r.player.name: (r.delta, r.won) for r in rows}


@pytest.fixture
def doppelkopf(db):
    league = LeagueFactory(game="doppelkopf", variant="club")
    keeper = member(league, Role.SCOREKEEPER)
    meeting = meeting_for(league, FOUR, date=datetime.date(2026, 11, 20))
    return league, meeting, keeper


def test_it_marks_the_winners_of_a_loser_gets_points_hand_although_their_delta_is_negative(doppelkopf):
    league, meeting, keeper = doppelkopf
    services.enter_hand(meeting=meeting, payload=LOSER_GETS_POINTS, by=keeper)
    assert results(meeting, 1) == {
        "Anna": (3, False),
        "Ben": (-3, True),
        "Carl": (3, False),
        "Dora": (-3, True),
    }
    wins = dict(MeetingResult.objects.filter(meeting=meeting).values_list("player__name", "wins"))
    assert wins == {"Anna": 0, "Ben": 1, "Carl": 0, "Dora": 1}
    table = {row.player.name: row for row in selectors.standings(league=league).table}
    assert {name: (row.total, row.wins) for name, row in table.items()} == {
        "Anna": (3, 0),
        "Ben": (-3, 1),
        "Carl": (3, 0),
        "Dora": (-3, 1),
    }


def test_a_soloist_who_won_with_the_losers_getting_the_points_won_his_solo(doppelkopf):
    league, meeting, keeper = doppelkopf
    services.enter_hand(meeting=meeting, payload=SOLO_LOSER_GETS_POINTS, by=keeper)
    assert results(meeting, 1) == {"Anna": (4, False), "Ben": (4, False), "Carl": (-12, True), "Dora": (4, False)}
    carl = MeetingResult.objects.get(meeting=meeting, player__name="Carl")
    assert (carl.solos, carl.solos_won, carl.wins) == (1, 1, 1)


def test_a_game_without_a_winner_is_nobodys_win_although_the_party_ahead_scores(doppelkopf):
    league, meeting, keeper = doppelkopf
    services.enter_hand(meeting=meeting, payload=NO_WINNER, by=keeper)
    assert results(meeting, 1) == {"Anna": (1, False), "Ben": (1, False), "Carl": (-1, False), "Dora": (-1, False)}


def test_a_correction_moves_the_win_and_verify_replays_finds_the_cache_in_line(doppelkopf):
    league, meeting, keeper = doppelkopf
    services.enter_hand(meeting=meeting, payload={"kind": "normal", "re": ["Ben", "Dora"], "re_eyes": 131}, by=keeper)
    assert results(meeting, 1)["Ben"] == (1, True)
    hand = meeting.hands.get(number=1)
    services.change_hand(hand=hand, payload=LOSER_GETS_POINTS, by=keeper, version=hand.version)
    assert results(meeting, 1)["Ben"] == (-3, True) and results(meeting, 1)["Anna"] == (3, False)
    assert verify.verify_replays(league=league) == (1, [])


def test_fifty_six_every_member_of_the_winning_team_won_the_hand(db):
    # Teams from the seats: A = Anna, Carl, Emil; B = Ben, Dora, Fritz. Ben bids 28 and his team
    # takes 20: failed, team A wins the stake of 2 (fifty-six.md, the seed's table).
    league = LeagueFactory(game="fifty_six", variant="seed")
    keeper = member(league, Role.SCOREKEEPER)
    meeting = meeting_for(league, ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"])
    payload = {"bidder": "Ben", "bid": 28, "trump": "hearts", "double": 0, "bidder_team_points": 20}
    services.enter_hand(meeting=meeting, payload=payload, by=keeper)
    won = {name: w for name, (_delta, w) in results(meeting, 1).items()}
    assert won == {"Anna": True, "Ben": False, "Carl": True, "Dora": False, "Emil": True, "Fritz": False}


def test_a_race_game_wins_the_hand_by_its_bid_and_counts_games_apart(db):
    # 110, cut-throat (maw.md). Hand 1: Anna bids 20 and makes it at trick 4 (5 + 10 with the
    # top trump + 5): the hand is hers. Hand 2: Ben bids 25 and takes tricks 2 and 3 (10): he
    # fails, Anna and Carl set him. Nobody is near 110, so no game is won (games_won 0).
    league = LeagueFactory(game="one_ten", variant="standard")
    keeper = member(league, Role.SCOREKEEPER)
    meeting = meeting_for(league, THREE)
    made = {"bidder": "Anna", "bid": 20, "tricks": ["Anna", "Ben", "Anna", "Anna", "Carl"], "top_trump_trick": 3}
    failed = {"bidder": "Ben", "bid": 25, "tricks": ["Anna", "Ben", "Ben", "Anna", "Carl"], "top_trump_trick": 1}
    services.enter_hand(meeting=meeting, payload=made, by=keeper)
    services.enter_hand(meeting=meeting, payload=failed, by=keeper)
    rows = HandResult.objects.filter(meeting=meeting).select_related("player")
    assert {(r.number, r.player.name): (r.won, r.games_won) for r in rows} == {
        (1, "Anna"): (True, 0),
        (1, "Ben"): (False, 0),
        (1, "Carl"): (False, 0),
        (2, "Anna"): (True, 0),
        (2, "Ben"): (False, 0),
        (2, "Carl"): (True, 0),
    }


def test_a_race_game_the_hand_that_ends_a_game_is_the_game_winners(db):
    # 25, Carl starts at 20 (a game carried in): Ben takes tricks 1 and 2, Carl trick 3 reaches
    # 25 and wins the game there (maw.md); the hand is Carl's although Ben scored more in it.
    league = LeagueFactory(game="twenty_five", variant="standard")
    keeper = member(league, Role.SCOREKEEPER)
    meeting = meeting_for(league, THREE, start_totals={"Carl": 20})
    services.enter_hand(meeting=meeting, payload={"tricks": ["Ben", "Ben", "Carl"]}, by=keeper)
    rows = {
        r.player.name: (r.won, r.games_won) for r in HandResult.objects.filter(meeting=meeting).select_related("player")
    }
    assert rows == {"Anna": (False, 0), "Ben": (False, 0), "Carl": (True, 1)}


def test_a_revoke_is_won_by_everybody_but_the_revoker(doppelkopf):
    # Club: Carl revokes; the game counts as his lost schwarz (5), and he pays each of the others
    # 5 three times over (revoke_multiplier 3): -15, the others +5 each and a win each.
    league, meeting, keeper = doppelkopf
    services.enter_hand(meeting=meeting, payload={"kind": "revoke", "revoke_by": "Carl"}, by=keeper)
    assert results(meeting, 1) == {"Anna": (5, True), "Ben": (5, True), "Carl": (-15, False), "Dora": (5, True)}
