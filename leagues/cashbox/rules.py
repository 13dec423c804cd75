"""A league's money rules as the app keeps them: whether they play for anything at all, and
the rule book's short section on them (scoring/money_rules.py holds the rules as data)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from leagues.fields import scoring_text
from leagues.money import NBSP, money_text, number_text
from scoring import money_rules

# The options that cost something once above 0.
AMOUNTS = ("per_game", "per_match", "per_evening", "per_lost_solo", "per_missed_pennant")


def money_on(rules: dict[str, Any]) -> bool:
    """Whether resolved ``rules`` ask anyone for money: per point, a stake or a fee."""
    return rules["per_point"] != money_rules.OFF or any(rules[name] for name in AMOUNTS)


def rule_book_lines(overrides: Any) -> list[dict[str, str]]:
    """The money rules in force as (label, value) rows for the rule book; none when off."""
    rules = money_rules.resolve_money_rules(overrides or {})
    if not money_on(rules):
        return []
    options = {option.name: option for option in money_rules.OPTIONS}
    rows = []
    point = options["per_point"]
    if rules["per_point"] != money_rules.OFF:
        rows.append(_row(point.label, scoring_text(point.choice_labels[rules["per_point"]])))
        rows.append(_row(_("Money per point"), rate_text(rules["rate"])))
    for name in AMOUNTS:
        if rules[name]:
            value = _cents(Decimal(rules[name]))
            to = options.get(f"{name}_to")
            if to is not None:
                value = f"{value} → {scoring_text(to.choice_labels[rules[f'{name}_to']])}"
            rows.append(_row(options[name].label, value))
    return rows


def _row(label, value) -> dict[str, str]:
    return {"label": scoring_text(label), "value": value}


def _cents(cents: Decimal) -> str:
    """An amount of cents in euros, in the page's language ("0,05 €")."""
    return money_text(Decimal(cents) / 100)


def rate_text(rate: str) -> str:
    """The rate per point in euros as exactly as it is kept ("0,025 €", at least two decimals)."""
    return f"{rate_number(rate)}{NBSP}€"


def rate_number(rate: str) -> str:
    """The rate kept in cents ("10", "2.5") as euros the page's way, with at least two decimals
    as money is written ("0,10", "0,025"): the house rules form shows it so."""
    euros = Decimal(rate) / 100
    places = max(2, -euros.normalize().as_tuple().exponent)
    return number_text(euros, places=places)
