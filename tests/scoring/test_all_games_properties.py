"""Properties every game keeps, checked through the registry so that a new game gets them
for free (calculate-api.md: "Malformed JSON, a wrong type, a missing field ... always a 400
..., never a 500"; every error names its hand)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import ScoringError
from scoring.registry import all_games, example_request
from scoring.results import HandFigures, ReplayResult
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


OPTIONS = [(spec.key, option.name) for spec in all_games() for option in spec.options]


@pytest.mark.parametrize(("game", "option"), OPTIONS)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**9), hands=st.integers(0, 8), value=json_values)
def test_any_value_of_any_option_gives_a_result_or_problems_naming_the_rules_or_a_hand(
    game, option, seed, hands, value
):
    # Every option, the house rules included (1000's barrel_turns, 110's
    # bidder_out_first, Auction 45s' frozen_rule, 56's stake_table ...): a bad value is a problem
    # of "rules"; a good one may make a generated hand invalid under the new rules, which is
    # then that hand's problem. Never another exception.
    request = example_request(game, random.Random(seed), hands)
    request["rules"] = {**(request.get("rules") or {}), option: value}
    try:
        calculate(request)
    except ScoringError as error:
        assert error.problems
        assert all(p.hand is not None or p.field == "rules" for p in error.problems), error.problems


# --- One shape for a replay's result (scoring/results.py) -------------------------

HAND_KEYS = set(HandFigures.__annotations__)
RESULT_KEYS = set(ReplayResult.__annotations__) | {"game", "variant", "rules"}  # the API adds these


def _finished(result):
    """(hand, winner) of every game won in the sitting, from the top-level lists: race games'
    and 1000's ``games``, else 56's ``matches``."""
    finished = result.get("games", result.get("matches", ()))
    return {(g["hand"], g["winner"]) for g in finished if g["winner"] is not None}


@pytest.mark.parametrize(("game", "variant"), GAMES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9), hands=st.integers(0, 30))
def test_every_hand_of_every_game_says_who_won_it_and_who_won_a_game_in_one_shape(game, variant, seed, hands):
    result = calculate(example_request(game, random.Random(seed), hands, variant=variant))
    assert ReplayResult.__required_keys__ <= set(result) <= RESULT_KEYS
    parties = result["parties"]
    for hand in result["hands"]:
        # every key declared, the required ones (hand_winners, game_winner among them) present
        assert HandFigures.__required_keys__ <= set(hand) <= HAND_KEYS, set(hand) ^ HAND_KEYS
        winners = hand["hand_winners"]
        assert winners == [p for p in parties if p in winners]  # parties, each once, in their order
        assert winners != parties  # somebody lost
        # a game won at a hand is won by the hand's one winner
        if hand["game_winner"] is not None:
            assert winners == [hand["game_winner"]]
        if game == "doppelkopf":
            assert hand["game_winner"] is None
            assert set(winners) <= set(hand["active"])
    # the games won at a hand are the games the sitting lists as finished (1000, race games, 56)
    won_at = {(h["number"], h["game_winner"]) for h in result["hands"] if h["game_winner"] is not None}
    if game != "spoil_five":
        assert won_at == _finished(result)
