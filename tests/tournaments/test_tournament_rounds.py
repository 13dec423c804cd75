"""A tournament's rounds (leagues/tournaments/services.py, selectors.py): the seat draw of each
round, the tables that play a Serie and end with it, and the ranking from the stored results.

The ranking's figures are worked out by hand under the DDV format of scoring/tournament.py
(docs/rules/tournament.en.md): points of all Serien, then table wins (the most points at one's
table, shared when level), then the best single Serie; equal in all three share the place and
the next place is left out."""

import datetime
import itertools

import pytest

from leagues.exceptions import InvalidInput, MeetingClosed
from leagues.models import ClubNight, Player
from leagues.table import evening, replay
from leagues.table import services as table_services
from leagues.tournaments import selectors, services
from scoring import seating
from tests.factories import LeagueFactory

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 21)
NAMES = ["Anna", "Ben", "Carla", "Dirk", "Emma", "Frank", "Gina", "Hugo", "Ines", "Jana", "Karl", "Lena"]


def game(first, second, value):
    """A game written as its result: Re is ``first`` and ``second``; a positive ``value`` is
    Re's win (Re +value each, Kontra -value each), a negative one Kontra's."""
    winner = "re" if value > 0 else "kontra"
    return {"kind": "points", "re": [first, second], "winner": winner, "value": abs(value)}


def ddv_tournament(names, *, rounds=3, games=None, seed="pokal"):
    league = LeagueFactory(game="doppelkopf", variant="ddv")
    players = [Player.objects.create(league=league, name=name) for name in names]
    tournament = services.create_tournament(
        league=league, name="Pokal", format="ddv", rounds_planned=rounds, games_per_player=games
    )
    tournament.seed = seed
    tournament.save(update_fields=["seed"])
    services.register_players(tournament=tournament, players=players)
    return tournament, players


def seated(night):
    return [
        [seat.player.name for seat in table.seats.order_by("position")]
        for table in night.tables.order_by("table_number")
    ]


def play(night, hands_by_table):
    for table, hands in zip(night.tables.order_by("table_number"), hands_by_table, strict=True):
        for hand in hands:
            table_services.enter_hand(meeting=table, payload=hand, by=None)


def standings(tournament):
    ranking = selectors.ranking(tournament=tournament, played=selectors.rounds(tournament=tournament))
    assert not ranking.problems
    return ranking


def as_rows(rows):
    return [
        (row.place, row.party, row.figures["points"], row.figures["table_wins"], row.figures["best_round"])
        for row in rows
    ]


def repeats(tables, earlier):
    met = seating.table_mates(earlier)
    return sum(met[pair] for pair in seating.table_mates(tables))


def fewest_repeats(names, earlier):
    """The fewest old table-mates any split of ``names`` into tables of four seats together,
    by trying every split (5,775 for twelve)."""
    met = seating.table_mates(earlier)

    def splits(rest):
        if not rest:
            yield []
            return
        first = rest[0]
        for others in itertools.combinations(rest[1:], 3):
            table = (first, *others)
            for more in splits([n for n in rest if n not in table]):
                yield [table, *more]

    return min(sum(met[pair] for pair in seating.table_mates(split)) for split in splits(sorted(names)))


