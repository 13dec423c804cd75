"""Undo the last hand in one tap, and undo the undo for a moment after (as a mail app does).

The undo is the deletion of a hand (``services.delete_hand``) and its undo the restore
(``services.restore_hand``): the hand stays in its history, who did what and when is kept,
and everything derived from the evening is replayed as for any deletion (league.md). What the
one tap adds are the guards that make it safe without a look at the hand's page:

- only the evening's last live hand, and only while it is the last: a hand entered after it
  meanwhile (another phone) is refused with the number of that hand;
- only for whoever entered it (an admin who did not is refused too: he deletes it on the
  hand's page, where he sees what he deletes);
- at the version the page showed: a hand corrected since is refused (``StaleHand``);
- the same undo (or undo of the undo) sent twice changes it once: the second finds the hand
  one version on, changed by the same person, and answers with it;
- the undo of the undo brings the hand back as the last one, with the number it had; once
  another hand was entered after the undo, it would come back before that one, so it is
  refused (the deleted hands below the sheet still restore it in its place).

Older hands keep the correction and deletion on their own page.
"""

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from leagues import exceptions, locks
from leagues.models import Hand
from leagues.table import meetings, services


def _refused(message: str) -> exceptions.InvalidInput:
    return exceptions.InvalidInput([{"hand": None, "field": "hand", "message": message}])


def _enterer_only(hand: Hand, user, message: str) -> None:
    # A hand whose enterer's account is gone (None) is nobody's to undo, an anonymous user's least.
    if user.pk is None or hand.entered_by_id != user.pk:
        raise _refused(message)


def _done_already(hand: Hand, *, user, version: int) -> bool:
    """Whether ``hand`` is one version past what the page showed and that write was
    ``user``'s: the same request sent again (a double tap, a form sent twice)."""
    if hand.version != version + 1:
        return False
    changed_by, _changed_at = services.last_change(hand)
    return changed_by is not None and changed_by.pk == user.pk


def _after(live: list[Hand], hand: Hand) -> list[Hand]:
    return [h for h in live if h.position > hand.position]


@transaction.atomic
def undo_last_hand(*, hand: Hand, user, version: int) -> Hand:
    """Delete the evening's last hand for the one who entered it, at the ``version`` his page
    showed (see the module's doc for what is refused). Returns the hand, deleted."""
    meeting = locks.lock_meeting(hand.meeting_id)
    meetings.refuse_if_closed(meeting)
    live, hand = services.hands_with(meeting, hand.pk)
    _enterer_only(
        hand,
        user,
        _("Only whoever entered hand %(number)s can undo it; it can be corrected or deleted on its own page.")
        % {"number": hand.number or ""},
    )
    if hand.deleted_at is not None and _done_already(hand, user=user, version=version):
        return hand
    services.check_version(hand, version)
    later = _after(live, hand)
    if later:
        raise _refused(
            _(
                "Hand %(number)s is no longer the last hand: hand %(last)s was entered after it."
                " Correct or delete it on its own page."
            )
            % {"number": hand.number, "last": later[-1].number}
        )
    return services.delete_hand(hand=hand, by=user, version=version)


@transaction.atomic
def redo_hand(*, hand: Hand, user, version: int) -> Hand:
    """Undo the undo: bring the hand ``undo_last_hand`` deleted back as the last hand, with
    its number, for the one who entered it, at the ``version`` his page showed."""
    meeting = locks.lock_meeting(hand.meeting_id)
    meetings.refuse_if_closed(meeting)
    live, hand = services.hands_with(meeting, hand.pk)
    _enterer_only(
        hand, user, _("Only whoever entered this hand can bring it back here; it is among the deleted hands.")
    )
    if hand.deleted_at is None and _done_already(hand, user=user, version=version):
        return hand
    services.check_version(hand, version)
    if hand.deleted_at is None:
        return hand
    later = _after(live, hand)
    if later:
        raise _refused(
            _(
                "The undone hand cannot come back as the last one: hand %(last)s was entered since."
                " Restore it from the deleted hands below the sheet if it belongs before that one."
            )
            % {"last": later[-1].number}
        )
    return services.restore_hand(hand=hand, by=user, version=version)


# --- what the meeting page offers ------------------------------------------------------------


def offers(*, meeting, hands, user, may_write: bool, undone=None) -> dict:
    """What the meeting page offers its reader: ``undo``, the last live hand when he entered
    it and may write (its number, version and address), and ``undone``, the hand he just
    undid (``undone``: its id, from the undo's answer or the page's address) when it can
    still come back as the last hand. ``hands``: every hand of the meeting in playing order
    (``selectors.meeting_hands``, with ``entered_by_id``). Read from those alone: no query."""
    if not may_write or meeting.closed_at is not None or user.pk is None:
        return {"undo": None, "undone": None}
    live = [h for h in hands if h.deleted_at is None]
    slug = meeting.league.slug
    last = live[-1] if live else None
    undo = None
    if last is not None and last.entered_by_id == user.pk:
        undo = {
            "number": last.number,
            "version": last.version,
            "url": reverse("hand_undo", args=[slug, meeting.pk, last.pk]),
            "label": _("Undo hand %(number)s") % {"number": last.number},
        }
    return {"undo": undo, "undone": _undone(meeting, hands, live, user=user, undone=undone)}


def _undone(meeting, hands, live, *, user, undone):
    """The undo of the undo's offer for the hand ``undone`` (an id, or its text from an
    address: anything else is no hand), or None."""
    try:
        pk = int(undone) if undone is not None else None
    except (TypeError, ValueError):
        return None
    hand = next((h for h in hands if h.pk == pk and h.deleted_at is not None), None)
    if hand is None or hand.entered_by_id != user.pk or (live and live[-1].position > hand.position):
        return None
    number = len(live) + 1
    return {
        "number": number,
        "version": hand.version,
        "url": reverse("hand_redo", args=[meeting.league.slug, meeting.pk, hand.pk]),
        "text": _("Hand %(number)s undone.") % {"number": number},
    }
