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
- the undo of the undo brings back only a hand he undid himself, as the last one, with the
  number it had (a hand deleted on its page comes back from the deleted hands); once
  another hand was entered after the undo, it would come back before that one, so it is
  refused (the deleted hands below the sheet still restore it in its place).

A guest scorer (his scorer link, leagues/table/scorer_links.py) undoes under the same rules:
the hands he entered are those whose entering record names his link, and his undo and its
undo are recorded in his name as his hands are.

Older hands keep the correction and deletion on their own page.
"""

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from leagues import exceptions, locks
from leagues.models import Hand
from leagues.table import guest_marks, meetings, scorer_links, selectors, services


def _refused(message: str) -> exceptions.InvalidInput:
    return exceptions.InvalidInput([{"hand": None, "field": "hand", "message": message}])


@dataclass(frozen=True)
class _Undoer:
    """Who undoes: a member (``user``) or a guest by his scorer link (``guest``, user None)."""

    user: Any
    guest: Any = None

    def entered(self, hand: Hand) -> bool:
        # A hand whose enterer's account is gone (None) is nobody's to undo, an anonymous user's least.
        if self.guest is not None:
            return hand.entered_by_id is None and bool(selectors.entered_by_link(link=self.guest, hand_ids=[hand.pk]))
        return self.user.pk is not None and hand.entered_by_id == self.user.pk

    def wrote(self, record) -> bool:
        """Whether the historical ``record`` is a write of his."""
        if self.guest is not None:
            return record.history_user_id is None and guest_marks.link_id(record.history_change_reason) == self.guest.pk
        return self.user.pk is not None and record.history_user_id == self.user.pk


def _enterer_only(hand: Hand, who: _Undoer, message: str) -> None:
    if not who.entered(hand):
        raise _refused(message)


def _done_already(hand: Hand, *, who: _Undoer, version: int) -> bool:
    """Whether ``hand`` is one version past what the page showed and that write was
    ``who``'s: the same request sent again (a double tap, a form sent twice)."""
    if hand.version != version + 1:
        return False
    last = hand.history.order_by("-history_date", "-history_id").first()
    return last is not None and who.wrote(last)


def _not_entered_message(number, *, guest) -> str:
    if guest is not None:
        return _(
            "Only whoever entered hand %(number)s can undo it; a member at the table can correct or delete it."
        ) % {"number": number or ""}
    return _("Only whoever entered hand %(number)s can undo it; it can be corrected or deleted on its own page.") % {
        "number": number or ""
    }


def _after(live: list[Hand], hand: Hand) -> list[Hand]:
    return [h for h in live if h.position > hand.position]


@transaction.atomic
def undo_last_hand(*, hand: Hand, user, version: int, guest=None) -> Hand:
    """Delete the evening's last hand for the one who entered it, at the ``version`` his page
    showed (see the module's doc for what is refused): a member (``user``) or a guest by his
    scorer link (``guest``, ``user`` None). Returns the hand, deleted."""
    who = _Undoer(user, guest)
    meeting = locks.lock_meeting(hand.meeting_id)
    meetings.refuse_if_closed(meeting)
    live, hand = services.hands_with(meeting, hand.pk)
    _enterer_only(hand, who, _not_entered_message(hand.number, guest=guest))
    if hand.deleted_at is not None and _done_already(hand, who=who, version=version):
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
    return services.delete_hand(hand=hand, by=user, version=version, guest=guest)


