"""What the writes refuse with: each names the field (or hand) and says why, and the views
answer it with a 4xx and the message.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from leagues.models import (
    Hand,
)
from scoring.errors import Problem, ScoringError


class HandConflict(Exception):
    """Someone else entered a hand at the same moment; the caller should refresh."""

    def __init__(self, number):
        super().__init__(number)
        self.number = number


class InvalidInput(Exception):
    """Bad input, with every problem as {"hand", "field", "message"} (already translated)."""

    def __init__(self, errors):
        super().__init__("; ".join(e["message"] for e in errors))
        self.errors = errors


class MeetingClosed(InvalidInput):
    """A write to the hands of a meeting that is over (closed, or its last round played after
    the end time): nothing changes. An InvalidInput, so that every caller that already answers
    a refused hand with a 4xx and its message answers this one too."""

    def __init__(self, message):
        super().__init__([{"hand": None, "field": "meeting", "message": message}])


class ProblemError(dict):
    """One of the engine's problems as {"hand", "field", "message"}, the message with the
    payload's own names (as the API says it), keeping the Problem itself so that an HTML
    page can say it in its form's words (leagues/field_labels.py, ``page_errors``)."""

    def __init__(self, problem: Problem):
        super().__init__(problem.as_dict(translate=_))
        self.problem = problem


def problems_as_errors(error: ScoringError) -> list[dict[str, Any]]:
    return [ProblemError(p) for p in error.problems]


# --- hands ----------------------------------------------------------------------------------
#
# Every write below takes the meeting's lock first and only then reads the hand it changes
# (never an object the caller loaded earlier: a correction and a deletion of one hand would
# otherwise each save their own stale copy over the other's). The caller names the version of
# the hand it saw; a write over a newer version raises StaleHand and changes nothing.


class StaleHand(Exception):
    """The hand changed since the writer saw it (another phone corrected, deleted or restored
    it); nothing was saved. ``hand`` is the hand as it is now, ``changed_by`` and
    ``changed_at`` say who changed it last and when."""

    def __init__(self, hand: Hand, *, changed_by=None, changed_at=None):
        super().__init__(hand.pk)
        self.hand = hand
        self.changed_by = changed_by
        self.changed_at = changed_at


class IdempotencyKeyReused(Exception):
    """The idempotency key already names what another request wrote: a hand of the meeting
    (``hand``), or a club night of the league (``night``)."""

    def __init__(self, hand: Hand | None = None, *, night=None):
        super().__init__(hand.pk if hand is not None else night.pk)
        self.hand = hand
        self.night = night


REASON_MAX = 500


def checked_reason(reason: str, *, required: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise field_error("reason", required)
    if len(reason) > REASON_MAX:
        raise field_error("reason", _("At most %(max)s characters.") % {"max": REASON_MAX})
    return reason


class MidRound(InvalidInput):
    """The bill is not saved: an evening of the season is in the middle of a round, and
    saving the bill would end it there."""


class SplitChanged(InvalidInput):
    """The bill is not saved: the split it would store is not the split that was shown
    (the standings changed since, or none was shown)."""


# --- members, players, invites (league admin) -----------------------------------------------


def field_error(field: str, message: str) -> InvalidInput:
    return InvalidInput([{"hand": None, "field": field, "message": message}])


class InviteUnusable(Exception):
    """An invite that cannot be used; ``reason`` is "expired", "used", "revoked",
    "wrong_league" or "player_taken"."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
