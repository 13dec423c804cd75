"""Keeps an evening's derived mark ``Meeting.money_open``: whether anything of its settlement
may still be open. The reads of what is open (``settlement.evening_and_before``, ``open_for``,
``owes``) take only the evenings so marked, so their work follows the evenings still owing
money, not the league's history.

The mark is cleared only by working the settlement out and finding nothing open, and is set
again by every change that can open something: the evening's results rewritten while it is
closed (a correction of an earlier evening, a rebuild), its closing, its reopening. A mark
left set costs a read, never a line: an evening closed some other way (with its season, by an
import) keeps the default and is read until its next payment or rewrite.
"""

from __future__ import annotations

from leagues.cashbox import settlement
from leagues.models import Meeting


def keep_mark(meeting: Meeting, *, evening: settlement.EveningMoney | None = None) -> None:
    """Work out whether ``meeting`` (closed, with money) still has anything open and keep it;
    ``evening``: its settlement with what is open, when the writer has it already."""
    if meeting.closed_at is None or not meeting.money_rules:
        return
    if evening is None:
        evening = settlement.evening_settlement(meeting=meeting)
    set_mark(meeting, still_open=bool(evening and evening.open))


def set_mark(meeting: Meeting, *, still_open: bool) -> None:
    """Store the mark when it changes (one UPDATE; none when it stays)."""
    if meeting.money_open != still_open:
        Meeting.objects.filter(pk=meeting.pk).update(money_open=still_open)
        meeting.money_open = still_open


def keep_marks(meetings: list[Meeting]) -> None:
    """``keep_mark`` for many evenings at once (a correction reaching later evenings): their
    settlements in one read, the marks that change in at most two UPDATEs."""
    meetings = [m for m in meetings if m.closed_at is not None and m.money_rules]
    if not meetings:
        return
    found = settlement.settlements(meetings=meetings)
    still = {pk for pk, evening in found.items() if evening.open}
    for value in (True, False):
        changed = [m for m in meetings if (m.pk in still) == value and m.money_open != value]
        if changed:
            Meeting.objects.filter(pk__in=[m.pk for m in changed]).update(money_open=value)
            for m in changed:
                m.money_open = value
