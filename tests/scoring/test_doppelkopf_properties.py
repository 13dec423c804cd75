"""Doppelkopf property tests (hypothesis): random valid meetings, the DDV §7.3 checks, random
invalid mutations and arbitrary JSON in every field."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.doppelkopf import example_request
from scoring.doppelkopf_value import ALL_FIELDS
from scoring.errors import ScoringError
from scoring.sitting import calculate
from tests.scoring.strategies import doppelkopf_house_rules

meetings = st.builds(
    lambda seed, players, variant, hands, rules, points: example_request(
        random.Random(seed), hands, players=players, variant=variant, rules=rules, points=points
    ),
    st.integers(0, 2**32),
    st.sampled_from([4, 5, 6]),
    st.sampled_from(["club", "ddv"]),
    st.integers(0, 60),
    doppelkopf_house_rules,
    st.sampled_from([0, 0.2]),  # the share of hands written as their result only (kind points)
)


@settings(max_examples=80, deadline=None)
@given(meetings)
def test_random_valid_meetings_replay_the_same_twice(request):
    first = calculate(copy.deepcopy(request))
    assert calculate(request) == first
    assert len(first["hands"]) == len(request["hands"])


@settings(max_examples=80, deadline=None)
@given(meetings)
def test_ddv_7_3_checks_hold_for_every_game(request):
    result = calculate(request)
    running = dict.fromkeys(request["players"], 0)
    for hand in result["hands"]:
        deltas = hand["deltas"]
        # Every game sums to zero (the loser-gets-points rule swaps signs, it adds nothing).
        assert sum(deltas.values()) == 0, hand
        # The four active results are all even or all odd.
        assert len({deltas[p] % 2 for p in hand["active"]}) == 1, hand
        assert len(hand["active"]) == 4
        # Players who sit out get 0.
        assert all(deltas[p] == 0 for p in request["players"] if p not in hand["active"])
        # The breakdown explains the value.
        assert sum(i["points"] for i in hand["breakdown"]) == hand["value"]
        # Bock: 2 in a queued Bock game, 2 to the number of Bock rounds covering it when stacked.
        assert hand["multiplier"] in (1, 2, 4, 8, 16, 32, 64)
        for p, d in deltas.items():
            running[p] += d
        assert hand["totals"] == running
    assert result["totals"] == running


MUTATIONS = {
    "party": [
        lambda h: h.update(re_eyes=241),
        lambda h: h.update(re_eyes=True),
        lambda h: h.update(re=["Nobody"]),
        lambda h: h.update(re_tricks=13),
        lambda h: h.update(announcements=[{"party": "re", "call": "re"}] * 2),
        lambda h: h.update(specials=[{"kind": "fuchs", "party": "re"}] * 3),
        lambda h: h.update(kind="skat"),
        lambda h: h.update(eyes={}),
        lambda h: h.update(colour="red"),
        lambda h: h.pop("re"),
    ],
    "ramsch": [
        lambda h: h["eyes"].update({next(iter(h["eyes"])): h["eyes"][next(iter(h["eyes"]))] + 1}),
        lambda h: h["tricks"].pop(next(iter(h["tricks"]))),
        lambda h: h.update(re=["Anna"]),
        lambda h: h.pop("eyes"),
    ],
    "points": [
        lambda h: h.update(value=101),
        lambda h: h.update(value=-1),
        lambda h: h.update(winner="x"),
        lambda h: h.update(schwarz="yes"),
        lambda h: h.update(re_eyes=130),
        lambda h: h.pop("winner"),
        lambda h: h.pop("value"),
    ],
    "revoke": [
        lambda h: h.update(revoke_by="Nobody"),
        lambda h: h.update(re_eyes=100),
        lambda h: h.pop("revoke_by"),
    ],
}


@settings(max_examples=100, deadline=None)
@given(meetings.filter(lambda r: r["hands"]), st.data())
def test_a_mutation_into_an_invalid_hand_is_reported_on_that_hand(request, data):
    index = data.draw(st.integers(0, len(request["hands"]) - 1))
    hand = copy.deepcopy(request["hands"][index])
    family = hand["kind"] if hand["kind"] in ("ramsch", "revoke", "points") else "party"
    mutate = data.draw(st.sampled_from(MUTATIONS[family]))
    mutate(hand)
    request["hands"][index] = hand
    try:
        calculate(request)
    except ScoringError as error:
        numbers = [p.hand for p in error.problems]
        assert min(numbers) == index + 1, error.problems
    else:
        raise AssertionError(f"mutated hand {hand!r} was accepted")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-300, 300) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
field_names = st.sampled_from(sorted(ALL_FIELDS) + ["x"])
plausible = {
    "kind": st.sampled_from(["normal", "hochzeit", "trumpfabgabe", "solo", "ramsch", "revoke", "points"]),
    "winner": st.sampled_from(["re", "kontra", "x"]),
    "value": st.integers(-2, 102),
    "re": st.lists(st.sampled_from(["Anna", "Ben", "Carl", "Dora", "Emil", "x"]), max_size=3),
    "re_eyes": st.integers(-5, 245),
    "announcements": st.lists(
        st.fixed_dictionaries(
            {
                "party": st.sampled_from(["re", "kontra", "x"]),
                "call": st.sampled_from(["re", "kontra", "keine_90", "schwarz"]),
            }
        ),
        max_size=4,
    ),
    "specials": st.lists(
        st.fixed_dictionaries(
            {
                "kind": st.sampled_from(["doppelkopf", "fuchs", "karlchen", "karlchen_gefangen"]),
                "party": st.sampled_from(["re", "kontra"]),
            }
        ),
        max_size=4,
    ),
}


def _hand_strategy():
    def field_value(name):
        if name in plausible:
            return st.one_of(plausible[name], json_values)
        return json_values

    return st.lists(field_names, max_size=6, unique=True).flatmap(
        lambda names: st.fixed_dictionaries({n: field_value(n) for n in names})
    )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_hand_strategy(), max_size=6),
    st.sampled_from([4, 5, 6]),
    st.sampled_from(["club", "ddv"]),
    doppelkopf_house_rules,
)
def test_arbitrary_json_in_every_field_gives_a_result_or_a_scoring_error(hands, players, variant, rules):
    request = {
        "game": "doppelkopf",
        "variant": variant,
        "rules": rules,
        "players": ["Anna", "Ben", "Carl", "Dora", "Emil", "Fritz"][:players],
    }
    request["hands"] = hands
    try:
        calculate(request)
    except ScoringError as error:
        assert all(p.hand is not None and p.field is not None for p in error.problems)
        for p in error.problems:
            p.render()
