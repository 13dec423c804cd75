"""Reading whole numbers and amounts of money from text: ASCII digits only.

Python's ``int()`` and ``Decimal()`` (and Django's number fields, which use them) read any
Unicode digit: "١٢٣" (Arabic-Indic) and "１２３" (full width) both become 123, so a score
could be entered in a form that nobody at the table can read back, and a string of 4,301
digits stops ``int()`` with Python's digit limit. Every number typed by a person goes
through here instead: the scoring parsers (the bill's money strings), the league's forms and
the views that read numbers from a POST or a query string.

- ``whole_number``: an optional sign and at most ``MAX_DIGITS`` ASCII digits.
- ``decimal_number``: the same, then an optional decimal point ("187.40"), or with
  ``comma=True`` also a decimal comma (the German "187,40": the forms a person types in),
  with at most ``places`` decimals; returned as an exact Fraction. There are no thousands
  separators, so "1,000" is one with three decimals, never a thousand: with money (two
  decimals) it is refused rather than misread. The JSON API takes the point only, as its
  spec writes money ("187.40").

Both return None for anything else; the caller says what was expected, naming its field.
Surrounding whitespace is ignored.
"""

from __future__ import annotations

import re
from fractions import Fraction

# 18 digits stay below 2**63 (and far below the digit limit); every bound the callers check
# (scoring/limits.py) is much smaller.
MAX_DIGITS = 18

# [0-9], not \d: \d matches every Unicode digit.
_WHOLE = re.compile(rf"([+-]?)([0-9]{{1,{MAX_DIGITS}}})")
_DECIMAL = re.compile(rf"([+-]?)([0-9]{{1,{MAX_DIGITS}}})(?:\.([0-9]+))?")
_DECIMAL_COMMA = re.compile(rf"([+-]?)([0-9]{{1,{MAX_DIGITS}}})(?:[.,]([0-9]+))?")


def whole_number(text: str) -> int | None:
    if not isinstance(text, str):
        return None
    match = _WHOLE.fullmatch(text.strip())
    if match is None:
        return None
    sign, digits = match.groups()
    return -int(digits) if sign == "-" else int(digits)


def decimal_number(text: str, *, places: int = 2, comma: bool = False) -> Fraction | None:
    if not isinstance(text, str):
        return None
    match = (_DECIMAL_COMMA if comma else _DECIMAL).fullmatch(text.strip())
    if match is None:
        return None
    sign, whole, decimals = match.groups()
    decimals = decimals or ""
    if len(decimals) > places:
        return None
    number = Fraction(int(whole + decimals), 10 ** len(decimals))
    return -number if sign == "-" else number
