"""Limits on every number and list that enters scoring/ (scoring/limits.py): each is a problem
naming its field, and no accepted input produces a figure beyond a 32-bit integer."""

import random
import time

import pytest

from scoring import limits
from scoring.bill import _settle, split_bill
from scoring.errors import ScoringError
from scoring.numbers import decimal_number, whole_number
from scoring.options import INT, INT_PAIR, MAPPING, MAX_TIERS, NUMERIC, TIERS, Option
from scoring.registry import all_games, example_request
from scoring.sitting import calculate

TEN = [f"P{i}" for i in range(10)]
MAX_SPOIL = {"stake": 1000, "dealer_extra": 1000, "spoil_stake": 1000}


def problems(data, function=calculate):
    with pytest.raises(ScoringError) as info:
        function(data)
    return [p.as_dict() for p in info.value.problems]


# --- numbers typed by a person: ASCII digits only ------------------------------------------


@pytest.mark.parametrize(
    "text, number",
    [("123", 123), (" -7 ", -7), ("+5", 5), ("0", 0), ("9" * 18, 10**18 - 1)],
)
def test_whole_numbers_are_ascii_digits_with_an_optional_sign(text, number):
    assert whole_number(text) == number


@pytest.mark.parametrize(
    "text",
    ["١٢٣", "１２３", "१२३", "12³", "1_000", "1 000", "1.0", "", "-", "9" * 19, "9" * 4301, "0x10", "12\n3"],
)
def test_anything_else_is_not_a_whole_number(text):
    assert whole_number(text) is None


def test_money_takes_a_decimal_point_and_where_asked_a_decimal_comma():
    assert decimal_number("187.40") * 100 == 18740
    assert decimal_number("187,40") is None
    assert decimal_number("187,40", comma=True) * 100 == 18740
    assert decimal_number("187.4", comma=True) * 100 == 18740
    # No thousands separators: "1,000" has three decimals, which money does not take.
    assert decimal_number("1,000", comma=True) is None
    for text in ["١٨٧.٤٠", "１８７.４０", "187.", ".40", "1e3", "9" * 4301, "187.40.1"]:
        assert decimal_number(text, comma=True) is None, text


# --- rule options: every number has a range -------------------------------------------------


def numeric_options():
    return [(spec, o) for spec in all_games() for o in spec.options if o.kind in NUMERIC]


def test_every_numeric_option_of_every_game_declares_its_range():
    options = numeric_options()
    assert len(options) >= 30
    for spec, option in options:
        assert option.minimum is not None and option.maximum is not None, (spec.key, option.name)


def test_an_option_without_a_range_cannot_be_declared():
    with pytest.raises(ValueError, match="minimum and a maximum"):
        Option("stake", INT, "Stake", minimum=0)


def out_of_range(option):
    """Values just outside the option's range, in its shape."""
    for bad in (option.maximum + 1, option.minimum - 1, 2**31, 2**64, -(2**63) - 1):
        if option.kind == INT:
            yield bad
        elif option.kind == INT_PAIR:
            yield [option.minimum, bad]
        elif option.kind == MAPPING:
            yield {choice: bad for choice in option.choices}
        elif option.kind == TIERS:
            yield [[option.choices[0], option.minimum, bad]]


@pytest.mark.parametrize("spec, option", numeric_options(), ids=lambda x: getattr(x, "key", None) or x.name)
def test_a_value_outside_an_options_range_is_a_problem_naming_the_option(spec, option):
    request = example_request(spec.key, random.Random(1), 0)
    for value in out_of_range(option):
        request["rules"] = {option.name: value}
        found = problems(request)
        assert [(p["hand"], p["field"]) for p in found] == [(None, "rules")], value
        assert f"“{option.name}”" in found[0]["message"]
        assert f"from {option.minimum} to {option.maximum}" in found[0]["message"]


def test_a_spoil_five_stake_of_two_to_the_31_is_refused():
    found = problems({"game": "spoil_five", "rules": {"stake": 2**31}, "players": ["A", "B"], "hands": []})
    assert found == [
        {"hand": None, "field": "rules", "message": "Rule option “stake” must be a whole number from 0 to 1000."}
    ]