# Round 1, as the draw seats it with the seed "pokal" (hands: Re pair, Re's value):
#   Table 1 Karl Frank Gina Anna: A+K 4, A+K 2, A+F 3, A+G 3
#     Anna 4+2+3+3 = +12, Karl 4+2-3-3 = 0, Frank -4-2+3-3 = -6, Gina -4-2-3+3 = -6
#   Table 2 Dirk Ben Carla Lena: D+B 6, D+B 4, D+C 12, D+L -6 (Kontra wins)
#     Dirk 6+4+12-6 = +16, Ben 6+4-12+6 = +4, Carla -6-4+12+6 = +8, Lena -6-4-12-6 = -28
#   Table 3 Hugo Jana Ines Emma: H+J -2, H+I -2, H+E 4, H+E 2
#     Hugo -2-2+4+2 = +2, Jana -2+2-4-2 = -6, Ines 2-2-4-2 = -6, Emma 2+2+4+2 = +10
ROUND_1 = (
    [["Karl", "Frank", "Gina", "Anna"], ["Dirk", "Ben", "Carla", "Lena"], ["Hugo", "Jana", "Ines", "Emma"]],
    [
        [game("Anna", "Karl", 4), game("Anna", "Karl", 2), game("Anna", "Frank", 3), game("Anna", "Gina", 3)],
        [game("Dirk", "Ben", 6), game("Dirk", "Ben", 4), game("Dirk", "Carla", 12), game("Dirk", "Lena", -6)],
        [game("Hugo", "Jana", -2), game("Hugo", "Ines", -2), game("Hugo", "Emma", 4), game("Hugo", "Emma", 2)],
    ],
)
# Round 2:
#   Table 1 Gina Lena Ben Hugo: G+L -3, G+B 5, G+H -2, G+H -2
#     Gina -3+5-2-2 = -2, Lena -3-5+2+2 = -4, Ben 3+5+2+2 = +12, Hugo 3-5-2-2 = -6
#   Table 2 Karl Jana Dirk Anna: K+J -1, K+D -3, K+A 3, K+A 3
#     Karl -1-3+3+3 = +2, Jana -1+3-3-3 = -4, Dirk 1-3-3-3 = -8, Anna 1+3+3+3 = +10
#   Table 3 Ines Carla Frank Emma: I+C -3, I+F -1, I+E -4, I+E -4
#     Ines -3-1-4-4 = -12, Carla -3+1+4+4 = +6, Frank 3-1+4+4 = +10, Emma 3+1-4-4 = -4
ROUND_2 = (
    [["Gina", "Lena", "Ben", "Hugo"], ["Karl", "Jana", "Dirk", "Anna"], ["Ines", "Carla", "Frank", "Emma"]],
    [
        [game("Gina", "Lena", -3), game("Gina", "Ben", 5), game("Gina", "Hugo", -2), game("Gina", "Hugo", -2)],
        [game("Karl", "Jana", -1), game("Karl", "Dirk", -3), game("Karl", "Anna", 3), game("Karl", "Anna", 3)],
        [game("Ines", "Carla", -3), game("Ines", "Frank", -1), game("Ines", "Emma", -4), game("Ines", "Emma", -4)],
    ],
)
# Round 3:
#   Table 1 Emma Karl Gina Dirk: E+K -1, E+G 2, E+D -4, E+D -3
#     Emma -1+2-4-3 = -6, Karl -1-2+4+3 = +4, Gina 1+2+4+3 = +10, Dirk 1-2-4-3 = -8
#   Table 2 Ines Anna Carla Lena: I+A 3, I+C 2, I+L -4, I+L -3
#     Ines 3+2-4-3 = -2, Anna 3-2+4+3 = +8, Carla -3+2+4+3 = +6, Lena -3-2-4-3 = -12
#   Table 3 Ben Frank Hugo Jana: B+F 1, B+H 3, B+H 2, B+J -2
#     Ben 1+3+2-2 = +4, Frank 1-3-2+2 = -2, Hugo -1+3+2+2 = +6, Jana -1-3-2-2 = -8
ROUND_3 = (
    [["Emma", "Karl", "Gina", "Dirk"], ["Ines", "Anna", "Carla", "Lena"], ["Ben", "Frank", "Hugo", "Jana"]],
    [
        [game("Emma", "Karl", -1), game("Emma", "Gina", 2), game("Emma", "Dirk", -4), game("Emma", "Dirk", -3)],
        [game("Ines", "Anna", 3), game("Ines", "Carla", 2), game("Ines", "Lena", -4), game("Ines", "Lena", -3)],
        [game("Ben", "Frank", 1), game("Ben", "Hugo", 3), game("Ben", "Hugo", 2), game("Ben", "Jana", -2)],
    ],
)

