"""How a hand's history marks what a guest scorer did (a scorer link, leagues/table/
scorer_links.py): the record's ``history_user_name`` holds the guest's name and its
``history_change_reason`` the code ``guest:<link id>``, so the history can say "Guest: Jonas"
in the reader's language and the guest's own hands are known by his link.

This module holds that code: written by ``services``, read by the history pages and the
import (it imports nothing of the app, so that all of them may import it).
"""

PREFIX = "guest:"


def reason(link_id: int) -> str:
    """The change reason of a record a guest's link writes."""
    return f"{PREFIX}{link_id}"


def link_id(text: str | None) -> int | None:
    """The id of the link a change reason names, None for any other reason (or none)."""
    if not text or not text.startswith(PREFIX):
        return None
    digits = text[len(PREFIX) :]
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 18:
        return None
    return int(digits)
