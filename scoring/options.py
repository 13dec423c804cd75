"""Rule options as data: what an option is, and how a preset plus overrides become rules.

Each game declares its options (with a label and help text in the players' own terms, used
to generate the league form) and its presets (a full value for every option). A league or a
request picks a preset and may override single options; ``resolve_rules`` checks the
overrides strictly (an unknown option or a value of the wrong type is a problem).

Every number an option holds (``INT``, each of an ``INT_PAIR``, each value of a ``MAPPING``)
has a range, ``minimum`` to ``maximum``, which a game must declare (an Option without one is
a bug that fails at import): the ranges keep every figure of an evening inside the 32-bit
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
NUMERIC = (INT, INT_PAIR, MAPPING)  # kinds holding numbers: each needs a minimum and maximum


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

    def limits(self) -> dict[str, Any]:
        """The range, as the ``%(min)s`` and ``%(max)s`` of the messages of ``check``."""
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
        if self.kind == BOOL:
            return None if isinstance(value, bool) else _("must be true or false")
        if self.kind == INT:
            if not self.in_range(value):
                return _("must be a whole number from %(min)s to %(max)s")
            return None
        if self.kind == CHOICE:
            return None if _hashable(value) and value in self.choices else _("is not one of the allowed values")
        if self.kind == MULTI:
            if not isinstance(value, list) or not all(_hashable(v) for v in value):
                return _("must be a list")
            if any(v not in self.choices for v in value) or len(set(value)) != len(value):
                return _("holds a value that is not allowed, or one twice")
            return None
        if self.kind == INT_PAIR:
            if (
                not isinstance(value, list)
                or len(value) != 2
                or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
            ):
                return _("must be a list of two whole numbers")
            if not all(self.in_range(v) for v in value):
                return _("must be two whole numbers, each from %(min)s to %(max)s")
            return None
        if self.kind == MAPPING:
            if not isinstance(value, dict) or set(value) != set(self.choices):
                return _("must name a value for each of its entries")
            if not all(self.in_range(v) for v in value.values()):
                return _("must be a whole number from %(min)s to %(max)s for each entry")
            return None
        raise ValueError(f"unknown option kind {self.kind!r}")  # a bug in a game's declaration


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
    # are flat: lists of strings or numbers, mappings of numbers).
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
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value