# After round 1 (place, name, points, table wins, best Serie): the three table winners lead;
# Frank, Gina, Ines and Jana are level in all three figures (-6, no win, -6) and share 8th.
AFTER_1 = [
    (1, "Dirk", 16, 1, 16),
    (2, "Anna", 12, 1, 12),
    (3, "Emma", 10, 1, 10),
    (4, "Carla", 8, 0, 8),
    (5, "Ben", 4, 0, 4),
    (6, "Hugo", 2, 0, 2),
    (7, "Karl", 0, 0, 0),
    (8, "Frank", -6, 0, -6),
    (8, "Gina", -6, 0, -6),
    (8, "Ines", -6, 0, -6),
    (8, "Jana", -6, 0, -6),
    (12, "Lena", -28, 0, -28),
]
# After round 2: Anna 12+10, Ben 4+12, Carla 8+6, Dirk 16-8, Emma 10-4, Frank -6+10, Karl 0+2,
# Hugo 2-6, Gina -6-2, Jana -6-4, Ines -6-12, Lena -28-4; no two level.
AFTER_2 = [
    (1, "Anna", 22, 2, 12),
    (2, "Ben", 16, 1, 12),
    (3, "Carla", 14, 0, 8),
    (4, "Dirk", 8, 1, 16),
    (5, "Emma", 6, 1, 10),
    (6, "Frank", 4, 1, 10),
    (7, "Karl", 2, 0, 2),
    (8, "Hugo", -4, 0, 2),
    (9, "Gina", -8, 0, -2),
    (10, "Jana", -10, 0, -4),
    (11, "Ines", -18, 0, -6),
    (12, "Lena", -32, 0, -4),
]
# The end: Anna 12+10+8 = 30 with three table wins. Ben and Carla both 20: Ben won a table
# (round 2), Carla none, so Ben is 2nd. Frank (-6+10-2), Gina (-6-2+10) and Hugo (2-6+6) all
# end on +2 with one table win: Frank's and Gina's best Serie is +10, Hugo's +6, so Hugo is
# 7th, and Frank and Gina, equal in every figure, share 5th (no 6th). Dirk (16-8-8) and Emma
# (10-4-6) both end on 0 with one table win: Dirk's best Serie +16 beats Emma's +10.
FINAL = [
    (1, "Anna", 30, 3, 12),
    (2, "Ben", 20, 1, 12),
    (3, "Carla", 20, 0, 8),
    (4, "Karl", 6, 0, 4),
    (5, "Frank", 2, 1, 10),
    (5, "Gina", 2, 1, 10),
    (7, "Hugo", 2, 1, 6),
    (8, "Dirk", 0, 1, 16),
    (9, "Emma", 0, 1, 10),
    (10, "Jana", -18, 0, -4),
    (11, "Ines", -20, 0, -2),
    (12, "Lena", -44, 0, -4),
]


def test_twelve_players_over_three_rounds_rank_as_worked_out_by_hand():
    tournament, players = ddv_tournament(NAMES, games=4)
    earlier = []
    for number, (tables, hands) in enumerate((ROUND_1, ROUND_2, ROUND_3), start=1):
        night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
        assert (night.round_number, seated(night)) == (number, tables)
        # A table of four plays the club's 4 games a player; the 4th ends the table.
        assert {t.games_planned for t in night.tables.all()} == {4}
        play(night, hands)
        assert all(t.closed_at is not None for t in night.tables.all())
        earlier += tables
    ranking = standings(tournament)
    assert [as_rows(rows) for rows in ranking.after] == [AFTER_1, AFTER_2, FINAL]
    assert as_rows(ranking.rows) == FINAL
    assert ranking.by_round["Frank"] == [-6, 10, -2]


def test_the_ranking_waits_for_every_table_of_a_round():
    tournament, players = ddv_tournament(NAMES, games=4)
    night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
    tables, hands = ROUND_1
    first, second, third = night.tables.order_by("table_number")
    play_tables = [(first, hands[0]), (second, hands[1]), (third, hands[2][:3])]
    for table, table_hands in play_tables:
        for hand in table_hands:
            table_services.enter_hand(meeting=table, payload=hand, by=None)
    played = selectors.rounds(tournament=tournament)
    assert not played[0].finished
    assert standings(tournament).rows == []
    with pytest.raises(InvalidInput) as refused:
        services.draw_round(tournament=tournament, date=DAY, host=players[0])
    assert refused.value.errors[0]["field"] == "round"
    assert "Round 1 is still being played" in refused.value.errors[0]["message"]


