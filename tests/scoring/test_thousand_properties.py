"""1000: property tests over random valid sittings from ``scoring.thousand.example_request``."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.errors import ScoringError
from scoring.sitting import calculate
from scoring.thousand import example_request, round_half_up

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# The Polish house rules, none, some or all: barrel_turns only where there is a
# barrel (pagat); start totals near the barrel and the target so that they come into play.
polish = st.fixed_dictionaries(
    {},
    optional={
        "barrel_fall": st.sampled_from([0, 50, 120]),
        "zero_rounds_penalty": st.sampled_from([0, 60, 120]),
        "target_inclusive": st.booleans(),
    },
)


def _sitting(seed, hands, players, variant, rules, turns, start):
    if variant == "pagat" and turns:
        rules = {**rules, "barrel_turns": turns}
    count = players
    names = ["Anna", "Ben", "Carl", "Dora"][:count]
    return example_request(
        random.Random(seed),
        hands,
        players=names,
        variant=variant,
        rules=rules or None,
        start_totals=dict(zip(names, start, strict=False)) if start else None,
    )


sittings = st.builds(
    _sitting,
    st.integers(0, 10**9),
    st.integers(0, 40),
    st.sampled_from([3, 4]),
    st.sampled_from(["koenigsberg", "pagat"]),
    st.one_of(st.just({}), polish),
    st.sampled_from([None, 1, 3]),
    st.sampled_from([None, (880, 900), (850, 0, 880)]),
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
    rules = result["rules"]
    target = rules["target"]
    barrel = rules["barrel"]
    inclusive = rules["target_inclusive"]
    previous = {p: (request.get("start_totals") or {}).get(p, 0) for p in result["parties"]}
    new_game = False
    for entered, hand in zip(request["hands"], result["hands"], strict=True):
        penalty = {p: 0 for p in result["parties"]}
        for item in hand["penalties"]:
            penalty[item["player"]] += item["points"]
            # only an active player, only while the game goes on, by the option's amount
            assert item["player"] in hand["active"] and hand["game_winner"] is None
            if item["reason"] == "barrel":
                assert item["points"] == -rules["barrel_fall"]
                assert rules["barrel_turns"] is not None
                assert (0 if new_game else previous[item["player"]]) >= barrel  # he was on the barrel
            else:
                assert item["reason"] == "zero_rounds" and item["points"] == -rules["zero_rounds_penalty"]
                assert item["player"] != hand["declarer"] and not entered.get("forgot_to_pass")
                if barrel is not None:  # hands played on the barrel are no zero hands
                    assert (0 if new_game else previous[item["player"]]) < barrel
                marriages = sum(
                    rules["marriage_values"][s] for s in (entered.get("marriages") or {}).get(item["player"], ())
                )
                assert round_half_up(entered["points"][item["player"]] + marriages, rules["round_to"]) == 0
        assert set(hand["deltas"]) == set(hand["totals"]) == set(result["parties"])
        # three always play: with four the dealer sits out, with three he plays
        assert len(hand["active"]) == 3
        assert (hand["dealer"] in hand["active"]) == (len(result["parties"]) == 3)
        for party in result["parties"]:
            assert previous[party] + hand["deltas"][party] == hand["totals"][party]
            if party not in hand["active"]:
                assert hand["scored"][party] == 0
            elif party != hand["declarer"]:
                assert (hand["scored"][party] - penalty[party]) % rules["round_to"] == 0
                if barrel is not None:  # a defender never rises above the barrel
                    base = 0 if new_game else previous[party]
                    assert hand["totals"][party] <= max(barrel, base)
        if new_game:  # the hand after a finished game starts from 0
            assert hand["totals"] == hand["scored"]
        new_game = hand["game_winner"] is not None
        if new_game:
            assert hand["totals"][hand["game_winner"]] >= target + (0 if inclusive else 1)
        else:
            assert all(t < target + (0 if inclusive else 1) for t in hand["totals"].values())
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
        "barrel_turns": st.none() | st.integers(-1, 5),
        "barrel_fall": st.integers(-5, 500),
        "zero_rounds_penalty": st.none() | st.integers(-5, 500),
        "target_inclusive": st.booleans() | st.integers(0, 1),
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
