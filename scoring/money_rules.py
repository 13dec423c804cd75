"""A league's money rules as data: what the table plays for, checked, and amounts read from text.

The rules are a flat dict like a game's rules (``scoring/options.py``): every option has a
default, so a league stores only what it changed, and ``resolve_money_rules`` checks the
overrides strictly, raising ``ScoringError`` with every problem (``field`` "rules", the message
naming the option, as a game's rules report them).

Money is exact: stakes and fees are whole cents (ints); the rate per point is cents with at
most two decimals (a ``Decimal``, kept in the rules as text such as "2.5", which JSON stores
exactly). Nothing here is a float.

- ``per_point``: "off", "between_players" (each point above or below the evening's mean is
  worth ``rate`` between the players), "cashbox_difference" (each pays the difference to the
  evening's best total times ``rate`` into the cashbox) or "cashbox_minus" (each pays his
  negative total times ``rate`` into the cashbox).
- ``per_game`` / ``per_match``: the stake each loser of a game / a match (robber) pays, to the
  winners or into the cashbox (``per_game_to`` / ``per_match_to``); 0 is none.
- ``per_evening``, ``per_lost_solo``, ``per_missed_pennant``: fees into the cashbox; 0 is none.

``parse_cents`` and ``parse_rate`` read what a person types ("0,05", "2,–", "2,00 €", "0.05",
"5 ct") in the page's language through ``scoring/numbers.py``, the reader of the bill's amounts.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any, NoReturn

from .errors import Problems, ScoringError, _
from .numbers import AmbiguousNumber, decimal_number, local_decimal
from .options import CHOICE, INT, Option, resolve_rules

__all__ = ["DEFAULTS", "OPTIONS", "parse_cents", "parse_rate", "resolve_money_rules"]

OFF = "off"
BETWEEN_PLAYERS = "between_players"
CASHBOX_DIFFERENCE = "cashbox_difference"
CASHBOX_MINUS = "cashbox_minus"
POINT_MODES = (OFF, BETWEEN_PLAYERS, CASHBOX_DIFFERENCE, CASHBOX_MINUS)
TO_WINNERS = "winners"
TO_CASHBOX = "cashbox"

# 5 euros a point is more than any club plays for; a stake or fee of 100 euros likewise.
MAX_RATE_CENTS = 500
MAX_STAKE_CENTS = 10_000
RATE_PLACES = 2  # decimals of a cent

GROUP = _("Money")
OPTIONS = (
    Option(
        "per_point",
        CHOICE,
        _("Money per point"),
        _("Where the evening's points go as money: between the players, or into the cashbox."),
        choices=POINT_MODES,
        choice_labels={
            OFF: _("off"),
            BETWEEN_PLAYERS: _("between the players"),
            CASHBOX_DIFFERENCE: _("into the cashbox: difference to the best"),
            CASHBOX_MINUS: _("into the cashbox: own minus points"),
        },
        group=GROUP,
    ),
    Option(
        "per_game",
        INT,
        _("Stake per game (cents)"),
        _("What each loser of a game pays."),
        minimum=0,
        maximum=MAX_STAKE_CENTS,
        group=GROUP,
    ),
    Option(
        "per_game_to",
        CHOICE,
        _("Game stakes go to"),
        choices=(TO_WINNERS, TO_CASHBOX),
        choice_labels={TO_WINNERS: _("the winners"), TO_CASHBOX: _("the cashbox")},
        group=GROUP,
    ),
    Option(
        "per_match",
        INT,
        _("Stake per match (cents)"),
        _("What each loser of a match (robber) pays."),
        minimum=0,
        maximum=MAX_STAKE_CENTS,
        group=GROUP,
    ),
    Option(
        "per_match_to",
        CHOICE,
        _("Match stakes go to"),
        choices=(TO_WINNERS, TO_CASHBOX),
        choice_labels={TO_WINNERS: _("the winners"), TO_CASHBOX: _("the cashbox")},
        group=GROUP,
    ),
    Option(
        "per_evening",
        INT,
        _("Fee per evening (cents)"),
        _("What each player present pays into the cashbox."),
        minimum=0,
        maximum=MAX_STAKE_CENTS,
        group=GROUP,
    ),
    Option(
        "per_lost_solo",
        INT,
        _("Fee per lost solo (cents)"),
        _("Paid into the cashbox for each solo lost."),
        minimum=0,
        maximum=MAX_STAKE_CENTS,
        group=GROUP,
    ),
    Option(
        "per_missed_pennant",
        INT,
        _("Fee for a forgotten pennant (cents)"),
        _("Paid into the cashbox by the holder who forgot to bring the pennant."),
        minimum=0,
        maximum=MAX_STAKE_CENTS,
        group=GROUP,
    ),
)
RATE_PROBLEM = _("must be cents per point, more than 0 and at most %(max)s, with at most two decimals")

DEFAULTS: dict[str, Any] = {
    "per_point": OFF,
    "rate": "10",
    "per_game": 0,
    "per_game_to": TO_WINNERS,
    "per_match": 0,
    "per_match_to": TO_WINNERS,
    "per_evening": 0,
    "per_lost_solo": 0,
    "per_missed_pennant": 0,
}


def resolve_money_rules(overrides: Any) -> dict[str, Any]:
    """The defaults with ``overrides`` applied, checked; the rate as canonical text ("2.5").

    Raises ScoringError with every problem, each on field "rules" naming the option.
    """
    problems = Problems()
    rest = dict(overrides) if isinstance(overrides, dict) else overrides
    rate = rest.pop("rate", None) if isinstance(rest, dict) else None
    rules = resolve_rules(options=OPTIONS, preset=DEFAULTS, overrides=rest, problems=problems)
    if rate is not None:
        checked = rate_value(rate)
        if checked is None:
            problems.add(
                None,
                "rules",
                _("Rule option “%(name)s” %(problem)s."),
                name="rate",
                problem=RATE_PROBLEM,
                max=MAX_RATE_CENTS,
            )
        else:
            rules["rate"] = rate_text(checked)
    problems.raise_if_any()
    return rules


def rate_value(value: Any) -> Decimal | None:
    """A rate as an exact Decimal of cents: an int, a Decimal or text with a decimal point, more
    than 0 and at most MAX_RATE_CENTS with at most two decimals; None for anything else (a
    float too: 0.1 is no exact number of cents)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number: Fraction | None = Fraction(value)
    elif isinstance(value, Decimal):
        number = Fraction(value) if value.is_finite() else None
    elif isinstance(value, str):
        number = decimal_number(value, places=RATE_PLACES)
    else:
        return None
    if number is None or (number * 10**RATE_PLACES).denominator != 1 or not 0 < number <= MAX_RATE_CENTS:
        return None
    return Decimal(number.numerator) / Decimal(number.denominator)


