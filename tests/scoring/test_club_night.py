"""A club night's combined standings (scoring.club_night): figures worked out by hand."""

from fractions import Fraction

import pytest

from scoring.club_night import Played, combine, evening_scores, winner
from scoring.errors import ScoringError

# Nine Doppelkopf players at a table of five and one of four.
FIVE = {
    "Anna": Played(30, 20),
    "Bert": Played(10, 20),
    "Cleo": Played(-5, 16),
    "Dora": Played(-15, 20),
    "Emil": Played(-20, 20),
}
FOUR = {"Fritz": Played(24, 24), "Gabi": Played(24, 24), "Hans": Played(-12, 24), "Ida": Played(-36, 24)}


def by_player(standings):
    return {row.player: row for row in standings}


def test_points_rank_the_points_as_scored():
    rows = combine(method="points", tables=[FIVE, FOUR])
    assert [r.player for r in rows] == ["Anna", "Fritz", "Gabi", "Bert", "Cleo", "Hans", "Dora", "Emil", "Ida"]
    # Fritz and Gabi are level in score and points: they share second place.
    assert [r.place for r in rows] == [1, 2, 2, 4, 5, 6, 7, 8, 9]
    assert winner(rows) == "Anna"


def test_per_game_counts_points_per_game_over_the_nights_average_games():
    # Rule: points per game times the night's mean games per player, so the score stays in
    # points. Games played: 20 + 20 + 16 + 20 + 20 + 4 × 24 = 192 over nine players: 64/3.
    rows = by_player(combine(method="per_game", tables=[FIVE, FOUR]))
    # Anna 30 / 20 = 3/2 per game, × 64/3 = 32; Fritz 24 / 24 = 1, × 64/3 = 64/3;
    # Cleo sat out four games: -5 / 16, × 64/3 = -20/3.
    assert rows["Anna"].score == 32
    assert rows["Fritz"].score == Fraction(64, 3)
    assert rows["Cleo"].score == Fraction(-20, 3)
    assert rows["Anna"].place == 1 and rows["Fritz"].place == 2


def test_per_game_at_one_table_where_all_played_every_game_is_the_points():
    # Rule: a constant factor; at one table of equal games the mean is those games, so the
    # score is the points as scored (30 / 20 × 20 = 30).
    rows = by_player(combine(method="per_game", tables=[{"Anna": Played(30, 20), "Bert": Played(-30, 20)}]))
    assert rows["Anna"].score == 30 and rows["Bert"].score == -30


def test_per_game_without_a_game_counts_the_points_as_scored():
    # Rule: an evening copied from paper as totals has no games to divide by.
    rows = by_player(combine(method="per_game", tables=[{"Anna": Played(12, 0), "Bert": Played(-12, 0)}]))
    assert rows["Anna"].score == 12 and rows["Bert"].score == -12


def test_a_player_who_played_no_game_adds_nothing_to_the_average():
    # Rule: the mean is over players who played a game. Anna 10 in 10 games, Bert -10 in 10,
    # Cleo at another table none: mean 10, Anna 10 / 10 × 10 = 10, Cleo 0.
    tables = [{"Anna": Played(10, 10), "Bert": Played(-10, 10)}, {"Cleo": Played(0, 0), "Dora": Played(0, 10)}]
    scores = evening_scores(method="per_game", tables=tables)
    assert scores == {"Anna": 10, "Bert": -10, "Cleo": 0, "Dora": 0}


def test_evening_scores_give_each_players_combined_score():
    # Rule: what a season adds up is the night's combined score, by its method.
    assert evening_scores(method="points", tables=[FIVE, FOUR])["Ida"] == -36
    placings = evening_scores(method="placings", tables=[FIVE, FOUR])
    assert [placings[p] for p in (*FIVE, *FOUR)] == [4, 3, 2, 1, 0, Fraction(5, 2), Fraction(5, 2), 1, 0]


def test_placings_count_players_behind_and_half_for_a_tie():
    rows = by_player(combine(method="placings", tables=[FIVE, FOUR]))
    # At the five: Anna beat four, Bert three ... Emil none.
    assert [rows[p].score for p in FIVE] == [4, 3, 2, 1, 0]
    # At the four: Fritz and Gabi each beat two and tie one: 2 1/2; Hans beat Ida: 1.
    assert rows["Fritz"].score == rows["Gabi"].score == Fraction(5, 2)
    assert rows["Hans"].score == 1 and rows["Ida"].score == 0


def test_placings_break_a_level_score_by_the_points():
    rows = combine(method="placings", tables=[FIVE, FOUR])
    # Bert (3, 10 points) before Fritz and Gabi (2 1/2)? No: 3 > 2 1/2. Cleo (2) and Hans (1).
    assert [r.player for r in rows][:4] == ["Anna", "Bert", "Fritz", "Gabi"]
    # Dora (1, -15 points) and Hans (1, -12 points): Hans first by his points.
    order = [r.player for r in rows]
    assert order.index("Hans") < order.index("Dora")


def test_a_level_top_goes_to_the_lowest_table_and_seat():
    level = {"Anna": Played(10, 5), "Bert": Played(0, 5), "Cleo": Played(-10, 5), "Dora": Played(0, 5)}
    other = {"Emil": Played(10, 5), "Fritz": Played(-10, 5), "Gabi": Played(0, 5), "Hans": Played(0, 5)}
    rows = combine(method="points", tables=[other, level])
    assert rows[0].place == rows[1].place == 1
    assert winner(rows) == "Emil"


def test_it_refuses_a_player_at_two_tables_and_an_unknown_method():
    with pytest.raises(ScoringError) as raised:
        combine(method="average", tables=[FIVE, {"Anna": Played(0, 1)}])
    assert {p.field for p in raised.value.problems} == {"method", "tables"}
