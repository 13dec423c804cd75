"""1000: property tests over random valid sittings from ``scoring.thousand.example_request``."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.errors import ScoringError
from scoring.sitting import calculate
from scoring.thousand import example_request

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

sittings = st.builds(
    lambda seed, hands, players, variant: example_request(random.Random(seed), hands, players=players, variant=variant),
    st.integers(0, 10**9),
    st.integers(0, 40),
    st.sampled_from([3, 4]),
    st.sampled_from(["koenigsberg", "pagat"]),
)


@FAST
@given(sittings)
def test_random_valid_sittings_replay_twice_the_same(request):
    first = calculate(request)
    assert calculate(request) == first
    assert len(first["hands"]) == len(request["hands"])


@FAST
@given(sittings)
def test_totals_are_the_previous_totals_plus_the_deltas_and_winners_pass_the_target(request):
    result = calculate(request)
    target = result["rules"]["target"]
    barrel = result["rules"]["barrel"]
    previous = dict.fromkeys(result["parties"], 0)
    new_game = False
    for hand in result["hands"]:
        assert set(hand["deltas"]) == set(hand["totals"]) == set(result["parties"])
        # three always play: with four the dealer sits out, with three he plays
        assert len(hand["active"]) == 3
        assert (hand["dealer"] in hand["active"]) == (len(result["parties"]) == 3)
        for party in result["parties"]:
            assert previous[party] + hand["deltas"][party] == hand["totals"][party]
            if party not in hand["active"]:
                assert hand["scored"][party] == 0
            elif party != hand["declarer"]:
                assert hand["scored"][party] % result["rules"]["round_to"] == 0
                if barrel is not None:  # a defender never rises above the barrel
                    base = 0 if new_game else previous[party]
                    assert hand["totals"][party] <= max(barrel, base)
        if new_game:  # the hand after a finished game starts from 0
            assert hand["totals"] == hand["scored"]
        new_game = hand["game_winner"] is not None
        if new_game:
            assert hand["totals"][hand["game_winner"]] > target
        else:
            assert all(t <= target for t in hand["totals"].values())
        previous = hand["totals"]
    assert result["totals"] == previous


MUTATIONS = ["bid_step", "declarer", "unknown", "bid_bool", "points_sum", "marriage_twice", "no_points", "both"]


def mutate(hand, kind, active):
    hand = dict(hand)
    if kind == "bid_step":
        hand["bid"] += 1
    elif kind == "declarer":
        hand["declarer"] = "Nobody"
    elif kind == "unknown":
        hand["extra"] = 1
    elif kind == "bid_bool":
        hand["bid"] = True
    elif kind == "points_sum" and "points" in hand:
        points = dict(hand["points"])
        name = next(iter(points))
        points[name] += 1 if points[name] < 120 else -1
        hand["points"] = points
    elif kind == "marriage_twice":
        hand["marriages"] = {active[0]: ["clubs"], active[1]: ["clubs"]}
    elif kind == "no_points" and not hand.get("forgot_to_pass"):
        del hand["points"]
    else:
        hand["forgot_to_pass"] = True
        hand["all_tricks"] = True
    return hand


@FAST
@given(sittings, st.data())
def test_a_mutated_hand_is_reported_with_its_number(request, data):
    if not request["hands"]:
        return
    index = data.draw(st.integers(0, len(request["hands"]) - 1))
    kind = data.draw(st.sampled_from(MUTATIONS))
    players = request["players"]
    dealer = players[index % len(players)]
    active = [p for p in players if p != dealer] if len(players) == 4 else players
    request["hands"][index] = mutate(request["hands"][index], kind, active)
    with pytest.raises(ScoringError) as info:
        calculate(request)
    assert info.value.problems
    assert {p.hand for p in info.value.problems} == {index + 1}


SUITS = ("clubs", "spades", "hearts", "diamonds")
rule_overrides = st.fixed_dictionaries(
    {},
    optional={
        "bid_offset": st.integers(-10, 2000),
        "bid_step": st.integers(-5, 300),
        "round_to": st.integers(-5, 60),
        "target": st.integers(-5, 3000),
        "barrel": st.none() | st.integers(-5, 3000),
        "forgot_to_pass_penalty": st.integers(-5, 500),
        "marriage_values": st.fixed_dictionaries({s: st.integers(-200, 300) for s in SUITS}),
    },
)


@FAST
@given(sittings, rule_overrides)
def test_any_rule_values_give_a_result_or_a_scoring_error(request, rules):
    request["rules"] = rules
    try:
        calculate(request)
    except ScoringError:
        pass
