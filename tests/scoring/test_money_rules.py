"""A league's money rules (scoring/money_rules.py): defaults, checks, and amounts typed by people."""

from decimal import Decimal

import pytest

from scoring.errors import ScoringError
from scoring.money_rules import DEFAULTS, OPTIONS, parse_cents, parse_rate, resolve_money_rules


def rule_problems(overrides):
    with pytest.raises(ScoringError) as info:
        resolve_money_rules(overrides)
    return [(p.field, p.render()) for p in info.value.problems]


def test_defaults_are_off():
    assert resolve_money_rules({}) == DEFAULTS
    assert resolve_money_rules(None) == DEFAULTS
    assert DEFAULTS["per_point"] == "off" and DEFAULTS["per_game"] == 0
    assert {o.name for o in OPTIONS} | {"rate"} == set(DEFAULTS)


@pytest.mark.parametrize(
    "rate, text",
    [("5", "5"), (5, "5"), ("2.50", "2.5"), (Decimal("10.00"), "10"), ("0.05", "0.05"), ("500", "500")],
)
def test_rate_is_kept_as_exact_text(rate, text):
    # The league stores the rules as JSON: text keeps a rate like 2.5 exact.
    assert resolve_money_rules({"per_point": "cashbox_minus", "rate": rate})["rate"] == text


@pytest.mark.parametrize("rate", [0, "0", "-1", "500.01", "0.001", 2.5, True, "2,5x", [], Decimal("NaN")])
def test_bad_rates(rate):
    # A float is refused even when it looks harmless: 0.1 is no exact number of cents.
    assert rule_problems({"rate": rate}) == [
        ("rules", "Rule option “rate” must be cents per point, more than 0 and at most 500, with at most two decimals.")
    ]


def test_every_problem_of_the_rules_at_once():
    found = rule_problems(
        {"per_point": "sometimes", "per_game": -1, "per_match": 10_001, "per_game_to": "pub", "fees": 1, "rate": "x"}
    )
    assert found == [
        ("rules", "Rule option “per_point” is not one of the allowed values."),
        ("rules", "Rule option “per_game” must be a whole number from 0 to 10000."),
        ("rules", "Rule option “per_match” must be a whole number from 0 to 10000."),
        ("rules", "Rule option “per_game_to” is not one of the allowed values."),
        ("rules", "Unknown rule option “fees”."),
        (
            "rules",
            "Rule option “rate” must be cents per point, more than 0 and at most 500, with at most two decimals.",
        ),
    ]


def test_rules_that_are_not_a_dict():
    assert rule_problems(["per_game"]) == [("rules", "Rules must be an object of option names and values.")]


@pytest.mark.parametrize(
    "text, cents",
    [
        ("0,05", 5),
        ("0,20", 20),
        ("2,–", 200),  # the German whole-euro dash
        ("2,-", 200),
        ("2.--", 200),
        ("2,00 €", 200),
        ("€ 2,50", 250),
        ("2 EUR", 200),
        ("2", 200),
        ("1.234,50", 123_450),
        (" 7,5 ", 750),
    ],
)
def test_german_amounts(text, cents):
    assert parse_cents(text, field="per_game") == cents


@pytest.mark.parametrize("text, cents", [("0.05", 5), ("2.00 €", 200), ("1,234.50", 123_450), ("0,20", 20)])
def test_english_amounts(text, cents):
    # "0,20" has one mark followed by two digits: only a decimal comma can be meant.
    assert parse_cents(text, field="per_game", decimal_sep=".") == cents


def amount_problem(text, **kwargs):
    with pytest.raises(ScoringError) as info:
        parse_cents(text, field="per_evening", **kwargs)
    [problem] = info.value.problems
    return problem.field, problem.render()


@pytest.mark.parametrize(
    "text, message",
    [
        ("zwei", "“zwei” is no amount: type it like 2,50 (at most 2 decimals)."),
        ("2,345", "“2,345” is no amount: type it like 2,50 (at most 2 decimals)."),
        ("", "“” is no amount: type it like 2,50 (at most 2 decimals)."),
        ("٢", "“٢” is no amount: type it like 2,50 (at most 2 decimals)."),  # Arabic-Indic two
        ("-2,00", "The amount may not be negative."),
        ("1.234", "“1.234” could be 1234 or 1.234: type it without the dot or comma, or with two decimals."),
        (None, "Type an amount in euros, like 2,50."),
    ],
)
def test_bad_amounts_name_the_field(text, message):
    assert amount_problem(text) == ("per_evening", message)


@pytest.mark.parametrize(
    "text, cents",
    [
        ("0,05", Decimal(5)),  # euros per point
        ("0,05 €", Decimal(5)),
        ("0,025", Decimal("2.5")),
        ("5 ct", Decimal(5)),  # cents with a unit
        ("2,5 Cent", Decimal("2.5")),
        ("0,10", Decimal(10)),
        ("5,00", Decimal(500)),
    ],
)
def test_rates(text, cents):
    assert parse_rate(text) == cents


def test_english_rate():
    assert parse_rate("0.025", decimal_sep=".") == Decimal("2.5")


@pytest.mark.parametrize("text", ["0", "6", "0,00001", "0,001 ct"])
def test_bad_rates_typed(text):
    with pytest.raises(ScoringError) as info:
        parse_rate(text)
    assert info.value.problems[0].field == "rate"
