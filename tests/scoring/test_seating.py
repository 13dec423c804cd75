"""Tables for several tables in one evening or a tournament round: splits and the seat draw."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import ScoringError
from scoring.seating import draw_seats, propose_tables, split_players, table_mates, table_sizes

FAST = settings(max_examples=25, deadline=None)

# Worked by hand: fewest tables first, then the most even sizes, largest tables first.
DOPPELKOPF = {
    4: [4], 5: [5], 6: [6], 8: [4, 4], 9: [5, 4], 10: [5, 5], 11: [6, 5], 12: [4, 4, 4],
    13: [5, 4, 4], 14: [5, 5, 4], 15: [5, 5, 5], 16: [4, 4, 4, 4], 17: [5, 4, 4, 4],
    18: [5, 5, 4, 4], 19: [5, 5, 5, 4], 20: [5, 5, 5, 5],
}  # fmt: skip
THOUSAND = {
    4: [4], 5: None, 6: [3, 3], 7: [4, 3], 8: [4, 4], 9: [3, 3, 3], 10: [4, 3, 3], 11: [4, 4, 3],
    12: [4, 4, 4], 13: [4, 3, 3, 3], 14: [4, 4, 3, 3], 15: [4, 4, 4, 3], 16: [4, 4, 4, 4],
    17: [4, 4, 3, 3, 3], 18: [4, 4, 4, 3, 3], 19: [4, 4, 4, 4, 3], 20: [4, 4, 4, 4, 4],
}  # fmt: skip
MAW = {
    4: [4], 5: [5], 6: [6], 7: [7], 8: [8], 9: [9], 10: [5, 5], 11: [6, 5], 12: [6, 6], 13: [7, 6],
    14: [7, 7], 15: [8, 7], 16: [8, 8], 17: [9, 8], 18: [9, 9], 19: [7, 6, 6], 20: [7, 7, 6],
}  # fmt: skip
MAW_PAIRS = {
    4: [4], 5: None, 6: [6], 7: None, 8: [8], 9: None, 10: [6, 4], 11: None, 12: [6, 6], 13: None,
    14: [8, 6], 15: None, 16: [8, 8], 17: None, 18: [6, 6, 6], 19: None, 20: [8, 6, 6],
}  # fmt: skip
FIFTY_SIX = {n: ([6] * (n // 6) if n % 6 == 0 else None) for n in range(4, 21)}


@pytest.mark.parametrize(
    ("game", "pairs", "expected"),
    [
        ("doppelkopf", False, DOPPELKOPF),
        ("thousand", False, THOUSAND),
        ("forty_five", False, MAW),
        ("spoil_five", False, MAW),
        ("forty_five", True, MAW_PAIRS),
        ("fifty_six", False, FIFTY_SIX),
    ],
)
def test_splits_from_four_to_twenty_players(game, pairs, expected):
    for count, sizes in expected.items():
        if sizes is None:
            with pytest.raises(ScoringError, match=f"{count} players cannot be split"):
                propose_tables(game=game, count=count, pairs=pairs)
        else:
            assert propose_tables(game=game, count=count, pairs=pairs) == sizes, count


def test_doppelkopf_takes_a_table_of_six_only_when_fours_and_fives_cannot_seat_everyone():
    assert table_sizes("doppelkopf") == (4, 5)
    assert propose_tables(game="doppelkopf", count=12) == [4, 4, 4]  # not 6 + 6
    with pytest.raises(ScoringError, match="7 players cannot be split into tables of 4, 5, 6"):
        propose_tables(game="doppelkopf", count=7)


def test_unknown_games_and_pairs_where_there_are_none_are_refused():
    with pytest.raises(ScoringError, match="Unknown game skat"):
        table_sizes("skat")
    with pytest.raises(ScoringError, match="doppelkopf is not played in pairs"):
        table_sizes("doppelkopf", pairs=True)
    with pytest.raises(ScoringError, match="0 players cannot be split"):
        split_players(0, sizes=(4, 5))


def test_a_team_game_seats_teams_alternately_and_pairs_opposite():
    teams = [("A1", "A2", "A3"), ("B1", "B2", "B3"), ("C1", "C2", "C3"), ("D1", "D2", "D3")]
    players = [p for team in teams for p in team]
    for table in draw_seats(players=players, sizes=[6, 6], seed=7, together=teams):
        # 56: one team on seats 0, 2, 4, the other on 1, 3, 5 (fifty-six.md).
        assert {p[0] for p in table[0::2]} != {p[0] for p in table[1::2]}
        assert len({p[0] for p in table[0::2]}) == 1 and len({p[0] for p in table[1::2]}) == 1
    pairs = [(f"{c}1", f"{c}2") for c in "ABCDEF"]
    for table in draw_seats(players=[p for pair in pairs for p in pair], sizes=[6, 6], seed=3, together=pairs):
        # Three pairs at a table of six: partners sit opposite (seat i and i + 3).
        assert all(table[i][0] == table[i + 3][0] for i in range(3))


def test_the_draw_refuses_what_cannot_be_seated():
    with pytest.raises(ScoringError, match="named twice"):
        draw_seats(players=["A", "A", "B", "C"], sizes=[4], seed=1)
    with pytest.raises(ScoringError, match="do not seat exactly"):
        draw_seats(players=["A", "B", "C"], sizes=[4], seed=1)
    with pytest.raises(ScoringError, match="Each pair or team"):
        draw_seats(players=list("ABCD"), sizes=[4], seed=1, together=[("A", "Z")])
    with pytest.raises(ScoringError, match="do not fit at tables of 4, 4"):
        draw_seats(
            players=list("ABCDEFGH"), sizes=[4, 4], seed=1, together=[("A", "B", "C"), ("D", "E", "F"), ("G", "H")]
        )


def test_a_second_evening_of_eight_avoids_every_old_table_mate():
    first = [["A", "B", "C", "D"], ["E", "F", "G", "H"]]
    second = draw_seats(players=list("ABCDEFGH"), sizes=[4, 4], seed=1, met=table_mates(first))
    # Two from each old table at each new one: 2 repeats per table at the least.
    assert sum(table_mates(first)[pair] for pair in table_mates(second)) == 4


def cost(tables, met):
    return sum(met[pair] for pair in table_mates(tables))


def fewest_repeats(parties, sizes, met):
    """Brute force: every way to put the parties (tuples) at tables of ``sizes``, the fewest repeats."""
    best = None

    def place(index, tables):
        nonlocal best
        if index == len(parties):
            found = cost(tables, met)
            best = found if best is None else min(best, found)
            return
        for table, size in enumerate(sizes):
            if len(tables[table]) + len(parties[index]) <= size:
                tables[table].extend(parties[index])
                place(index + 1, tables)
                del tables[table][-len(parties[index]) :]

    place(0, [[] for _ in sizes])
    return best


@st.composite
def evenings(draw):
    """Players (8 to 12, alone or in pairs), table sizes and 2 or 3 rounds' seeds."""
    in_pairs = draw(st.booleans())
    if in_pairs:
        sizes = draw(st.sampled_from([[4, 4], [4, 4, 4], [6, 6], [6, 4]]))
        players = [f"P{i:02d}" for i in range(sum(sizes))]
        together = [tuple(players[i : i + 2]) for i in range(0, len(players), 2)]
    else:
        count = draw(st.integers(8, 12))
        sizes = propose_tables(game="doppelkopf", count=count)
        players = [f"P{i:02d}" for i in range(count)]
        together = []
    seeds = draw(st.lists(st.integers(0, 10**6), min_size=2, max_size=3))
    return players, sizes, together, seeds


@FAST
@given(evenings())
def test_the_draw_seats_everyone_once_keeps_pairs_and_repeats_no_more_than_it_must(evening):
    players, sizes, together, seeds = evening
    met = Counter()
    parties = list(together) or [(p,) for p in players]
    for seed in seeds:
        tables = draw_seats(players=players, sizes=sizes, seed=seed, met=met, together=together)
        assert tables == draw_seats(players=players, sizes=sizes, seed=seed, met=met, together=together)
        assert [len(t) for t in tables] == sizes
        assert sorted(p for t in tables for p in t) == sorted(players)
        for pair in together:
            assert any(set(pair) <= set(t) for t in tables)
        # No repeat when a draw without one exists, and never more than the fewest possible.
        assert cost(tables, met) == fewest_repeats(parties, sizes, met)
        met += table_mates(tables)


def test_the_same_seed_gives_the_same_draw_and_another_seed_may_differ():
    players = [f"P{i}" for i in range(12)]
    draws = {str(draw_seats(players=players, sizes=[4, 4, 4], seed=s)) for s in range(5)}
    assert draw_seats(players=players, sizes=[4, 4, 4], seed="abc") == draw_seats(
        players=players, sizes=[4, 4, 4], seed="abc"
    )
    assert len(draws) > 1
