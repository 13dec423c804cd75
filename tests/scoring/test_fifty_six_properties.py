"""56: property tests over random valid sittings from ``scoring.fifty_six.example_request``."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import ScoringError
from scoring.fifty_six import example_request
from scoring.sitting import calculate
from tests.scoring.strategies import json_values

FAST = settings(max_examples=60, deadline=None)

# Stake tables: the seed's (None: the preset), the peers' three tiers, one tier, and random
# valid tables (a first tier at 28, rising starts, stakes 0..100).
stake_tables = st.one_of(
    st.sampled_from([None, [[28, 1, 2], [40, 2, 3], [56, 3, 4]], [[28, 2, 2]]]),
    st.builds(
        lambda starts, stakes: [[start, *stakes[i]] for i, start in enumerate([28, *sorted(starts)])],
        st.sets(st.integers(29, 56), max_size=7),
        st.lists(st.tuples(st.integers(0, 100), st.integers(0, 100)), min_size=8, max_size=8),
    ),
)


def _rules(tables, stake_table):
    rules = {}
    if tables:
        rules["tables"] = tables
    if stake_table is not None:
        rules["stake_table"] = stake_table
    return rules or None


sittings = st.builds(
    lambda seed, hands, variant, tables, stake_table: example_request(
        random.Random(seed), hands, variant=variant, rules=_rules(tables, stake_table)
    ),
    st.integers(0, 10**9),
    st.integers(0, 40),
    st.sampled_from(["seed", "tournament"]),
    st.sampled_from([None, None, 3, 12]),
    stake_tables,
)


def _stake(table, bid, made):
    """By hand from the table: the last tier starting at or below the bid."""
    tier = [t for t in table if t[0] <= bid][-1]
    return tier[1] if made else tier[2]


@FAST
@given(sittings)
def test_random_valid_sittings_replay_twice_the_same(request):
    first = calculate(request)
    assert calculate(request) == first
    assert len(first["hands"]) == len(request["hands"])


@FAST
@given(sittings)
def test_only_the_winning_team_gains_and_tokens_are_kept(request):
    result = calculate(request)
    tables = result["rules"]["tables"]
    previous = dict.fromkeys(result["parties"], tables or 0)
    new_match = False
    for hand in result["hands"]:
        start = dict.fromkeys(result["parties"], tables) if new_match else previous
        winner = hand["winner_team"]
        loser = next(t for t in result["parties"] if t != winner)
        if tables is None:
            assert hand["totals"] == {winner: start[winner] + hand["stake"], loser: start[loser]}
        else:
            assert sum(hand["totals"].values()) == 2 * tables  # tokens only change hands
            assert hand["totals"][loser] >= 0
            assert hand["paid"] == min(hand["stake"], start[loser])
            # a team that could not pay in full, or is left with 0, has lost the match
            assert (hand["match_winner"] == winner) == (hand["totals"][loser] == 0)
        for party in result["parties"]:
            assert previous[party] + hand["deltas"][party] == hand["totals"][party]
        new_match = hand["match_winner"] is not None
        previous = hand["totals"]
    assert result["totals"] == previous


@FAST
@given(sittings)
def test_the_stake_comes_from_the_stake_table_by_bid(request):
    result = calculate(request)
    table = result["rules"]["stake_table"]
    factors = {0: None, 1: result["rules"]["double"], 2: result["rules"]["redouble"]}
    for entered, hand in zip(request["hands"], result["hands"], strict=True):
        stake = _stake(table, entered["bid"], hand["made"])
        factor = factors[entered["double"]]
        if factor:
            stake = stake * int(factor[1:]) if factor[0] == "x" else stake + int(factor[1:])
        assert hand["stake"] == stake


MUTATIONS = {
    "low_bid": ("bid", 27),
    "high_bid": ("bid", 57),
    "points": ("bidder_team_points", 57),
    "negative": ("bidder_team_points", -1),
    "bidder": ("bidder", "Nobody"),
    "trump": ("trump", "stars"),
    "double": ("double", 3),
    "double_bool": ("double", True),
    "unknown": ("extra", 1),
    "missing": ("bid", None),
}


@FAST
@given(sittings, st.data())
def test_a_mutated_hand_is_reported_with_its_number(request, data):
    if not request["hands"]:
        return
    index = data.draw(st.integers(0, len(request["hands"]) - 1))
    field, value = MUTATIONS[data.draw(st.sampled_from(sorted(MUTATIONS)))]
    hand = dict(request["hands"][index])
    if value is None:
        del hand[field]
    else:
        hand[field] = value
    request["hands"][index] = hand
    with pytest.raises(ScoringError) as info:
        calculate(request)
    assert [(p.hand, p.field) for p in info.value.problems] == [(index + 1, field)]


@FAST
@given(sittings, st.dictionaries(st.sampled_from(["double", "redouble", "tables", "stake_table"]), json_values))
def test_any_rule_values_give_a_result_or_a_scoring_error(request, rules):
    request["rules"] = rules
    try:
        calculate(request)
    except ScoringError as error:
        assert {p.hand for p in error.problems} == {None}
