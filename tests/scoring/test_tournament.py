"""A tournament's ranking, worked out by hand (docs/rules/tournament.*.md)."""

import pytest

from scoring.errors import ScoringError
from scoring.tournament import FORMATS, rank, rank_after_each_round, tournament_format

# Twelve Doppelkopf players, three Serien at three tables of four (DDV plus-minus: every
# table's points add up to zero).
ROUNDS = [
    [
        {"A": 30, "B": 10, "C": -15, "D": -25},
        {"E": 20, "F": 20, "G": -10, "H": -30},  # E and F share the table win
        {"I": 25, "J": -10, "K": -5, "L": -10},
    ],
    [
        {"A": -20, "E": 10, "I": 15, "B": -5},
        {"C": 40, "F": -10, "J": -10, "G": -20},
        {"D": 5, "H": 25, "K": -10, "L": -20},
    ],
    [
        {"A": 10, "F": -10, "L": 20, "H": -20},
        {"B": 15, "E": -20, "J": 20, "K": -15},
        {"C": -25, "D": 10, "G": 25, "I": -10},
    ],
]

# By hand, after three Serien: points = sum of the three rounds; table wins = rounds with the
# table's highest score (shared wins count for each); best round = the highest single round.
#   I: 25 + 15 - 10 = 30, wins R1 and R2 (2), best 25             -> 1st on points
#   A: 30 - 20 + 10 = 20, wins R1 (1), best 30                     -> 2nd: points tie with B, A has a table win
#   B: 10 -  5 + 15 = 20, no win (R3's table went to J), best 15   -> 3rd
#   E: 20 + 10 - 20 = 10, shared win R1 (1), best 20               -> 4th
#   C: -15 + 40 - 25 = 0, wins R2 (1), best 40                     -> 5th: points and wins tie with F and J,
#   F: 20 - 10 - 10 = 0, shared win R1 (1), best 20                   C's best round is higher
#   J: -10 - 10 + 20 = 0, wins R3 (1), best 20                     -> F and J equal in every figure: both 6th
#   G: -10 - 20 + 25 = -5, wins R3 (1), best 25                    -> 8th
#   L: -10 - 20 + 20 = -10, wins R3 (1), best 20                   -> 9th: points tie with D, L has a table win
#   D: -25 + 5 + 10 = -10, no win, best 10                         -> 10th
#   H: -30 + 25 - 20 = -25, wins R2 (1), best 25                   -> 11th
#   K: -5 - 10 - 15 = -30, no win, best -5                         -> 12th
FINAL = [
    (1, "I", 30, 2, 25),
    (2, "A", 20, 1, 30),
    (3, "B", 20, 0, 15),
    (4, "E", 10, 1, 20),
    (5, "C", 0, 1, 40),
    (6, "F", 0, 1, 20),
    (6, "J", 0, 1, 20),
    (8, "G", -5, 1, 25),
    (9, "L", -10, 1, 20),
    (10, "D", -10, 0, 10),
    (11, "H", -25, 1, 25),
    (12, "K", -30, 0, -5),
]

# After the first Serie only: G, J and L all have -10, no table win and a best round of -10, so
# they share 7th place; E and F share 3rd (20, a shared table win, best 20).
AFTER_ROUND_ONE = [
    (1, "A", 30, 1, 30),
    (2, "I", 25, 1, 25),
    (3, "E", 20, 1, 20),
    (3, "F", 20, 1, 20),
    (5, "B", 10, 0, 10),
    (6, "K", -5, 0, -5),
    (7, "G", -10, 0, -10),
    (7, "J", -10, 0, -10),
    (7, "L", -10, 0, -10),
    (10, "C", -15, 0, -15),
    (11, "D", -25, 0, -25),
    (12, "H", -30, 0, -30),
]


def rows(standings):
    return [(s.place, s.party, *s.figures.values()) for s in standings]


