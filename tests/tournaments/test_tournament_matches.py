"""A 56 teams tournament (leagues/tournaments/, leagues/table/evening.py): a round's table is
one match between two teams seated on alternate seats; the match is the tournament's number of
games (the league plays without tokens) or, where the league plays with tokens, lasts until a
team has lost them (scoring/fifty_six.py: the replay's ``matches``). Either way the table ends
itself at the match's end and refuses a further hand; the ranking after each round is worked
out by hand.

Figures by hand under scoring/tournament.py's fifty_six_teams format (docs/rules/tournament.en.md):
match points (2 a match won, 1 a draw), then the difference of points scored and conceded,
then the points scored. 56 stakes (spec: fifty-six.md, the seed's table): a bid of 28-39 made
scores 1 for the bidders, lost 2 for the others; 40-47: 2 / 3; 48-55: 3 / 4; 56: 4 / 5."""

import datetime

import pytest

from leagues.exceptions import InvalidInput, MeetingClosed
from leagues.models import Player
from leagues.table import evening, meetings, replay
from leagues.table import services as table_services
from leagues.tournaments import selectors, services
from tests.factories import LeagueFactory

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 8, 29)
TEAMS = {"Alappuzha": "A", "Kollam": "B", "Kottayam": "C", "Thrissur": "D"}  # players A1-A3, ...


def onam(*, rounds=2, games=6, **league):
    league = LeagueFactory(game="fifty_six", variant="tournament", **league)
    players = {}
    for letter in "ABCD":
        for number in (1, 2, 3):
            name = f"{letter}{number}"
            players[name] = Player.objects.create(league=league, name=name)
    tournament = services.create_tournament(
        league=league, name="Onam", format="fifty_six_teams", rounds_planned=rounds, games_per_player=games
    )
    tournament.seed = "onam"
    tournament.save(update_fields=["seed"])
    for team, letter in TEAMS.items():
        services.add_party(tournament=tournament, name=team, players=[players[f"{letter}{n}"] for n in (1, 2, 3)])
    return tournament, players


def hand(bidder, bid, points, double=0):
    return {"bidder": bidder, "bid": bid, "trump": "hearts", "double": double, "bidder_team_points": points}


def play(table, hands):
    for payload in hands:
        table_services.enter_hand(meeting=table, payload=payload, by=None)


def tables_of(night):
    return {frozenset(table.teams): table for table in night.tables.all()}


def ranking_rows(tournament):
    ranking = selectors.ranking(tournament=tournament, played=selectors.rounds(tournament=tournament))
    assert not ranking.problems
    return [
        [
            (row.place, row.party, row.figures["match_points"], row.figures["difference"], row.figures["points"])
            for row in rows
        ]
        for rows in ranking.after
    ]


# Round 1 as the lot "onam" draws it: Thrissur v Alappuzha, Kollam v Kottayam.
#   Thrissur v Alappuzha: D1 28 took 30 (D +1), A1 40 took 44 (A +2), D2 30 took 25 (A +2),
#     A2 48 took 50 (A +3), D3 32 took 40 (D +1), A3 29 took 20 doubled (D 2 + 1 = 3, the
#     tournament preset's double): Alappuzha 7, Thrissur 5.
#   Kollam v Kottayam: B1 28 took 28 (B +1), C1 28 took 27 (B +2), C2 40 took 45 (C +2),
#     B2 35 took 20 (C +2), B3 48 took 52 (B +3), C3 44 took 47 (C +2): a draw, 6 all.
ROUND_1 = {
    frozenset({"Thrissur", "Alappuzha"}): [
        hand("D1", 28, 30),
        hand("A1", 40, 44),
        hand("D2", 30, 25),
        hand("A2", 48, 50),
        hand("D3", 32, 40),
        hand("A3", 29, 20, double=1),
    ],
    frozenset({"Kollam", "Kottayam"}): [
        hand("B1", 28, 28),
        hand("C1", 28, 27),
        hand("C2", 40, 45),
        hand("B2", 35, 20),
        hand("B3", 48, 52),
        hand("C3", 44, 47),
    ],
}
# Alappuzha won (2, 7 - 5 = +2, 7); Kollam and Kottayam drew (1, 0, 6 each: they share 2nd);
# Thrissur lost (0, -2, 5).
AFTER_1 = [(1, "Alappuzha", 2, 2, 7), (2, "Kollam", 1, 0, 6), (2, "Kottayam", 1, 0, 6), (4, "Thrissur", 0, -2, 5)]
# Round 2, no team meeting the same team again: Thrissur v Kollam, Alappuzha v Kottayam.
#   Thrissur v Kollam: D1 56 took 56 (D +4), B1 40 took 38 (D +3), B2 28 took 30 (B +1),
#     D2 30 took 31 (D +1), B3 44 took 44 (B +2), D3 40 took 30 (B +3): Thrissur 8, Kollam 6.
#   Alappuzha v Kottayam: A1 28 took 30 (A +1), C1 40 took 41 (C +2), A2 48 took 40 (C +4),
#     C2 28 took 20 (A +2), A3 40 took 42 (A +2), C3 36 took 36 (C +1): Kottayam 7, Alappuzha 5.
ROUND_2 = {
    frozenset({"Thrissur", "Kollam"}): [
        hand("D1", 56, 56),
        hand("B1", 40, 38),
        hand("B2", 28, 30),
        hand("D2", 30, 31),
        hand("B3", 44, 44),
        hand("D3", 40, 30),
    ],
    frozenset({"Alappuzha", "Kottayam"}): [
        hand("A1", 28, 30),
        hand("C1", 40, 41),
        hand("A2", 48, 40),
        hand("C2", 28, 20),
        hand("A3", 40, 42),
        hand("C3", 36, 36),
    ],
}
# Kottayam 1 + 2 = 3 match points leads. Thrissur (0 + 2, -2 + 2 = 0, 5 + 8 = 13) and
# Alappuzha (2 + 0, +2 - 2 = 0, 7 + 5 = 12) are level in match points and difference: the
# points scored put Thrissur 2nd. Kollam (1, 0 - 2, 6 + 6) is 4th.
AFTER_2 = [(1, "Kottayam", 3, 2, 13), (2, "Thrissur", 2, 0, 13), (3, "Alappuzha", 2, 0, 12), (4, "Kollam", 1, -2, 12)]


