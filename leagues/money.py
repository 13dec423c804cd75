"""Numbers and money as a person reads and types them in the page's language.

The forms read what is typed with the language's decimal separator and thousands separator
(German "1.234,50", English "1,234.50": scoring.numbers.local_decimal); the pages show
figures the same way. What is stored or put into a link stays canonical ("1234.50"), so a
link shared from a German page opens the same bill on an English one.

Amounts of money are written with the euro sign after the amount, joined by a no-break
space, in both languages ("1.234,50 €", "1,234.50 €"): German writes it so, and the English
pages keep the same shape so that a column of shares lines up on its last digit and a
printed or shared bill reads alike in both languages.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django.utils import formats
from django.utils.html import format_html

from scoring.numbers import local_decimal

NBSP = "\u00a0"


def decimal_separator() -> str:
    """ "," in German, "." in English: the active language's (Django's format modules)."""
    return formats.get_format("DECIMAL_SEPARATOR")


def _decimal(value) -> Decimal:
    if isinstance(value, Fraction):  # scoring's exact numbers: a power-of-ten denominator
        return Decimal(value.numerator) / Decimal(value.denominator)
    return Decimal(str(value))


def read_number(text: str, *, places: int) -> Decimal | None:
    """``text`` read in the active language; None if it is no number. Raises
    scoring.numbers.AmbiguousNumber for "1.234" in German or "1,234" in English."""
    number = local_decimal(text, decimal_sep=decimal_separator(), places=places)
    if number is None:
        return None
    return _decimal(number)


def number_text(value, *, places: int | None = None, grouping: bool = True) -> str:
    """``value`` in the active language's format: "1.234,5" in German, "1,234.5" in
    English; ``places`` decimals if given, else as many as the value has."""
    value = _decimal(value)
    if places is None:
        value = value.normalize()
        places = max(0, -value.as_tuple().exponent)
    return formats.number_format(value, decimal_pos=places, use_l10n=True, force_grouping=grouping)


def money_text(value) -> str:
    """ "1.234,50 €" (German) or "1,234.50 €" (English), with a no-break space."""
    return f"{number_text(value, places=2)}{NBSP}€"


def money_html(value):
    """money_text in a span that never wraps (CSS .money: white-space: nowrap)."""
    return format_html('<span class="money">{}</span>', money_text(value))


def canonical(value: Decimal, *, places: int | None = None) -> str:
    """The form stored and put into links: a decimal point, no grouping ("1234.5")."""
    if places is not None:
        return f"{value:.{places}f}"
    return format(value.normalize(), "f")
