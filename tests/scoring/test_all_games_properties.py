"""Properties every game keeps, checked through the registry so that a new game gets them
for free (calculate-api.md: "Malformed JSON, a wrong type, a missing field ... always a 400
..., never a 500"; every error names its hand)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import ScoringError
from scoring.registry import all_games, example_request
from scoring.sitting import calculate
from tests.scoring.strategies import json_values

GAMES = [(spec.key, variant) for spec in all_games() for variant in spec.presets]
FIELDS = {spec.key: sorted(spec.hand_fields | {"not_a_field"}) for spec in all_games()}


@pytest.mark.parametrize(("game", "variant"), GAMES)
@settings(max_examples=40)
@given(seed=st.integers(0, 10**9), hands=st.integers(1, 12), data=st.data())
def test_any_json_in_any_hand_field_gives_a_result_or_errors_naming_that_hand(game, variant, seed, hands, data):
    request = example_request(game, random.Random(seed), hands, variant=variant)
    index = data.draw(st.integers(0, len(request["hands"]) - 1))
    hand = dict(request["hands"][index])
    for name in data.draw(st.lists(st.sampled_from(FIELDS[game]), min_size=1, max_size=3)):
        hand[name] = data.draw(json_values)
    request["hands"][index] = hand
    try:
        calculate(request)
    except ScoringError as error:
        # The hands before it are untouched and valid; later hands may suffer from it (a hand
        # that changed kind can move a special round), but nothing is blamed on the sitting.
        assert all(p.hand is not None and p.hand >= index + 1 for p in error.problems)


@pytest.mark.parametrize(("game", "variant"), GAMES)
@settings(max_examples=15)
@given(seed=st.integers(0, 10**9), hands=st.integers(0, 30))
def test_replaying_twice_gives_the_same_result_and_totals_add_up(game, variant, seed, hands):
    request = example_request(game, random.Random(seed), hands, variant=variant)
    first, second = calculate(request), calculate(request)
    assert first == second
    assert len(first["hands"]) == hands
    for hand in first["hands"]:
        assert set(hand["deltas"]) == set(hand["totals"]) == set(first["parties"])
    if first["hands"]:
        assert first["totals"] == first["hands"][-1]["totals"]