def rate_text(rate: Decimal) -> str:
    """The rate as the rules keep it: "5", "2.5", "0.05" (no exponent, no trailing zeros)."""
    text = format(rate, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


# A typed euro sign or "EUR" around the number, and the German whole-euro dash ("2,–", "2.-").
_CURRENCY = re.compile(r"^\s*(?:€|EUR)?\s*(.*?)\s*(?:€|EUR)?\s*$", re.IGNORECASE)
_WHOLE_DASH = re.compile(r"^(.*[0-9])[.,](?:-{1,2}|–|—)$")
_CENTS_UNIT = re.compile(r"^(.*?)\s*(?:ct|cent|cents)\.?$", re.IGNORECASE)


def parse_cents(text: Any, *, field: str, decimal_sep: str = ",") -> int:
    """An amount in euros typed by a person ("2,–", "2,00 €", "0,20", "0.20" on an English page)
    as whole cents, at least 0; raises ScoringError naming ``field``."""
    number = _euros(text, field=field, decimal_sep=decimal_sep, places=2)
    if number < 0:
        _fail(field, _("The amount may not be negative."))
    return int(number * 100)


def parse_rate(text: Any, *, field: str = "rate", decimal_sep: str = ",") -> Decimal:
    """A rate per point typed by a person, as cents: in euros ("0,05", "0,025 €") or in cents
    with a unit ("5 ct", "2,5 Cent"); raises ScoringError naming ``field``."""
    cents = _CENTS_UNIT.match(text.strip()) if isinstance(text, str) else None
    if cents:
        number = _number(cents.group(1), field=field, decimal_sep=decimal_sep, places=RATE_PLACES)
    else:
        number = _euros(text, field=field, decimal_sep=decimal_sep, places=RATE_PLACES + 2) * 100
    rate = rate_value(Decimal(number.numerator) / Decimal(number.denominator))
    if rate is None:
        _fail(
            field,
            _(
                "A point may be worth more than 0 and at most %(max)s cents, with at most two decimals of a "
                "cent: type 0,05 for 5 cents, or 5 ct."
            ),
            max=MAX_RATE_CENTS,
        )
    return rate


def _euros(text: Any, *, field: str, decimal_sep: str, places: int) -> Fraction:
    if not isinstance(text, str):
        _fail(field, _("Type an amount in euros, like 2,50."))
    body = _CURRENCY.match(text).group(1)
    dash = _WHOLE_DASH.match(body)
    if dash:
        body = dash.group(1)
    return _number(body, field=field, decimal_sep=decimal_sep, places=places)


def _number(body: str, *, field: str, decimal_sep: str, places: int) -> Fraction:
    try:
        number = local_decimal(body, decimal_sep=decimal_sep, places=places)
    except AmbiguousNumber as both:
        _fail(
            field,
            _(
                "“%(text)s” could be %(grouped)s or %(decimal)s: type it without the dot or comma, "
                "or with two decimals."
            ),
            text=body,
            grouped=str(both.grouped),
            decimal=_decimal_text(both.decimal),
        )
    if number is None:
        _fail(
            field,
            _("“%(text)s” is no amount: type it like 2,50 (at most %(places)s decimals)."),
            text=body,
            places=places,
        )
    return number


def _decimal_text(number: Fraction) -> str:
    """A number with a few decimals written out exactly ("1.234")."""
    return format(Decimal(number.numerator) / Decimal(number.denominator), "f")


def _fail(field: str, message: str, **params: Any) -> NoReturn:
    problems = Problems()
    problems.add(None, field, message, **params)
    raise ScoringError(problems.items)
