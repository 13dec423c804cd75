"""Problems found while checking a sitting or a hand.

scoring/ imports nothing from Django, so messages are only *marked* for translation
here (``_`` returns its argument) and translated by the web layer, which fills in
``params`` after translating: ``gettext(problem.message) % problem.params``.
``manage.py makemessages`` finds the ``_("...")`` calls in this package all the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def _(message: str) -> str:
    """Mark a message for translation; the web layer translates it."""
    return message


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input.

    ``hand`` is the 1-based hand number, or None for the sitting itself.
    ``field`` is the top-level field of the hand or of the request, or None.
    ``message`` is an untranslated template using ``%(name)s`` placeholders.
    """

    hand: int | None
    field: str | None
    message: str
    params: dict[str, Any] = field(default_factory=dict)

    def render(self, translate=lambda s: s) -> str:
        text = translate(self.message)
        if not self.params:
            return text
        # A param named "problem" is itself a message marked for translation, which may use
        # the other params (e.g. an option's range).
        params = {k: (translate(v) % self.params if k == "problem" else v) for k, v in self.params.items()}
        return text % params

    def as_dict(self, translate=lambda s: s) -> dict[str, Any]:
        return {"hand": self.hand, "field": self.field, "message": self.render(translate)}


class ScoringError(Exception):
    """Raised with every problem found, never only the first."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(p.render() for p in problems))
        self.problems = list(problems)


class Problems:
    """Collects problems while a replay goes on, then raises them all at once."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, hand: int | None, field: str | None, message: str, **params: Any) -> None:
        self.items.append(Problem(hand, field, message, params))

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise ScoringError(self.items)