def test_the_largest_values_of_every_option_are_accepted():
    for spec, option in numeric_options():
        value = option.maximum
        if option.kind == INT_PAIR:
            value = [option.maximum, option.minimum]
        elif option.kind == MAPPING:
            value = dict.fromkeys(option.choices, option.maximum)
        elif option.kind == TIERS:
            value = [[start, option.maximum, option.maximum] for start in option.choices[:MAX_TIERS]]
        assert option.check(value) is None, (spec.key, option.name)


# --- the sitting: start totals and the number of hands --------------------------------------


@pytest.mark.parametrize("value", [1_000_001, -1_000_001, 2**63 - 1, -(2**64)])
def test_start_totals_beyond_a_million_are_a_problem_of_start_totals(value):
    found = problems({"game": "auction_45", "players": ["A", "B"], "start_totals": {"A": value}, "hands": []})
    assert found == [
        {"hand": None, "field": "start_totals", "message": "Starting totals must be from -1000000 to 1000000."}
    ]


def test_start_totals_of_a_million_below_zero_are_accepted():
    result = calculate({"game": "thousand", "players": ["A", "B", "C"], "start_totals": {"A": -1_000_000}, "hands": []})
    assert result["totals"] == {"A": -1_000_000, "B": 0, "C": 0}


def test_at_most_2000_hands_are_scored_at_once():
    request = example_request("spoil_five", random.Random(2), 2000)
    assert len(calculate(request)["hands"]) == 2000
    request["hands"].append(request["hands"][0])
    assert problems(request) == [
        {"hand": None, "field": "hands", "message": "At most 2000 hands can be scored at once, not 2001."}
    ]


def test_a_request_of_a_hundred_thousand_empty_hands_is_one_problem_quickly():
    started = time.perf_counter()
    found = problems({"game": "doppelkopf", "players": ["A", "B", "C", "D"], "hands": [{}] * 100_000})
    assert [(p["hand"], p["field"]) for p in found] == [(None, "hands")]
    assert time.perf_counter() - started < 1


def test_a_list_of_a_hundred_thousand_players_is_not_searched_for_each_team_member():
    players = [f"P{i}" for i in range(100_000)]
    started = time.perf_counter()
    found = problems({"game": "fifty_six", "players": players, "teams": {"A": players, "B": []}, "hands": []})
    assert (None, "players") in [(p["hand"], p["field"]) for p in found]
    assert time.perf_counter() - started < 2


# --- the worst evenings stay inside 32-bit figures -------------------------------------------


def assert_fits(result):
    for hand in result["hands"]:
        for key in ("deltas", "totals"):
            assert all(abs(v) <= limits.MAX_TOTAL * 2 for v in hand[key].values())
            assert all(abs(v) <= limits.INT32_MAX for v in hand[key].values())


def test_a_jink_in_each_of_2000_hands_at_the_largest_stakes():
    # Each hand: an empty pot fed 1000 by everyone and 1000 more by the dealer (11,000), and
    # P1 jinks it: the pot and 1000 from each of the nine others. P1 gains 11,000 - 1000 +
    # 9000 = 19,000 when another deals and 18,000 when he deals (200 of 2000 hands).
    hands = [{"tricks": ["P1"] * 5, "jink": True}] * 2000
    result = calculate({"game": "spoil_five", "rules": MAX_SPOIL, "players": TEN, "hands": hands})
    assert result["totals"]["P1"] == 1800 * 19_000 + 200 * 18_000 == 37_800_000
    # P0 pays 1000 into the pot and 1000 to the jink, as dealer (200 hands) 1000 more.
    assert result["totals"]["P0"] == -(1800 * 2000 + 200 * 3000)
    assert_fits(result)


def test_the_pot_of_1999_spoilt_hands_won_at_once():
    # Hand 1 feeds 11,000; every hand after a spoilt one 10 x 1000. P1 wins hand 2000: a pot
    # of 11,000 + 1999 x 10,000 = 20,001,000, of which he fed 1000 that hand.
    spoilt = {"tricks": TEN[:5]}
    hands = [spoilt] * 1999 + [{"tricks": ["P1"] * 3}]
    result = calculate({"game": "spoil_five", "rules": MAX_SPOIL, "players": TEN, "hands": hands})
    assert result["hands"][-2]["pot"] == 20_001_000 - 10_000
    assert result["hands"][-1]["deltas"]["P1"] == 20_000_000
    assert result["totals"]["P1"] == 20_000_000 - 1999 * 1000
    assert_fits(result)


