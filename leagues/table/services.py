"""Writes of hands, one entry point per act: ``enter_hand`` (answers ``Entered``),
``change_hand`` (``Changed``), ``delete_hand``, ``restore_hand``, and the offline outbox's
choices (``keep_offline_hand``, ``replace_hand``, ``discard_offline_hand``). The meeting's
pages and the API call the same ones.

Every write takes the meeting's lock first and only then reads the hand it changes, and ends
with a replay of the evening so that the derived results never drift from the hands.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.exceptions import HandConflict, IdempotencyKeyReused, InvalidInput, MeetingClosed, StaleHand
from leagues.locks import lock_meeting
from leagues.models import (
    Hand,
    Meeting,
)
from leagues.table import guest_marks, outbox_choices, selectors
from leagues.table.chain import replay_later_meetings
from leagues.table.evening import (
    end_time_passed,
    evening_over,
    games_full_message,
    last_match,
    last_round_done,
    match_won_message,
    past_the_end,
    table_done,
)
from leagues.table.meetings import close_meeting_row, refuse_if_closed
from leagues.table.replay import calculate_with_given, meeting_request, outgoing_queue, replay_of
from leagues.table.results import write_results


def hands_with(meeting: Meeting, hand_id: int) -> tuple[list[Hand], Hand]:
    """The live hands of the locked ``meeting`` in playing order, and its hand ``hand_id``
    (live or deleted) as it is now: one query. Read under the meeting's lock, which every
    writer of a hand holds (the hand's own row lock added nothing to it, and cost a query);
    Hand.DoesNotExist when the meeting has no such hand."""
    rows = list(meeting.hands.filter(Q(deleted_at=None) | Q(pk=hand_id)).order_by("position"))
    hand = next((h for h in rows if h.pk == hand_id), None)
    if hand is None:
        raise Hand.DoesNotExist(f"meeting {meeting.pk} has no hand {hand_id}")
    return [h for h in rows if h.deleted_at is None], hand


def last_change(hand: Hand) -> tuple[Any, Any]:
    """Who wrote ``hand`` last and when, from its history: (user or None, datetime)."""
    last = hand.history.select_related("history_user").order_by("-history_date", "-history_id").first()
    if last is None:
        return hand.entered_by, hand.changed_at
    return last.history_user, last.history_date


def check_version(hand: Hand, version: int) -> None:
    if hand.version != version:
        changed_by, changed_at = last_change(hand)
        raise StaleHand(hand, changed_by=changed_by, changed_at=changed_at)


def _renumber(hands: list[Hand], *, skip: Hand | None = None) -> None:
    """Give the live ``hands`` (in position order) the numbers 1, 2, ... on the sheet.

    Only rows whose number really changes are written (PostgreSQL here runs without
    autovacuum: an unchanged row rewritten is dead weight). They are written one at a time, in
    an order in which no two live hands ever share a number: SQLite and PostgreSQL check the
    unique index row by row, so one UPDATE shifting many numbers could collide with itself.
    ``skip``: a hand the caller saves itself afterwards (a restored one).
    """
    target = {hand.pk: number for number, hand in enumerate(hands, 1)}
    moves = [h for h in hands if h.number != target[h.pk] and (skip is None or h.pk != skip.pk)]
    down = sorted((h for h in moves if h.number is not None and target[h.pk] < h.number), key=lambda h: target[h.pk])
    up = sorted((h for h in moves if h not in down), key=lambda h: -target[h.pk])
    for hand in down + up:
        Hand.objects.filter(pk=hand.pk).update(number=target[hand.pk])
        hand.number = target[hand.pk]


def _same_json(a: Any, b: Any) -> bool:
    # As stored: JSON with sorted keys tells true from 1 and 1 from 1.0, as a client would.
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _entered_before(meeting: Meeting, idempotency_key, payload: Any, *, hands: list | None = None) -> Hand | None:
    """The hand entered earlier with ``idempotency_key`` as it is now, or None. A retry sends
    the payload the hand was entered with, whatever was corrected, replaced or deleted
    since, and gets that hand; IdempotencyKeyReused when the payload is neither that one nor
    the hand's present one (a key must name one hand only). ``hands``: every hand of the
    meeting (deleted ones too), when the writer read them already."""
    if idempotency_key is None:
        return None
    if hands is None:
        earlier = Hand.objects.filter(meeting=meeting, idempotency_key=idempotency_key).first()
    else:
        key = Hand._meta.get_field("idempotency_key").to_python(idempotency_key)
        earlier = next((h for h in hands if h.idempotency_key == key), None)
    if earlier is None or _same_json(earlier.payload, payload):
        return earlier
    if not _same_json(_entered_payload(earlier), payload):
        raise IdempotencyKeyReused(earlier)
    return earlier


def _entered_payload(hand: Hand) -> Any:
    """The payload ``hand`` was entered with: its first history record's (a hand without
    one, its present payload)."""
    first = hand.history.filter(history_type="+").order_by("history_id").values_list("payload", flat=True).first()
    return hand.payload if first is None else first


@dataclass(frozen=True)
class Locked:
    """What a writer that holds the meeting's lock already read under it, inside the
    transaction the write joins: ``hands``, every hand of the meeting in playing order,
    deleted ones too (``selectors.meeting_hands``, whole instances), and its ``seated``
    players (``selectors.seats_of``). The meeting page reads them once, under the lock, for
    its form, the write and its answer. ``carried``: ``carried_rounds_for(meeting)``, when
    the writer asked it already (None: asked by each replay that needs it). ``before``: the
    replay of the live hands, when the writer made it (the entry's form is read against it):
    then a later evening is looked at only when the rounds this evening leaves open changed.
    A write given one may raise after writing (a later evening that would no longer add
    up): the caller's transaction rolls it back, and an IntegrityError is the caller's to
    answer (``entered_meanwhile``)."""

    hands: list[Hand]
    seated: list[selectors.Seated]
    carried: tuple[str, ...] | None = None
    before: dict[str, Any] | None = None

    @classmethod
    def read(cls, meeting: Meeting, **kwargs) -> Locked:
        """Every hand of the locked ``meeting`` and its seated players: two queries."""
        return cls(
            hands=selectors.meeting_hands(meeting=meeting, entered_by=False),
            seated=selectors.seats_of(meeting),
            **kwargs,
        )

    @property
    def live(self) -> list[Hand]:
        return [h for h in self.hands if h.deleted_at is None]

    def hand(self, pk: int) -> Hand:
        """The meeting's hand ``pk``, live or deleted; Hand.DoesNotExist when it has none."""
        hand = next((h for h in self.hands if h.pk == pk), None)
        if hand is None:
            raise Hand.DoesNotExist(f"the meeting has no hand {pk}")
        return hand


@dataclass(frozen=True)
class Entered:
    """A hand entry's answer: the ``hand``, whether it was ``created`` (False: its key named a
    hand entered before, which is the answer; nothing saved), and the ``result``, the replay
    of the meeting with it (None when nothing was saved)."""

    hand: Hand
    created: bool
    result: dict[str, Any] | None


@dataclass(frozen=True)
class Changed:
    """A correction's answer: the ``hand`` as it is now and the ``result``, the replay of the
    meeting with the correction (None when nothing was written: a replacement sent again)."""

    hand: Hand
    result: dict[str, Any] | None


def _lock_and_read(meeting: Meeting) -> tuple[Meeting, Locked]:
    meeting = lock_meeting(meeting.pk)
    return meeting, Locked.read(meeting)


def enter_hand(
    *,
    meeting: Meeting,
    payload: Any,
    by,
    number: int | None = None,
    key=None,
    now=None,
    locked: Locked | None = None,
    guest=None,
) -> Entered:
    """Append a hand entered ``by`` a user, or by a ``guest`` (``by`` None): the scorer link
    (``ScorerLink``) a guest without an account enters it by, named in the hand's history.

    ``number`` is the hand number the scorekeeper saw as next; when another phone got there
    first, HandConflict says which hand it entered, and nothing is saved. ``key`` (a UUID
    the client chose for this hand, its idempotency key): when a hand of the meeting already
    has it, that hand is the answer (``created`` False) and nothing is saved, so a retry
    never enters a hand twice; IdempotencyKeyReused when that hand had another payload.
    MeetingClosed when the meeting is closed or its evening is over (``evening_over``); the
    hand that makes it over closes it (``now``: the time it is saved, for tests).
    ``locked``: what a writer holding the meeting's lock read under it (``Locked``).
    """
    who = _Who(by, guest)
    if locked is not None:
        return _enter(meeting, locked, payload=payload, who=who, number=number, key=key, now=now)
    try:
        with transaction.atomic():
            meeting, locked = _lock_and_read(meeting)
            return _enter(meeting, locked, payload=payload, who=who, number=number, key=key, now=now)
    except IntegrityError as error:
        return entered_meanwhile(meeting, key=key, payload=payload, error=error)


@dataclass(frozen=True)
class _Who:
    """Who enters a hand: a user (``by``), or a guest by his scorer link (``guest``)."""

    by: Any
    guest: Any = None

    def sign(self, hand: Hand) -> None:
        """Name him on the historical record the hand's save writes."""
        hand._history_user = self.by
        if self.guest is not None:
            hand._history_user_name = self.guest.name
            hand._change_reason = guest_marks.reason(self.guest.pk)


def _enter(meeting: Meeting, locked: Locked, *, payload: Any, who: _Who, number, key, now) -> Entered:
    earlier = _entered_before(meeting, key, payload, hands=locked.hands)
    if earlier is not None:
        return Entered(earlier, created=False, result=None)
    hands, before, seated = locked.live, locked.before, locked.seated
    if meeting.games_planned is not None and len(hands) >= meeting.games_planned:
        raise MeetingClosed(games_full_message(meeting))
    if meeting.matches_planned is not None and hands:
        # A tournament's table that plays a robber or a match: the replay says whether it is won.
        if before is None:
            before = replay_of(meeting, hands, players=seated, carried=locked.carried)
        match = last_match(meeting, before)
        if match is not None:
            raise MeetingClosed(match_won_message(meeting, match))
    refuse_if_closed(meeting)
    if number is not None and number != len(hands) + 1:
        raise HandConflict(len(hands))
    payloads = [h.payload for h in hands]
    if hands and end_time_passed(meeting, now):
        if before is None:
            before = replay_of(meeting, hands, players=seated, carried=locked.carried)
        if evening_over(meeting, before, now=now):
            raise MeetingClosed(_("The evening is over: its last round was played after the end time."))
    request = meeting_request(meeting, payloads=payloads, players=seated)
    result, carried = calculate_with_given(
        meeting, request={**request, "hands": payloads + [payload]}, carried=locked.carried
    )
    last = locked.hands[-1].position if locked.hands else 0
    hand = Hand(
        meeting=meeting,
        position=last + 1,
        number=len(hands) + 1,
        payload=payload,
        entered_by=who.by,
        idempotency_key=key,
    )
    who.sign(hand)
    hand.save()
    write_results(meeting, hands + [hand], result, carried=carried, seated=seated)
    if before is None or outgoing_queue(before) != outgoing_queue(result):
        # The rounds this evening leaves open changed: a later evening may take them. (When
        # they did not, every later evening was given them already: nothing to look at.)
        replay_later_meetings(meeting, result)
    if last_round_done(meeting, result, now=now) or table_done(meeting, result):
        # The hand that finishes the last round after the end time ends the evening, and so
        # does a tournament table's last planned game, or the hand that wins its match.
        close_meeting_row(meeting, user=who.by, now=now)
    return Entered(hand, created=True, result=result)


def refuse_past_the_end(meeting: Meeting, result: dict[str, Any]) -> None:
    """MeetingClosed when a correction, deletion or restored hand would leave hands after a
    tournament table's last planned game or after the hand that wins its match."""
    problem = past_the_end(meeting, result)
    if problem:
        raise MeetingClosed(problem)


def entered_meanwhile(meeting: Meeting, *, key, payload: Any, error: IntegrityError) -> Entered:
    """The answer to an entry that a unique index refused (SQLite: a writer the lock did not
    catch), after its transaction was rolled back: the hand the same key entered a moment
    ago (``created`` False), else HandConflict (someone else took the position or the number)."""
    earlier = _entered_before(meeting, key, payload)
    if earlier is not None:
        return Entered(earlier, created=False, result=None)
    raise HandConflict(meeting.hands.live().count()) from error


def change_hand(*, hand: Hand, payload: Any, by, version: int, locked: Locked | None = None) -> Changed:
    """Correct a live hand that the writer saw at ``version`` (StaleHand when it changed
    since); everything after it is replayed. ``locked``: what a writer holding the meeting's
    lock read under it (``Locked``; ``hand`` is then one of its hands)."""
    if locked is not None:
        return _change(hand.meeting, locked, hand=hand, payload=payload, by=by, version=version)
    with transaction.atomic():
        meeting, locked = _lock_and_read(hand.meeting)
        return _change(meeting, locked, hand=locked.hand(hand.pk), payload=payload, by=by, version=version)


def _change(meeting: Meeting, locked: Locked, *, hand: Hand, payload: Any, by, version: int) -> Changed:
    refuse_if_closed(meeting)
    check_version(hand, version)
    if hand.deleted_at is not None:
        raise InvalidInput(
            [{"hand": None, "field": "payload", "message": _("Restore this hand before correcting it.")}]
        )
    hands, seated = locked.live, locked.seated
    stored = meeting_request(meeting, payloads=[h.payload for h in hands], players=seated)
    payloads = [payload if h.pk == hand.pk else h.payload for h in hands]
    result, carried = calculate_with_given(meeting, request={**stored, "hands": payloads}, carried=locked.carried)
    refuse_past_the_end(meeting, result)
    hand.payload = payload
    hand.version += 1
    hand._history_user = by
    hand.save(update_fields=["payload", "version", "changed_at"])
    write_results(meeting, [hand if h.pk == hand.pk else h for h in hands], result, carried=carried, seated=seated)
    replay_later_meetings(meeting, result)
    return Changed(hand, result=result)


@transaction.atomic
def delete_hand(*, hand: Hand, by, version: int, guest=None) -> Hand:
    """Mark a hand deleted (it stays in the history and can be restored); the hands after it
    move up one number. Deleting a hand the writer saw deleted already changes nothing.
    ``guest``: the scorer link of a guest who deletes it (``by`` None), named in its history."""
    meeting = lock_meeting(hand.meeting_id)
    refuse_if_closed(meeting)
    live, hand = hands_with(meeting, hand.pk)
    check_version(hand, version)
    if hand.deleted_at is not None:
        return hand
    hands = [h for h in live if h.pk != hand.pk]
    seated = selectors.seats_of(meeting)
    result, carried = calculate_with_given(meeting, payloads=[h.payload for h in hands], players=seated)
    refuse_past_the_end(meeting, result)
    hand.deleted_at = timezone.now()
    hand.number = None
    hand.version += 1
    _Who(by, guest).sign(hand)
    hand.save()
    _renumber(hands)
    write_results(meeting, hands, result, carried=carried, seated=seated)
    replay_later_meetings(meeting, result)
    return hand


@transaction.atomic
def restore_hand(*, hand: Hand, by, version: int, guest=None) -> Hand:
    """Bring a deleted hand back in its place; the hands after it move down one number.
    Restoring a hand the writer saw live already changes nothing. ``guest`` as for
    ``delete_hand``."""
    meeting = lock_meeting(hand.meeting_id)
    refuse_if_closed(meeting)
    live, hand = hands_with(meeting, hand.pk)
    check_version(hand, version)
    if hand.deleted_at is None:
        return hand
    hands = sorted(live + [hand], key=lambda h: h.position)
    seated = selectors.seats_of(meeting)
    result, carried = calculate_with_given(meeting, payloads=[h.payload for h in hands], players=seated)
    refuse_past_the_end(meeting, result)
    _renumber(hands, skip=hand)
    hand.deleted_at = None
    hand.number = hands.index(hand) + 1
    hand.version += 1
    _Who(by, guest).sign(hand)
    hand.save()
    write_results(meeting, hands, result, carried=carried, seated=seated)
    replay_later_meetings(meeting, result)
    return hand


# --- the offline outbox's choices ------------------------------------------------
# A hand entered without signal whose number another phone took meanwhile is never saved
# without the scorekeeper's choice: keep it as the next hand, let it replace theirs, or
# discard it. Each goes through the writes above (the entry, the correction with its version
# check) and leaves its mark on the hand's history record (``outbox_choices``), so that the
# evening's history says what was chosen and by whom.


def _mark_latest(hand: Hand, text: str) -> None:
    """Give the hand's newest history record (the one the write just made, in this
    transaction) the change reason ``text``."""
    latest = hand.history.order_by("-history_date", "-history_id").values_list("history_id", flat=True).first()
    Hand.history.filter(history_id=latest).update(history_change_reason=text)


def keep_offline_hand(*, meeting: Meeting, payload: Any, by, number: int, key, entered_as: int, now=None) -> Entered:
    """Enter a hand kept as the next hand (``enter_hand``: ``number`` is the sheet's next
    one, HandConflict when that was taken too); its history says the number it was entered
    as. The same key again: the hand kept before, nothing written."""
    with transaction.atomic():
        entered = enter_hand(meeting=meeting, payload=payload, by=by, number=number, key=key, now=now)
        if entered.created:
            _mark_latest(entered.hand, outbox_choices.reason(choice=outbox_choices.KEEP, entered_as=entered_as))
    return entered


def _replaced_before(meeting: Meeting, idempotency_key, payload: Any) -> Hand | None:
    """The hand replaced earlier with ``idempotency_key`` (found by its history record), or
    None; IdempotencyKeyReused when that replacement had another payload."""
    record = (
        Hand.history.filter(
            meeting_id=meeting.pk, history_change_reason__endswith=outbox_choices.replaced_with_key(idempotency_key)
        )
        .order_by("-history_id")
        .first()
    )
    if record is None:
        return None
    hand = Hand.objects.get(pk=record.id)
    if not _same_json(record.payload, payload):
        raise IdempotencyKeyReused(hand)
    return hand


@transaction.atomic
def replace_hand(*, hand: Hand, payload: Any, by, version: int, key, entered_as: int | None = None) -> Changed:
    """A hand entered offline takes the place of ``hand`` (the one another phone stored
    under its number): a correction at the ``version`` the scorekeeper saw beside his own
    (``change_hand``: StaleHand when it changed since), every later figure replayed. ``key``
    is the waiting hand's idempotency key: sent again, the hand as it is now and no replay,
    nothing written twice."""
    meeting = lock_meeting(hand.meeting_id)
    earlier = _replaced_before(meeting, key, payload)
    if earlier is not None:
        return Changed(earlier, result=None)
    entered = Hand.objects.filter(meeting=meeting, idempotency_key=key).first()
    if entered is not None:
        # That hand is on the sheet already as a hand of its own: it cannot also replace one.
        raise IdempotencyKeyReused(entered)
    try:
        changed = change_hand(hand=hand, payload=payload, by=by, version=version)
    except StaleHand:
        # Two sends of one replacement at once: the first one's version check stops the
        # second (SQLite has no row lock); its record answers.
        earlier = _replaced_before(meeting, key, payload)
        if earlier is None:
            raise
        return Changed(earlier, result=None)
    reason = outbox_choices.reason(choice=outbox_choices.REPLACE, entered_as=entered_as or changed.hand.number, key=key)
    _mark_latest(changed.hand, reason)
    return changed


def discard_offline_hand(*, meeting: Meeting, payload: Any, by, key, entered_as: int, now=None) -> Entered:
    """Discard a hand entered offline (the same game as the one another phone stored under
    its number): it is kept as a deleted hand (never on the sheet, restorable like any deleted
    hand), so the history shows what was thrown away, by whom, and the number it was entered
    as. Nothing is replayed: no live hand changes. The same key again: that hand, nothing
    written (``created`` False)."""
    try:
        with transaction.atomic():
            meeting = lock_meeting(meeting.pk)
            earlier = Hand.objects.filter(meeting=meeting, idempotency_key=key).first()
            if earlier is not None:
                if earlier.deleted_at is None:
                    raise IdempotencyKeyReused(earlier)  # on the sheet: not discarded
                return Entered(earlier, created=False, result=None)
            last = meeting.hands.order_by("-position").values_list("position", flat=True).first() or 0
            hand = Hand(
                meeting=meeting,
                position=last + 1,
                number=None,
                deleted_at=now or timezone.now(),
                payload=payload,
                entered_by=by,
                idempotency_key=key,
            )
            hand._history_user = by
            hand._change_reason = outbox_choices.reason(choice=outbox_choices.DISCARD, entered_as=entered_as)
            hand.save()
            return Entered(hand, created=True, result=None)
    except IntegrityError:
        # The same discard sent twice at once (SQLite): the first one stored it.
        earlier = Hand.objects.filter(meeting=meeting, idempotency_key=key).first()
        if earlier is None:
            raise
        return Entered(earlier, created=False, result=None)
