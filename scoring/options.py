"""Rule options as data: what an option is, and how a preset plus overrides become rules.

Each game declares its options (with a label and help text in the players' own terms, used
to generate the league form) and its presets (a full value for every option). A league or a
request picks a preset and may override single options; ``resolve_rules`` checks the
overrides strictly (an unknown option or a value of the wrong type is a problem).

Every number an option holds (``INT``, each of an ``INT_PAIR``, each value of a ``MAPPING``,
the figures of each tier of a ``TIERS``, whose starts are bounded by its ``choices``) has a
range, ``minimum`` to ``maximum``, which a game must declare (an Option without one is a bug
that fails at import): the ranges keep every figure of an evening inside the 32-bit
integers the results table stores (the reasoning is in ``scoring/limits.py``), and the league
form shows them on its number inputs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import Problems, _

# Kinds of option values.
BOOL = "bool"
INT = "int"  # an integer; ``nullable`` allows None ("none")
CHOICE = "choice"  # one of ``choices``
MULTI = "multi"  # a list of distinct entries of ``choices``
INT_PAIR = "int_pair"  # a list of two integers, e.g. made / failed scores
MAPPING = "mapping"  # {choice: int}, e.g. marriage values per suit
# A table by tiers: a list of [from, made, failed], e.g. 56's stakes by bid (28-39: 1 / 2, 40-47:
# 2 / 3, ...). A tier runs from its ``from`` up to the next tier's; ``choices`` are the values a
# tier may start at (the first tier starts at the first of them, so every value is covered),
# ``minimum`` and ``maximum`` bound the two figures. At most MAX_TIERS tiers.
TIERS = "tiers"
MAX_TIERS = 8
NUMERIC = (INT, INT_PAIR, MAPPING, TIERS)  # kinds holding numbers: each needs a minimum and maximum


@dataclass(frozen=True)
class Option:
    name: str
    kind: str
    label: str
    help: str = ""
    choices: tuple[Any, ...] = ()
    nullable: bool = False
    minimum: int | None = None
    maximum: int | None = None
    choice_labels: dict[Any, str] = field(default_factory=dict)
    # The heading the league form shows the option under (a translatable label, e.g. "Bock
    # and Ramsch"); options of the same group fold together. Without one, an option goes
    # under a common heading.
    group: Any = ""

    def __post_init__(self) -> None:
        if self.kind in NUMERIC and (self.minimum is None or self.maximum is None):
            raise ValueError(f"option {self.name!r} needs a minimum and a maximum")
        if self.kind == TIERS and not self.choices:
            raise ValueError(f"option {self.name!r} needs the values its tiers may start at (choices)")

    def limits(self) -> dict[str, Any]:
        """The range, as the ``%(min)s`` and ``%(max)s`` of the messages of ``check`` (tiers
        also ``%(first)s`` and ``%(last)s``, where a tier may start, and ``%(tiers)s``)."""
        if self.kind == TIERS:
            return {
                "min": self.minimum,
                "max": self.maximum,
                "first": self.choices[0],
                "last": self.choices[-1],
                "tiers": MAX_TIERS,
            }
        return {"min": self.minimum, "max": self.maximum}

    def in_range(self, value: Any) -> bool:
        """A whole number (not a bool) within the option's range."""
        return (
            isinstance(value, int) and not isinstance(value, bool) and self.minimum <= value <= self.maximum  # type: ignore[operator]
        )

    def check(self, value: Any) -> str | None:
        """Return an untranslated problem message, or None when the value is valid.

        The message may hold ``%(min)s`` and ``%(max)s``: fill them with ``limits()``."""
        if value is None:
            return None if self.nullable else _("may not be empty")
        check = _CHECKS.get(self.kind)
        if check is None:
            raise ValueError(f"unknown option kind {self.kind!r}")  # a bug in a game's declaration
        return check(self, value)

    def _check_bool(self, value: Any) -> str | None:
        return None if isinstance(value, bool) else _("must be true or false")

    def _check_int(self, value: Any) -> str | None:
        return None if self.in_range(value) else _("must be a whole number from %(min)s to %(max)s")

    def _check_choice(self, value: Any) -> str | None:
        return None if _hashable(value) and value in self.choices else _("is not one of the allowed values")

    def _check_multi(self, value: Any) -> str | None:
        if not isinstance(value, list) or not all(_hashable(v) for v in value):
            return _("must be a list")
        if any(v not in self.choices for v in value) or len(set(value)) != len(value):
            return _("holds a value that is not allowed, or one twice")
        return None

    def _check_int_pair(self, value: Any) -> str | None:
        if not isinstance(value, list) or len(value) != 2 or not _whole_numbers(value):
            return _("must be a list of two whole numbers")
        if not all(self.in_range(v) for v in value):
            return _("must be two whole numbers, each from %(min)s to %(max)s")
        return None

    def _check_mapping(self, value: Any) -> str | None:
        if not isinstance(value, dict) or set(value) != set(self.choices):
            return _("must name a value for each of its entries")
        if not all(self.in_range(v) for v in value.values()):
            return _("must be a whole number from %(min)s to %(max)s for each entry")
        return None

    def _check_tiers(self, value: Any) -> str | None:
        if not _tiers_shape(value):
            return _("must be a list of tiers, each three whole numbers: from, made, failed")
        if len(value) > MAX_TIERS:
            return _("may have at most %(tiers)s tiers")
        if not self._rising_from_first([tier[0] for tier in value]):
            return _("must start its first tier at %(first)s and each further tier higher, up to %(last)s")
        if not all(self.in_range(v) for tier in value for v in tier[1:]):
            return _("must hold made and failed figures from %(min)s to %(max)s")
        return None

    def _rising_from_first(self, starts: list[int]) -> bool:
        """The first tier starts at the first choice, each further one higher, all choices."""
        return starts[0] == self.choices[0] and all(s in self.choices for s in starts) and starts == sorted(set(starts))


