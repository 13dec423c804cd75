"""Players' names: what a name may hold, and when two names are too alike for one league.

A player's name is how the table tells players apart on the sheet, in the standings and in
every hand entered (hands name players as entered). So a name is

- normalised to NFC (an "é" typed as e + accent is the same name as a precomposed "é"),
  trimmed, with every run of spaces made one space;
- refused when it holds a control or format character (Unicode categories Cc and Cf: tabs,
  NUL, zero-width spaces and joiners, bidi overrides that reverse the text shown) or a line
  or paragraph separator (Zl, Zp): invisible characters make two names that look the same
  differ, or make a name show as something else;
- refused when it only differs from another player's name of the league by case ("anna"),
  width ("Ａｎｎａ", or other NFKC compatibility forms like "𝐀𝐧𝐧𝐚") or look-alike letters
  (Cyrillic "а" for Latin "a", Greek "Ο" for "O", "rn" for "m", "I" for "l"): the message
  names the existing player.

Look-alikes come from a small table of our own (``_LOOK_ALIKE`` below) rather than the
``confusable-homoglyphs`` package: that package answers "does this string mix scripts in a
dangerous way", not "do these two names look the same", which is what a league needs (a
Cyrillic "Аня" next to a Latin "Anna" is fine; "Аnna" next to "Anna" is not). Comparing
needs a *skeleton* of each name (UTS #39), and the letters that matter for the names of a
card club are the Latin look-alikes in Cyrillic and Greek and a few Latin shapes; a table
of them is short enough to read and check, and adds no dependency.
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

# Player.name's max_length (leagues/models/).
MAX_LENGTH = 40

# Control, format, surrogate, line and paragraph separator characters.
_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Zl", "Zp"}

# Characters that look like a Latin letter (or digit) in the same case. Applied to the
# decomposed name (NFKD), so accented forms follow their base letter ("ё" as "ë").
_SAME_CASE = {
    # Cyrillic capitals
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ԛ": "Q", "Ԝ": "W", "Һ": "H",
    "Ӏ": "I",
    # Cyrillic small letters
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s", "і": "i",
    "ј": "j", "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w", "ӏ": "l", "к": "k",
    # Greek capitals
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C",
    # Greek small letters
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "υ": "u", "γ": "y", "χ": "x",
    "ϲ": "c", "ϳ": "j",
    # Latin shapes and digits
    "ı": "i", "ɑ": "a", "ɡ": "g", "ɩ": "i", "I": "l", "1": "l", "|": "l", "0": "O",
}  # fmt: skip
# Letter pairs that read as one letter in most fonts.
_PAIRS = re.compile("rn|vv")
_PAIR_AS = {"rn": "m", "vv": "w"}


class NameProblem(ValueError):
    """A name that cannot be a player's; ``message`` is translated, for the name's field."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _refuse_invisible(name: str) -> None:
    refused = sorted({c for c in name if unicodedata.category(c) in _REFUSED_CATEGORIES})
    if refused:
        codes = ", ".join(f"U+{ord(c):04X}" for c in refused)
        raise NameProblem(
            _("A name may not hold invisible or control characters (here: %(codes)s).") % {"codes": codes}
        )


def visible_name(value: str) -> None:
    """A form field's validator for other names (a league's): the same characters refused
    as in a player's name, since a league's name heads every page and export of it."""
    try:
        _refuse_invisible(value or "")
    except NameProblem as problem:
        raise ValidationError(problem.message, code="invisible") from problem


def clean_name(raw: str) -> str:
    """The name as it is stored: NFC, trimmed, single spaces. NameProblem when refused."""
    name = unicodedata.normalize("NFC", raw or "").strip()
    _refuse_invisible(name)
    name = " ".join(name.split())
    if not name:
        raise NameProblem(_("Please enter a name."))
    if len(name) > MAX_LENGTH:
        raise NameProblem(_("A name can be at most %(max)s characters long.") % {"max": MAX_LENGTH})
    return name


def _skeleton(name: str, *, same_case: bool) -> str:
    """The name reduced to what the eye sees: compatibility forms folded (width, styled
    letters), look-alikes replaced, case ignored. With ``same_case`` the look-alikes are
    replaced before case is folded, which catches the capitals that only look alike as
    capitals (Greek "Η" and Latin "H", whose small letters differ)."""
    text = unicodedata.normalize("NFKD", name)
    if same_case:
        text = "".join(_SAME_CASE.get(c, c) for c in text).casefold()
    else:
        text = unicodedata.normalize("NFKD", text.casefold())
        text = "".join(_SAME_CASE.get(c, c) for c in text).casefold()
    text = _PAIRS.sub(lambda m: _PAIR_AS[m.group()], text)
    return unicodedata.normalize("NFC", text)


def keys(name: str) -> tuple[str, str]:
    return _skeleton(name, same_case=False), _skeleton(name, same_case=True)


def alike(name: str, others) -> str | None:
    """The first of ``others`` that ``name`` cannot be told apart from, or None."""
    mine = keys(name)
    for other in others:
        theirs = keys(other)
        if mine[0] == theirs[0] or mine[1] == theirs[1]:
            return other
    return None


class Roster:
    """Names by the keys they are told apart by, for checking many new names at once (a paper
    import): each name's keys are worked out once, not again for every name checked after it."""

    def __init__(self, names=()):
        self._by_key: dict[tuple[int, str], str] = {}
        for name in names:
            self.add(name)

    def add(self, name: str) -> None:
        for key in enumerate(keys(name)):
            self._by_key.setdefault(key, name)

    def alike(self, name: str) -> str | None:
        """The name of the roster that ``name`` cannot be told apart from, or None."""
        return next((self._by_key[key] for key in enumerate(keys(name)) if key in self._by_key), None)


def check_new_name(name: str, others) -> str:
    """``name`` cleaned, for a new player among ``others`` (the league's players' names, or a
    Roster of them). NameProblem naming the existing player when it is too alike one of them."""
    name = clean_name(name)
    existing = others.alike(name) if isinstance(others, Roster) else alike(name, others)
    if existing is None:
        return name
    if existing.casefold() == name.casefold():
        raise NameProblem(
            _("“%(existing)s” already plays in this league: choose another name.") % {"existing": existing}
        )
    raise NameProblem(
        _("“%(name)s” looks too much like “%(existing)s”, who already plays in this league: choose another name.")
        % {"name": name, "existing": existing}
    )