@transaction.atomic
def redo_hand(*, hand: Hand, user, version: int, guest=None) -> Hand:
    """Undo the undo: bring the hand ``undo_last_hand`` deleted back as the last hand, with
    its number, for the one who entered it (``user``, or ``guest`` as there), at the
    ``version`` his page showed."""
    who = _Undoer(user, guest)
    meeting = locks.lock_meeting(hand.meeting_id)
    meetings.refuse_if_closed(meeting)
    live, hand = services.hands_with(meeting, hand.pk)
    _enterer_only(hand, who, _("Only whoever entered this hand can bring it back here; it is among the deleted hands."))
    if hand.deleted_at is None and _done_already(hand, who=who, version=version):
        return hand
    services.check_version(hand, version)
    if hand.deleted_at is None:
        return hand
    # Only his own undo: a hand someone deleted on its page comes back from the deleted hands.
    deletion = hand.history.order_by("-history_date", "-history_id").first()
    if deletion is None or not who.wrote(deletion):
        raise _refused(_("This hand was deleted on its own page: restore it from the deleted hands below the sheet."))
    later = _after(live, hand)
    if later:
        raise _refused(
            _(
                "The undone hand cannot come back as the last one: hand %(last)s was entered since."
                " Restore it from the deleted hands below the sheet if it belongs before that one."
            )
            % {"last": later[-1].number}
        )
    return services.restore_hand(hand=hand, by=user, version=version, guest=guest)


# --- what the meeting page offers ------------------------------------------------------------


def offers(*, meeting, hands, user, may_write: bool, undone=None) -> dict:
    """What the meeting page offers its reader: ``undo``, the last live hand when he entered
    it and may write (its number, version and address), and ``undone``, the hand he just
    undid (``undone``: its id, from the undo's answer or the page's address) when it can
    still come back as the last hand. ``hands``: every hand of the meeting in playing order
    (``selectors.meeting_hands``, with ``entered_by_id``). Read from those alone: no query."""
    if not may_write or meeting.closed_at is not None or user.pk is None:
        return {"undo": None, "undone": None}
    slug = meeting.league.slug

    def address(name, hand):
        return reverse(name, args=[slug, meeting.pk, hand.pk])

    return _offers(hands, mine=lambda h: h.entered_by_id == user.pk, address=address, undone=undone)


def guest_offers(*, link, meeting, hands, undone=None, mine=()) -> dict:
    """``offers`` for a guest at his table, by his scorer ``link`` (which the caller found
    usable), with the guest's own addresses. ``mine``: ids of hands known to be his (the one
    he just entered); whether the last hand or the one ``undone`` is his otherwise is read
    in one query, and only when it was entered without an account."""
    if meeting.closed_at is not None:
        return {"undo": None, "undone": None}
    live = [h for h in hands if h.deleted_at is None]
    pk = _pk_of(undone)
    asked = [h for h in hands if h.pk == pk] + live[-1:]
    mine = set(mine)
    unknown = {h.pk for h in asked if h.entered_by_id is None} - mine
    if unknown:
        mine |= selectors.entered_by_link(link=link, hand_ids=unknown)
    token = scorer_links.token_of(link)

    def address(name, hand):
        return reverse(f"guest_{name}", kwargs={"token": token, "pk": meeting.pk, "hand_pk": hand.pk})

    return _offers(hands, mine=lambda h: h.pk in mine, address=address, undone=undone)


def _offers(hands, *, mine, address, undone) -> dict:
    """The offers of ``offers``: ``mine`` says whether a hand is the reader's, ``address``
    makes the address of the undo ("hand_undo") or its undo ("hand_redo") of a hand."""
    live = [h for h in hands if h.deleted_at is None]
    last = live[-1] if live else None
    undo = None
    if last is not None and mine(last):
        undo = {
            "number": last.number,
            "version": last.version,
            "url": address("hand_undo", last),
            "label": _("Undo hand %(number)s") % {"number": last.number},
        }
    return {"undo": undo, "undone": _undone(hands, live, mine=mine, address=address, undone=undone)}


def _pk_of(undone) -> int | None:
    """The hand id ``undone`` names (an id, or its text from an address), None for anything else."""
    try:
        return int(undone) if undone is not None else None
    except (TypeError, ValueError):
        return None


def _undone(hands, live, *, mine, address, undone):
    """The undo of the undo's offer for the hand ``undone``, or None."""
    pk = _pk_of(undone)
    hand = next((h for h in hands if h.pk == pk and h.deleted_at is not None), None)
    if hand is None or not mine(hand) or (live and live[-1].position > hand.position):
        return None
    number = len(live) + 1
    return {
        "number": number,
        "version": hand.version,
        "url": address("hand_redo", hand),
        "text": _("Hand %(number)s undone.") % {"number": number},
    }