def test_a_thousand_game_sinking_by_the_largest_penalty_from_a_million_below():
    rules = {"forgot_to_pass_penalty": 10_000}
    hands = [{"declarer": "A", "bid": 0, "forgot_to_pass": True}] * 2000
    result = calculate(
        {
            "game": "thousand",
            "rules": rules,
            "players": ["A", "B", "C"],
            "start_totals": {"A": -1_000_000},
            "hands": hands,
        }
    )
    assert result["totals"]["A"] == -1_000_000 - 2000 * 10_000
    assert_fits(result)


def test_the_bounds_leave_room_in_a_32_bit_integer():
    assert 2 * (limits.MAX_START_TOTAL + limits.MAX_HANDS * limits.MOST_PER_HAND) <= limits.INT32_MAX // 20


# --- the bill --------------------------------------------------------------------------------


def bill(**fields):
    return {"total": "100.00", "scores": {"A": 1, "B": 0}, **fields}


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"total": "9" * 4301}, "total"),
        ({"total": "1000000.01"}, "total"),
        ({"total": 10**7}, "total"),
        ({"total": 1e300}, "total"),
        ({"total": "١٠٠"}, "total"),
        ({"total": "１００.００"}, "total"),
        ({"cents_per_point": "10000.01"}, "cents_per_point"),
        ({"cents_per_point": "٥"}, "cents_per_point"),
        ({"tip_percent": "١٠"}, "tip_percent"),
        ({"tip_percent": "9" * 5000}, "tip_percent"),
        ({"paid": {"A": "9" * 4301}}, "paid"),
        ({"paid": {"A": "1000000.01"}}, "paid"),
        ({"paid": {"A": "５０", "B": "50"}}, "paid"),
        ({"scores": {"A": 10**12 + 1}}, "scores"),
        ({"scores": {f"P{i}": 0 for i in range(1001)}}, "scores"),
    ],
)
def test_the_bill_bounds_every_number_on_its_field(fields, field):
    assert [(p["hand"], p["field"]) for p in problems(bill(**fields), split_bill)] == [(None, field)]


def test_the_largest_bill_of_a_thousand_players_is_split():
    scores = {f"P{i}": i % 7 - 3 for i in range(1000)}
    paid = {"P0": "600000.00", "P1": "400000.00"}
    started = time.perf_counter()
    result = split_bill({"total": "1000000.00", "scores": scores, "method": "equal", "paid": paid})
    assert time.perf_counter() - started < 2
    # 1000.00 each: P0 is owed 599,000.00, P1 399,000.00; 998 debtors pay one transfer each.
    assert len(result["transfers"]) == 998
    assert sum(t["amount"] == "1000.00" for t in result["transfers"]) == 998


def reference_settle(balances, names):
    """The rule as league.md words it, searching every balance for each transfer."""
    balance = dict(zip(names, balances, strict=True))
    transfers = []
    while True:
        debtor = min(names, key=lambda p: balance[p])
        creditor = max(names, key=lambda p: balance[p])
        if balance[debtor] >= 0:
            return transfers
        amount = min(-balance[debtor], balance[creditor])
        balance[debtor] += amount
        balance[creditor] -= amount
        transfers.append((debtor, creditor, amount))


@pytest.mark.parametrize("seed", range(200))
def test_settling_makes_the_transfers_of_the_rule(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 12)
    balances = [rng.choice([0, rng.randint(-5, 5), rng.randint(-3000, 3000)]) for _ in range(n)]
    balances[-1] -= sum(balances)
    names = [f"P{i}" for i in range(n)]
    got = [(t["from"], t["to"], round(float(t["amount"]) * 100)) for t in _settle(balances, names)]
    assert got == reference_settle(balances, names)


def test_settling_a_hundred_thousand_balances_takes_n_log_n():
    # A search of every balance for each transfer took 15 s for 10,000 players (and a
    # hundred times that for 100,000); the heaps take well under a second here.
    n = 100_000
    balances = [(-1) ** i * (i % 997 + 1) for i in range(n)]
    balances[0] -= sum(balances)
    names = [f"P{i}" for i in range(n)]
    started = time.perf_counter()
    transfers = _settle(balances, names)
    assert time.perf_counter() - started < 5
    assert len(transfers) < n
