"""A Maw pairs tournament (leagues/tournaments/, leagues/table/evening.py): each round's table
plays one robber and ends itself at the game that wins it, as the replay reports it; a further
hand, an early "End the evening" and a correction that would leave hands after the robber are
refused by name; the ranking after each round is worked out by hand.

Figures by hand under scoring/tournament.py's maw_pairs format (docs/rules/tournament.en.md):
robbers won, then games won; pairs equal in both share the place. Forty-five (merrimack): a
pair that takes all five tricks and the top trump scores 5 x 5 + 5 = 30, so two such hands
win a game (45 or more when the hand is played out); the first pair to three games wins the
robber (seed 000: "ein Match (robber) von demjenigen Paar gewonnen wird, das zuerst 3 Partien
gewinnt")."""

import datetime

import pytest

from leagues.exceptions import MeetingClosed
from leagues.models import HandResult, Player
from leagues.table import evening, meetings, replay
from leagues.table import services as table_services
from leagues.tournaments import selectors, services
from tests.factories import LeagueFactory

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 24)
NAMES = ["Aoife", "Brian", "Ciara", "Declan", "Eimear", "Fergal", "Grainne", "Hugh"]
PAIRS = ["Kerry", "Cork", "Clare", "Mayo"]  # Aoife+Brian, Ciara+Declan, Eimear+Fergal, Grainne+Hugh


def robbers(*, rounds=2):
    league = LeagueFactory(game="forty_five", variant="merrimack")
    players = [Player.objects.create(league=league, name=name) for name in NAMES]
    tournament = services.create_tournament(
        league=league, name="Convent Hall", format="maw_pairs", rounds_planned=rounds
    )
    tournament.seed = "robber"
    tournament.save(update_fields=["seed"])
    for number, name in enumerate(PAIRS):
        services.add_party(tournament=tournament, name=name, players=players[2 * number : 2 * number + 2])
    return tournament, players


def sweep(pair):
    """A hand in which ``pair`` takes all five tricks and the top trump: 30 points."""
    return {"tricks": [pair] * 5, "top_trump_trick": 1}


def play_games(table, winners):
    """Each game of ``winners`` won by that pair with two sweeps (30 + 30 = 60)."""
    for pair in winners:
        for _hand in range(2):
            table_services.enter_hand(meeting=table, payload=sweep(pair), by=None)


def tables_of(night):
    return {frozenset(table.teams): table for table in night.tables.all()}


def ranking_rows(tournament):
    ranking = selectors.ranking(tournament=tournament, played=selectors.rounds(tournament=tournament))
    assert not ranking.problems
    return [
        [(row.place, row.party, row.figures["robbers"], row.figures["games"]) for row in rows] for rows in ranking.after
    ]


# Round 1 as the lot "robber" draws it: Cork v Clare, Kerry v Mayo.
#   Cork v Clare: Clare, Cork, Clare, Cork, Cork: Cork's 3rd game (hand 10) wins the robber 3-2.
#   Kerry v Mayo: Mayo, Kerry, Mayo, Mayo: Mayo's 3rd game (hand 8) wins it 3-1.
# After round 1: Cork and Mayo 1 robber and 3 games each share 1st (by name); Clare (0, 2)
# 3rd, Kerry (0, 1) 4th.
AFTER_1 = [(1, "Cork", 1, 3), (1, "Mayo", 1, 3), (3, "Clare", 0, 2), (4, "Kerry", 0, 1)]
# Round 2, no pair meeting the same pair again: Kerry v Cork, Clare v Mayo.
#   Kerry v Cork: Kerry 3-0. Clare v Mayo: Mayo, Clare, Mayo, Clare, Clare: Clare 3-2.
# After round 2 every pair has won one robber, so the games decide: Clare 2 + 3 = 5 and Mayo
# 3 + 2 = 5 share 1st, Kerry 1 + 3 = 4 is 3rd, Cork 3 + 0 = 3 is 4th.
AFTER_2 = [(1, "Clare", 1, 5), (1, "Mayo", 1, 5), (3, "Kerry", 1, 4), (4, "Cork", 1, 3)]


def test_eight_players_in_four_pairs_over_two_rounds_rank_as_worked_out_by_hand():
    tournament, players = robbers()
    night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
    tables = tables_of(night)
    assert set(tables) == {frozenset({"Cork", "Clare"}), frozenset({"Kerry", "Mayo"})}
    assert all(t.matches_planned == 1 and t.rules["match_games"] == 3 for t in tables.values())
    play_games(tables[frozenset({"Cork", "Clare"})], ["Clare", "Cork", "Clare", "Cork", "Cork"])
    play_games(tables[frozenset({"Kerry", "Mayo"})], ["Mayo", "Kerry", "Mayo", "Mayo"])
    # The robber's last game ended each table: nobody pressed "End the evening".
    assert all(t.closed_at is not None for t in night.tables.all())
    assert ranking_rows(tournament) == [AFTER_1]

    night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
    tables = tables_of(night)
    assert set(tables) == {frozenset({"Kerry", "Cork"}), frozenset({"Clare", "Mayo"})}
    play_games(tables[frozenset({"Kerry", "Cork"})], ["Kerry"] * 3)
    play_games(tables[frozenset({"Clare", "Mayo"})], ["Mayo", "Clare", "Mayo", "Clare", "Clare"])
    assert all(t.closed_at is not None for t in night.tables.all())
    assert ranking_rows(tournament) == [AFTER_1, AFTER_2]


