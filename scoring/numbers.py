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

- ``local_decimal``: what a person types into a form in his language, with the decimal
  separator and the thousands separator of that language (German "1.234,50", English
  "1,234.50"); see its docstring. The JSON API never uses it.

All return None for anything else; the caller says what was expected, naming its field.
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


# Thousands separators a person may type besides the language's own: spaces (plain, no-break
# and narrow no-break, as phones and copied amounts bring them) never stand for a decimal.
_SPACES = (" ", "\u00a0", "\u202f")
_SPACE_CLASS = "[ \u00a0\u202f]"
_SPACE_GROUPED = re.compile(rf"[0-9]{{1,3}}(?:{_SPACE_CLASS}[0-9]{{3}})+")
_GROUPED = re.compile(r"[0-9]{1,3}(?:[.,][0-9]{3})+")


class AmbiguousNumber(ValueError):
    """A number with two readings: "1.234" typed in German is 1234 (a thousands dot) or
    1.234 (an English decimal point). ``grouped`` and ``decimal`` are both readings."""

    def __init__(self, grouped: Fraction, decimal: Fraction):
        super().__init__(f"{grouped} or {decimal}")
        self.grouped = grouped
        self.decimal = decimal


def local_decimal(text: str, *, decimal_sep: str, places: int = 2) -> Fraction | None:
    """A number typed in a form, read in the page's language (``decimal_sep`` "," for German,
    "." for English; the other mark is then its thousands separator).

    - "187,40" and "1.234,50" in German, "187.40" and "1,234.50" in English;
    - with both marks, the last one is the decimal separator and the other must group by
      threes: "1,234.50" is read in German too, as nothing else can be meant;
    - one mark followed by other than three digits can only be a decimal separator, so the
      canonical "187.40" of a shared link reads the same in both languages (and "187,40"
      typed on an English page, as it did before the pages knew the language);
    - one mark, followed by exactly three digits, that is the language's thousands separator
      ("1.234" in German, "1,234" in English) raises AmbiguousNumber: a club member with the
      other language's habits means the decimal, and a thousand times the bill is not a
      slip to guess about;
    - the same mark several times is thousands grouping ("1.234.567" in German), if every
      group has three digits; anything else ("1,5,0") is None.

    Returns None where the text is no number or has more than ``places`` decimals.
    """
    if not isinstance(text, str) or decimal_sep not in ".,":
        return None
    sign, body = _split_sign(text.strip())
    if any(space in body for space in _SPACES):
        return _space_grouped(sign, body, decimal_sep, places)
    marks = [c for c in body if c in ".,"]
    if not marks:
        return decimal_number(sign + body, places=places)
    if len(set(marks)) == 2:
        return _both_marks(sign, body, marks, places)
    if len(marks) > 1:
        return _grouped(sign, body, marks[0], places)
    return _one_mark(sign, body, marks[0], decimal_sep, places)


def _split_sign(body: str) -> tuple[str, str]:
    if body[:1] in "+-":
        return body[:1], body[1:]
    return "", body


def _space_grouped(sign: str, body: str, decimal_sep: str, places: int) -> Fraction | None:
    """Spaces group the whole part by threes; the language's decimal separator may follow."""
    whole, sep, decimals = body.partition(decimal_sep)
    if not _SPACE_GROUPED.fullmatch(whole):
        return None
    return decimal_number(sign + re.sub(_SPACE_CLASS, "", whole) + ("." + decimals if sep else ""), places=places)


def _grouped(sign: str, body: str, mark: str, places: int) -> Fraction | None:
    """The same mark several times: thousands grouping, every group of three digits."""
    if not _GROUPED.fullmatch(body):
        return None
    return decimal_number(sign + body.replace(mark, ""), places=places)


def _both_marks(sign: str, body: str, marks: list[str], places: int) -> Fraction | None:
    """A point and a comma: the last one, once, is the decimal separator; the other groups by threes."""
    last = marks[-1]
    if marks.count(last) != 1:
        return None
    whole, _, decimals = body.rpartition(last)
    if not _GROUPED.fullmatch(whole):
        return None
    return decimal_number(sign + whole.replace(marks[0], "") + "." + decimals, places=places)


def _one_mark(sign: str, body: str, mark: str, decimal_sep: str, places: int) -> Fraction | None:
    """One mark: a decimal separator, unless it is the language's thousands separator followed
    by exactly three digits, which has two readings (AmbiguousNumber)."""
    group_sep = "," if decimal_sep == "." else "."
    whole, _, decimals = body.partition(mark)
    plain = decimal_number(sign + whole + "." + decimals, places=max(places, 3))
    if plain is None:
        return None
    if mark == group_sep and len(decimals) == 3 and _GROUPED.fullmatch(body) and whole != "0":
        grouped = decimal_number(sign + whole + decimals, places=places)
        raise AmbiguousNumber(grouped, plain)
    return decimal_number(sign + whole + "." + decimals, places=places)
