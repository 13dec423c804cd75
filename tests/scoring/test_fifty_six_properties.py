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

sittings = st.builds(
    lambda seed, hands, variant, tables: example_request(
        random.Random(seed), hands, variant=variant, rules={"tables": tables} if tables else None
    ),
    st.integers(0, 10**9),
    st.integers(0, 40),
    st.sampled_from(["seed", "tournament"]),
    st.sampled_from([None, None, 3, 12]),
)


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
        for party in result["parties"]:
            assert previous[party] + hand["deltas"][party] == hand["totals"][party]
        new_match = hand["match_winner"] is not None
        previous = hand["totals"]
    assert result["totals"] == previous


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
@given(sittings, st.dictionaries(st.sampled_from(["double", "redouble", "tables"]), json_values))
def test_any_rule_values_give_a_result_or_a_scoring_error(request, rules):
    request["rules"] = rules
    try:
        calculate(request)
    except ScoringError as error:
        assert {p.hand for p in error.problems} == {None}
