"""What a scorekeeper chose for a hand from the offline outbox whose number another
phone took meanwhile: keep it as the next hand, let it replace theirs, or discard it.

The choice is kept where every change of a hand is kept already: the hand's
django-simple-history record, in its ``history_change_reason`` (a column every historical
record has; no new model, no migration). The reason is a short code, not words, so the
history can say it in the reader's language: ``outbox:<choice>:<number entered as>`` and, for
a replacement, ``:<idempotency key>`` (the waiting hand's key, by which a retried replacement
is found and not made twice: the replaced hand keeps the key of the phone that entered it).

This module holds that code: written by ``services``, read by the history pages (it imports
nothing of the app, so that both may import it).
"""

import uuid
from dataclasses import dataclass

KEEP, REPLACE, DISCARD = "keep", "replace", "discard"
PREFIX = "outbox:"
# The history's kind of a record with each choice (selectors.history_kind).
KINDS = {KEEP: "kept", REPLACE: "replaced", DISCARD: "discarded"}


@dataclass(frozen=True)
class OutboxChoice:
    choice: str  # keep, replace or discard
    entered_as: int  # the number the hand was entered as on the phone that was offline
    key: uuid.UUID | None = None  # a replacement's idempotency key

    @property
    def kind(self):
        return KINDS[self.choice]


def reason(*, choice: str, entered_as: int, key: uuid.UUID | None = None) -> str:
    """The change reason of the record a choice writes (at most 100 characters: the column's)."""
    text = f"{PREFIX}{choice}:{entered_as}"
    return f"{text}:{key}" if key is not None else text


def replaced_with_key(key: uuid.UUID) -> str:
    """How the reason of a replacement made with ``key`` ends (to find it again)."""
    return f":{key}"


def parse(text: str | None) -> OutboxChoice | None:
    """The choice a change reason records, None for any other reason (or none)."""
    if not text or not text.startswith(PREFIX):
        return None
    parts = text[len(PREFIX) :].split(":")
    if len(parts) not in (2, 3) or parts[0] not in KINDS or not (parts[1].isascii() and parts[1].isdigit()):
        return None
    try:
        key = uuid.UUID(parts[2]) if len(parts) == 3 else None
    except ValueError:
        return None
    return OutboxChoice(parts[0], int(parts[1]), key)