def test_the_draw_seats_as_few_old_table_mates_together_as_twelve_players_allow():
    # Twelve at three tables of four: round 1 has no old table-mates to avoid; in round 2 each
    # table of four takes its players from three old tables, so two of them met before (at
    # least three pairs again); round 3 likewise has a least, found by trying every split.
    tournament, players = ddv_tournament(NAMES, seed="another lot")
    earlier = []
    for _number in range(3):
        night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
        tables = seated(night)
        assert repeats(tables, earlier) == fewest_repeats(NAMES, earlier)
        earlier += tables
        night.tables.update(closed_at=datetime.datetime(2026, 11, 21, 23, tzinfo=datetime.UTC))
    assert fewest_repeats(NAMES, earlier[:3]) == 3


def test_sixteen_players_meet_no_old_table_mate_in_three_rounds():
    names = [f"Spieler {n:02}" for n in range(16)]
    tournament, players = ddv_tournament(names)
    earlier = []
    for _number in range(3):
        night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
        tables = seated(night)
        assert [len(t) for t in tables] == [4, 4, 4, 4]
        assert repeats(tables, earlier) == 0
        earlier += tables
        night.tables.update(closed_at=datetime.datetime(2026, 11, 21, 23, tzinfo=datetime.UTC))


def test_a_table_refuses_a_25th_game():
    # DDV 8.5: a Serie is 24 games at a table of four; the 24th ends the table.
    tournament, players = ddv_tournament(NAMES[:8], rounds=1)
    night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
    table = night.tables.order_by("table_number").first()
    assert table.games_planned == 24
    first, second, *_ = [seat.player.name for seat in table.seats.order_by("position")]
    for number in range(24):
        result = replay.calculate_meeting(table)
        assert not evening.can_close(table, result)
        if number == 23:
            assert "1 game is left" in evening.close_problem(table, result)
        table_services.enter_hand(meeting=table, payload=game(first, second, 1), by=None)
    table.refresh_from_db()
    assert table.closed_at is not None
    with pytest.raises(MeetingClosed) as refused:
        table_services.enter_hand(meeting=table, payload=game(first, second, 1), by=None)
    assert refused.value.errors[0]["message"] == "This table has played its 24 games: the round is over here."
    assert table.hands.count() == 24


def test_a_table_of_five_plays_thirty_games():
    # Thirteen players: 5 + 4 + 4. At five the dealer sits out, so 30 games give each 24.
    tournament, players = ddv_tournament([*NAMES, "Max"], rounds=1)
    night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
    assert [
        (len(t), m.games_planned) for t, m in zip(seated(night), night.tables.order_by("table_number"), strict=True)
    ] == [
        (5, 30),
        (4, 24),
        (4, 24),
    ]


def test_a_club_may_play_shorter_serien_and_the_table_of_five_a_quarter_more():
    tournament, players = ddv_tournament([*NAMES[:8], "Max"], rounds=1, games=12)
    night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
    assert sorted(night.tables.values_list("games_planned", flat=True)) == [12, 15]


def test_it_draws_no_more_rounds_than_planned():
    tournament, players = ddv_tournament(NAMES[:8], rounds=1)
    night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
    night.tables.update(closed_at=datetime.datetime(2026, 11, 21, 23, tzinfo=datetime.UTC))
    with pytest.raises(InvalidInput) as refused:
        services.draw_round(tournament=tournament, date=DAY, host=players[0])
    assert "All 1 rounds have been drawn" in refused.value.errors[0]["message"]
    assert ClubNight.objects.filter(tournament=tournament).count() == 1


def test_it_refuses_a_round_of_one_table_and_players_who_cannot_be_seated():
    tournament, players = ddv_tournament(NAMES[:5])
    with pytest.raises(InvalidInput) as refused:
        services.draw_round(tournament=tournament, date=DAY, host=players[0])
    assert "at least two tables" in refused.value.errors[0]["message"]
    services.register_players(tournament=tournament, players=players[:7])
    with pytest.raises(InvalidInput) as refused:
        services.draw_round(tournament=tournament, date=DAY, host=players[0])
    assert refused.value.errors[0]["field"] == "players"
    assert not ClubNight.objects.exists()