# How each kind of option checks a value that is not None.
_CHECKS = {
    BOOL: Option._check_bool,
    INT: Option._check_int,
    CHOICE: Option._check_choice,
    MULTI: Option._check_multi,
    INT_PAIR: Option._check_int_pair,
    MAPPING: Option._check_mapping,
    TIERS: Option._check_tiers,
}


def _whole_numbers(values: list) -> bool:
    """Every value is an int (a bool is not)."""
    return not any(isinstance(v, bool) or not isinstance(v, int) for v in values)


def _tiers_shape(value: Any) -> bool:
    """A list of at least one tier."""
    return isinstance(value, list) and len(value) > 0 and all(_is_tier(tier) for tier in value)


def _is_tier(tier: Any) -> bool:
    """Three whole numbers: from, made, failed."""
    return isinstance(tier, list) and len(tier) == 3 and _whole_numbers(tier)


def tier_of(tiers: list[list[int]], value: int) -> tuple[int, int]:
    """The (made, failed) figures of the tier ``value`` falls in: the last tier starting at or
    below it (a checked TIERS value starts at the lowest value, so there is always one)."""
    found = tiers[0]
    for tier in tiers:
        if tier[0] <= value:
            found = tier
    return found[1], found[2]


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def resolve_rules(
    *,
    options: tuple[Option, ...],
    preset: dict[str, Any],
    overrides: Any,
    problems: Problems,
) -> dict[str, Any]:
    """The preset's values with the overrides applied; problems go to ``problems``."""
    # A copy of the lists and mappings, so that no caller can change a preset (option values
    # are lists of strings or numbers, mappings of numbers, or tiers: lists of such lists).
    rules = {name: _copy(value) for name, value in preset.items()}
    if overrides is None:
        return rules
    if not isinstance(overrides, dict):
        problems.add(None, "rules", _("Rules must be an object of option names and values."))
        return rules
    by_name = {o.name: o for o in options}
    for name, value in overrides.items():
        option = by_name.get(name)
        if option is None:
            problems.add(None, "rules", _("Unknown rule option “%(name)s”."), name=name)
            continue
        message = option.check(value)
        if message:
            problems.add(
                None,
                "rules",
                _("Rule option “%(name)s” %(problem)s."),
                name=name,
                problem=message,
                **option.limits(),
            )
            continue
        rules[name] = _copy(value)
    return rules


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value]  # tiers are lists of lists
    if isinstance(value, dict):
        return dict(value)
    return value