def test_four_teams_over_two_rounds_rank_as_worked_out_by_hand():
    tournament, players = onam()
    for hands, after in ((ROUND_1, [AFTER_1]), (ROUND_2, [AFTER_1, AFTER_2])):
        night = services.draw_round(tournament=tournament, date=DAY, host=players["A1"])
        tables = tables_of(night)
        assert set(tables) == set(hands)
        for teams, table in tables.items():
            assert (table.games_planned, table.matches_planned) == (6, None)
            play(table, hands[teams])
        # Each match's 6th game ended its table.
        assert all(t.closed_at is not None for t in night.tables.all())
        assert ranking_rows(tournament) == after


def test_the_draw_seats_each_team_on_every_second_seat():
    tournament, players = onam(rounds=1)
    night = services.draw_round(tournament=tournament, date=DAY, host=players["A1"])
    for table in night.tables.all():
        seats = [seat.player.name for seat in table.seats.order_by("position")]
        assert len(seats) == 6
        assert {name[0] for name in seats[0::2]} | {name[0] for name in seats[1::2]} == {
            TEAMS[team] for team in table.teams
        }
        assert len({name[0] for name in seats[0::2]}) == 1 and len({name[0] for name in seats[1::2]}) == 1
        assert {team: members for team, members in table.teams.items()} == {
            team: [f"{TEAMS[team]}{n}" for n in (1, 2, 3)] for team in table.teams
        }


def test_a_match_refuses_a_7th_game_and_cannot_be_ended_before_its_6th():
    tournament, players = onam(rounds=1)
    night = services.draw_round(tournament=tournament, date=DAY, host=players["A1"])
    teams = frozenset({"Thrissur", "Alappuzha"})
    table = tables_of(night)[teams]
    play(table, ROUND_1[teams][:5])
    with pytest.raises(MeetingClosed) as refused:
        meetings.close_meeting(meeting=table, user=None)
    assert refused.value.errors[0]["message"] == "This table plays 6 games: 1 game is left."
    play(table, ROUND_1[teams][5:])
    table.refresh_from_db()
    assert table.closed_at is not None
    with pytest.raises(MeetingClosed) as refused:
        play(table, [hand("D1", 28, 30)])
    assert refused.value.errors[0]["message"] == "This table has played its 6 games: the round is over here."


def test_with_tokens_the_match_lasts_until_a_team_has_lost_them():
    # Three tokens a team: D1 40 took 44, Thrissur takes 2 (D 5, A 1); A1 28 took 20, Alappuzha
    # owes 2 and pays its last token: the match is Thrissur's at hand 2 (6 tokens to 0).
    tournament, players = onam(rounds=1, games=None, rule_overrides={"tables": 3})
    night = services.draw_round(tournament=tournament, date=DAY, host=players["A1"])
    teams = frozenset({"Thrissur", "Alappuzha"})
    table = tables_of(night)[teams]
    assert (table.games_planned, table.matches_planned) == (None, 1)
    play(table, [hand("D1", 40, 44)])
    message = "This table plays a match: it ends when a team has lost its tokens."
    assert evening.close_problem(table, replay.calculate_meeting(table)) == message
    play(table, [hand("A1", 28, 20)])
    table.refresh_from_db()
    assert table.closed_at is not None
    with pytest.raises(MeetingClosed) as refused:
        play(table, [hand("D2", 28, 30)])
    assert refused.value.errors[0]["message"] == "Thrissur has won the match at this table: the round is over here."
    scores = {t.number: t.scores(race=False) for t in selectors.rounds(tournament=tournament)[0].tables}
    assert {"Thrissur": 6, "Alappuzha": 0} in scores.values()


def test_a_match_is_a_whole_number_of_deals_for_everyone():
    league = LeagueFactory(game="fifty_six", variant="tournament")
    with pytest.raises(InvalidInput) as refused:
        services.create_tournament(
            league=league, name="Onam", format="fifty_six_teams", rounds_planned=2, games_per_player=20
        )
    assert refused.value.errors == [
        {"hand": None, "field": "games_per_player", "message": "Games per player: a multiple of 6 from 6 to 96."}
    ]
    tournament = services.create_tournament(league=league, name="Onam", format="fifty_six_teams", rounds_planned=2)
    assert tournament.games_per_player is None  # a match of 24 games: four deals for each player
