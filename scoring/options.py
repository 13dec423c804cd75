"""Rule options as data: what an option is, and how a preset plus overrides become rules.

Each game declares its options (with a label and help text in the players' own terms, used
to generate the league form) and its presets (a full value for every option). A league or a
request picks a preset and may override single options; ``resolve_rules`` checks the
overrides strictly (an unknown option or a value of the wrong type is a problem).
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

    def check(self, value: Any) -> str | None:
        """Return an untranslated problem message, or None when the value is valid."""
        if value is None:
            return None if self.nullable else _("may not be empty")
        if self.kind == BOOL:
            return None if isinstance(value, bool) else _("must be true or false")
        if self.kind == INT:
            if isinstance(value, bool) or not isinstance(value, int):
                return _("must be a whole number")
            if self.minimum is not None and value < self.minimum:
                return _("is below the smallest allowed value")
            if self.maximum is not None and value > self.maximum:
                return _("is above the largest allowed value")
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
            return None
        if self.kind == MAPPING:
            if not isinstance(value, dict) or set(value) != set(self.choices):
                return _("must name a value for each of its entries")
            if any(isinstance(v, bool) or not isinstance(v, int) for v in value.values()):
                return _("must be a whole number for each entry")
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
            problems.add(None, "rules", _("Rule option “%(name)s” %(problem)s."), name=name, problem=message)
            continue
        rules[name] = _copy(value)
    return rules


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value