def test_it_refuses_a_format_of_another_game_and_odd_serien():
    league = LeagueFactory(game="thousand", variant="koenigsberg")
    with pytest.raises(InvalidInput) as refused:
        services.create_tournament(league=league, name="Cup", format="ddv", rounds_planned=3)
    assert refused.value.errors[0]["field"] == "format"
    league = LeagueFactory(game="doppelkopf", variant="ddv")
    with pytest.raises(InvalidInput) as refused:
        services.create_tournament(league=league, name=" ", format="ddv", rounds_planned=0, games_per_player=10)
    assert {e["field"] for e in refused.value.errors} == {"name", "rounds_planned", "games_per_player"}


def test_maw_pairs_sit_together_partners_opposite_and_play_a_robber():
    league = LeagueFactory(game="forty_five", variant="merrimack")
    players = [Player.objects.create(league=league, name=f"P{n}") for n in range(8)]
    tournament = services.create_tournament(league=league, name="Robbers", format="maw_pairs", rounds_planned=2)
    pairs = {}
    for number in range(4):
        first, second = players[2 * number : 2 * number + 2]
        services.add_party(tournament=tournament, name=f"Pair {number}", players=[first, second])
        pairs[f"Pair {number}"] = {first.name, second.name}
    night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
    for table in night.tables.all():
        names = [seat.player.name for seat in table.seats.order_by("position")]
        assert len(names) == 4
        # Partners opposite: seats 0 and 2, 1 and 3.
        assert {names[0], names[2]} in pairs.values() and {names[1], names[3]} in pairs.values()
        assert {party: set(members) for party, members in table.teams.items()} == {
            party: members for party, members in pairs.items() if members & set(names)
        }
        assert table.rules["match_games"] == 3 and (table.games_planned, table.matches_planned) == (None, 1)


def test_a_player_plays_in_one_pair_only():
    league = LeagueFactory(game="forty_five", variant="merrimack")
    players = [Player.objects.create(league=league, name=f"P{n}") for n in range(3)]
    tournament = services.create_tournament(league=league, name="Robbers", format="maw_pairs", rounds_planned=2)
    services.add_party(tournament=tournament, name="Ones", players=players[:2])
    with pytest.raises(InvalidInput) as refused:
        services.add_party(tournament=tournament, name="Twos", players=players[1:])
    assert refused.value.errors[0]["field"] == "players"
    with pytest.raises(InvalidInput) as refused:
        services.add_party(tournament=tournament, name="Ones", players=[players[2], players[2]])
    assert refused.value.errors[0]["field"] == "players"


def test_maw_pairs_rank_by_robbers_then_games_from_the_tables_as_played():
    # Forty-five (merrimack): a pair that takes all five tricks and the top trump scores
    # 5 x 5 + 5 = 30, so two such hands win a game (45); three games win the robber.
    league = LeagueFactory(game="forty_five", variant="merrimack")
    players = [Player.objects.create(league=league, name=f"P{n}") for n in range(8)]
    tournament = services.create_tournament(league=league, name="Robbers", format="maw_pairs", rounds_planned=1)
    for number in range(4):
        services.add_party(tournament=tournament, name=f"Pair {number}", players=players[2 * number : 2 * number + 2])
    night = services.draw_round(tournament=tournament, date=DAY, host=players[0])
    first, second = night.tables.order_by("table_number")

    def sweep(table, party, games):
        for _hand in range(2 * games):
            hand = {"tricks": [party] * 5, "top_trump_trick": 1}
            table_services.enter_hand(meeting=table, payload=hand, by=None)

    # Table 1: the second pair wins a game, then the first the robber (3 games to 1).
    one, two = list(first.teams)
    sweep(first, two, 1)
    sweep(first, one, 3)
    # Table 2: the first pair wins the robber 3 games to 0.
    three, four = list(second.teams)
    sweep(second, three, 3)
    # The game that wins each robber ended its table.
    assert all(table.closed_at is not None for table in night.tables.all())
    rows = [(row.place, row.party, row.figures["robbers"], row.figures["games"]) for row in standings(tournament).rows]
    # Both robber winners have 1 robber and 3 games: they share 1st (listed by name); the pair
    # with a game is 3rd, the pair without one 4th.
    winners = sorted([one, three])
    assert rows == [(1, winners[0], 1, 3), (1, winners[1], 1, 3), (3, two, 0, 1), (4, four, 0, 0)]