def test_the_games_come_from_the_replay_as_stored():
    # The hand that wins a game stores it (HandResult.games_won) for both partners; the robber's
    # games are what the ranking reads.
    tournament, players = robbers(rounds=1)
    night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
    table = tables_of(night)[frozenset({"Cork", "Clare"})]
    play_games(table, ["Clare", "Cork", "Clare", "Cork", "Cork"])
    won = HandResult.objects.filter(meeting=table, games_won__gt=0).order_by("number", "player__name")
    assert [(row.number, row.player.name) for row in won] == [
        (2, "Eimear"),
        (2, "Fergal"),
        (4, "Ciara"),
        (4, "Declan"),
        (6, "Eimear"),
        (6, "Fergal"),
        (8, "Ciara"),
        (8, "Declan"),
        (10, "Ciara"),
        (10, "Declan"),
    ]
    assert replay.calculate_meeting(table)["matches"] == [{"winner": "Cork", "hand": 10}]


def test_a_table_refuses_a_hand_after_the_robber():
    tournament, players = robbers(rounds=1)
    night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
    table = tables_of(night)[frozenset({"Kerry", "Mayo"})]
    play_games(table, ["Mayo", "Kerry", "Mayo", "Mayo"])
    table.refresh_from_db()
    assert table.closed_at is not None
    with pytest.raises(MeetingClosed) as refused:
        table_services.enter_hand(meeting=table, payload=sweep("Kerry"), by=None)
    assert refused.value.errors[0]["message"] == "Mayo has won the robber at this table: the round is over here."
    # Also after an admin reopened it to correct a hand.
    meetings.reopen_meeting(meeting=table, user=None, reason="A trick was miscounted.")
    table.refresh_from_db()
    with pytest.raises(MeetingClosed) as refused:
        table_services.enter_hand(meeting=table, payload=sweep("Kerry"), by=None)
    assert "Mayo has won the robber at this table" in refused.value.errors[0]["message"]
    assert table.hands.count() == 8


def test_the_evening_cannot_be_ended_before_the_robber_is_won():
    tournament, players = robbers(rounds=1)
    night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
    table = tables_of(night)[frozenset({"Kerry", "Mayo"})]
    play_games(table, ["Mayo", "Kerry", "Mayo"])  # 2 games to 1: no robber yet
    result = replay.calculate_meeting(table)
    assert not evening.can_close(table, result) and not evening.evening_over(table, result)
    with pytest.raises(MeetingClosed) as refused:
        meetings.close_meeting(meeting=table, user=None)
    message = "This table plays a robber: it ends when a pair has won 3 games."
    assert refused.value.errors[0]["message"] == message
    table.refresh_from_db()
    assert table.closed_at is None
    assert selectors.rounds(tournament=tournament)[0].finished is False


def test_a_correction_that_wins_the_robber_before_the_last_hand_is_refused():
    # Cork v Clare went Clare, Cork, Clare, Cork, Cork (hands 1-10). Hand 5 corrected to Cork's
    # sweep: game 3 goes Cork 30 (hand 5), 30 all (hand 6), Cork 60 (hand 7: Cork's 2nd game),
    # and Cork's hands 8 and 9 win its 3rd game at hand 9: the robber would end before hand 10.
    tournament, players = robbers(rounds=1)
    night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
    table = tables_of(night)[frozenset({"Cork", "Clare"})]
    play_games(table, ["Clare", "Cork", "Clare", "Cork", "Cork"])
    meetings.reopen_meeting(meeting=table, user=None, reason="Hand 5 was Cork's.")
    fifth = table.hands.get(number=5)
    with pytest.raises(MeetingClosed) as refused:
        table_services.change_hand(hand=fifth, payload=sweep("Cork"), by=None, version=fifth.version)
    assert refused.value.errors[0]["message"] == (
        "With this, Cork wins the robber at hand 9, but the sheet goes on to hand 10. Delete the hands after it first."
    )
    fifth.refresh_from_db()
    assert fifth.payload == sweep("Clare")
    # With hand 10 deleted first, the correction ends the robber at the sheet's last hand.
    tenth = table.hands.get(number=10)
    table_services.delete_hand(hand=tenth, by=None, version=tenth.version)
    table_services.change_hand(hand=fifth, payload=sweep("Cork"), by=None, version=fifth.version)
    table.refresh_from_db()
    result = replay.calculate_meeting(table)
    assert result["matches"] == [{"winner": "Cork", "hand": 9}]
    assert evening.can_close(table, result)