def test_ddv_ranks_points_then_table_wins_then_the_best_serie():
    standings = rank(tournament="ddv", rounds=ROUNDS)
    assert rows(standings) == FINAL
    assert list(standings[0].figures) == ["points", "table_wins", "best_round"]
    assert {s.rounds for s in standings} == {3}


def test_the_ranking_after_each_round():
    after = rank_after_each_round(tournament="ddv", rounds=ROUNDS)
    assert len(after) == 3
    assert rows(after[0]) == AFTER_ROUND_ONE
    assert rows(after[2]) == FINAL


def test_a_serie_is_24_games_at_a_table_of_four():
    # DDV Turnierspielregeln 8.5: 24 games a Serie; at a table of five 30, so each plays 24.
    assert FORMATS["ddv"].games_per_round == {4: 24, 5: 30}


def test_ddv_tables_must_add_up_to_zero_and_seat_four_or_five():
    bad = [[{"A": 10, "B": 0, "C": 0, "D": 0}, {"E": 1, "F": -1, "G": 0}, {"A": 0, "H": 0, "I": 0, "J": 0}]]
    with pytest.raises(ScoringError) as caught:
        rank(tournament="ddv", rounds=bad)
    messages = [p.render() for p in caught.value.problems]
    assert messages == [
        "Round 1, table 1: the points do not add up to zero.",
        "Round 1, table 2: a table seats 4, 5, not 3.",
        "Round 1, table 3: a party plays twice in the round.",
    ]


def test_maw_pairs_rank_robbers_then_games():
    # Round 1: table 1 robber to ab (3-1-2), table 2 to gh (0-3); round 2: ab loses to cd 2-3,
    # ef wins 3-1 against gh and 3-0 against ij.
    rounds = [
        [{"ab": 3, "cd": 1, "ef": 2}, {"gh": 3, "ij": 0}],
        [{"ab": 2, "cd": 3}, {"ef": 3, "gh": 1, "ij": 0}],
    ]
    # ab: 1 robber, 5 games; cd: 1 robber, 4 games; ef: 1 robber, 5 games; gh: 1 robber, 4 games; ij: 0, 0.
    # ab and ef tie in both figures (shared 1st); cd and gh tie (shared 3rd).
    assert rows(rank(tournament="maw_pairs", rounds=rounds)) == [
        (1, "ab", 1, 5),
        (1, "ef", 1, 5),
        (3, "cd", 1, 4),
        (3, "gh", 1, 4),
        (5, "ij", 0, 0),
    ]
    with pytest.raises(ScoringError, match="exactly one pair wins the robber"):
        rank(tournament="maw_pairs", rounds=[[{"ab": 3, "cd": 3}]])


def test_fifty_six_teams_rank_match_points_then_difference_then_points():
    # Match points: 2 a win, 1 a draw. Round 1: A beats B 12-4, C and D draw 6-6.
    # Round 2: A beats C 8-7, D beats B 10-0.
    rounds = [[{"A": 12, "B": 4}, {"C": 6, "D": 6}], [{"A": 8, "C": 7}, {"D": 10, "B": 0}]]
    # A: 4 points, difference +8 +1 = 9; D: 3, 0 + 10 = 10; C: 1, 0 - 1 = -1, 13 points; B: 0, -8 - 10 = -18.
    assert rows(rank(tournament="fifty_six_teams", rounds=rounds)) == [
        (1, "A", 4, 9, 20),
        (2, "D", 3, 10, 16),
        (3, "C", 1, -1, 13),
        (4, "B", 0, -18, 4),
    ]


def test_unknown_format_and_non_integer_scores_are_refused():
    with pytest.raises(ScoringError, match="Unknown tournament format skat"):
        tournament_format("skat")
    with pytest.raises(ScoringError, match="scores are whole numbers"):
        rank(tournament="ddv", rounds=[[{"A": 1.5, "B": -1.5, "C": 0, "D": 0}]])
