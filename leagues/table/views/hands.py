"""Entering, correcting, deleting and restoring a hand. The entry answers htmx with the table
(or only the new row), the form with its problems, or the refreshed table when another phone
entered that hand first; without JavaScript the same answers come as whole pages. Each write
is one call of ``leagues.table.services``."""

import uuid
from dataclasses import dataclass, field

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from leagues import exceptions
from leagues.models import Hand, Role
from leagues.permissions import meeting_for
from leagues.table import selectors as table_selectors
from leagues.table import services, sheet, undo
from leagues.table.forms import HandEntryForm, HandVersionForm
from leagues.table.hand_entry import form_module
from leagues.table.hand_entry.words import hand_words
from leagues.table.views.history import live_index, stale_notice, why_context
from leagues.table.views.meeting import (
    carried_rounds,
    errors_by_field,
    form_context,
    member_meeting,
    page_errors,
    render_table,
    replay_hands,
    seat_names,
    seated,
    table_context,
)


def control_errors(form, number):
    """A hidden input's problems, by field (the page lists them above the form)."""
    return [
        {"hand": number, "field": field, "message": message}
        for field, messages_ in form.errors.items()
        for message in messages_
    ]


def _saved(request, meeting, membership, hand, replayed=None, hands=None, append=False):
    # The hand may have closed the evening (the last of its last round): show it closed. A
    # write that just replayed knows (``hand.meeting`` is the meeting it locked and closed).
    if replayed is not None:
        meeting.closed_at, meeting.closed_by_id = hand.meeting.closed_at, hand.meeting.closed_by_id
    else:
        meeting.refresh_from_db(fields=["closed_at", "closed_by"])
    if request.htmx:
        if append:
            answer = _appended(request, meeting, membership, replayed=replayed, hands=hands)
            if answer is not None:
                return answer
        return render_table(request, meeting, membership, replayed=replayed, hands=hands)
    messages.success(request, _("Hand %(number)s saved.") % {"number": hand.number or ""})
    return redirect(meeting.get_absolute_url() + "#sheet")


def _appended(request, meeting, membership, *, replayed, hands):
    """The answer to an htmx entry of the hand its phone expected: what comes next and the
    form, and the new hand's row appended to the sheet, instead of the whole table
    (templates/meetings/meeting.html, "appended"). None when the sheet changes otherwise:
    its first row (the phone shows no sheet yet), its legend, or the evening (over, or
    closed): then the whole table is sent."""
    context = table_context(request, meeting, membership, replayed=replayed, hands=hands)
    rows = context["rows"]
    if len(rows) < 2 or context["evening_over"] or context["closed"]:
        return None
    if any(row["round_label"] for row in rows[:-1]) != context["special_rounds"]:
        return None  # the new row brings the legend of the special rounds
    response = render(request, "meetings/meeting.html#appended", context)
    return reswap(retarget(response, "#at-entry"), "outerHTML")


@dataclass
class _Draft:
    """The hand a phone sends, as the entry reads it under the meeting's lock: what the
    answers need whichever way the write ends."""

    expected: int | None
    key: uuid.UUID | None
    mark: str = ""
    meeting: object = None
    membership: object = None
    module: object = None
    hands: list = field(default_factory=list)
    live: list = field(default_factory=list)
    number: int | None = None
    result: dict | None = None
    payload: object = None


@login_required
@require_POST
def hand_add_hx(request, slug, pk):
    """Save the next hand. htmx gets the refreshed table (200), the form with its problems
    (400), or, when another phone entered this hand first, the refreshed table with a notice
    (409). Without JavaScript the same answers come as whole pages. The same form sent
    twice (a double tap, a POST sent again after a reload) enters its hand once."""
    control = HandEntryForm(request.POST)
    data = control.cleaned_data if control.is_valid() else {}
    draft = _Draft(expected=data.get("expected_hand"), key=data.get("idempotency_key"), mark=data.get("sheet_mark", ""))
    try:
        with transaction.atomic():
            answer = _read_and_enter(request, slug, pk, control, draft)
    except IntegrityError as error:
        try:
            answer = services.entered_meanwhile(draft.meeting, key=draft.key, payload=draft.payload, error=error)
        except (exceptions.HandConflict, exceptions.IdempotencyKeyReused) as taken:
            return _conflict(request, draft, taken)
        return _saved(request, draft.meeting, draft.membership, answer.hand)
    except (exceptions.HandConflict, exceptions.IdempotencyKeyReused) as taken:
        return _conflict(request, draft, taken)
    except exceptions.MeetingClosed as error:
        # A phone that still showed the form: the sheet as it is now, with the evening over.
        message = error.errors[0]["message"]
        return render_table(request, draft.meeting, draft.membership, status=400, closed_refusal=message)
    except exceptions.InvalidInput as error:
        return _form_errors(request, draft, page_errors(draft.meeting, error.errors))
    if not isinstance(answer, services.Entered):
        return answer
    # The table is rendered from the write's own replay and the hands it read under the lock,
    # not read and replayed a third time; the phone that expected this hand's number shows
    # the sheet before it, and gets only the new hand's row for it, unless another phone
    # changed an earlier hand since that sheet was shown (its rows are stale).
    hand = answer.hand
    replayed = (draft.live + [hand], answer.result)
    append = draft.expected is not None and draft.mark == sheet.sheet_mark(draft.live)
    return _saved(request, draft.meeting, draft.membership, hand, replayed, draft.hands + [hand], append)


def _read_and_enter(request, slug, pk, control, draft):
    """Under the meeting's lock, taken first: what the form is read against (the hands, the
    seats, their replay) is what the write writes after, read once. The hand entered, or
    the answer that saves nothing."""
    meeting, membership = meeting_for(user=request.user, slug=slug, pk=pk, role=Role.SCOREKEEPER, lock=True)
    draft.meeting, draft.membership, draft.module = meeting, membership, form_module(meeting.game)
    hands = draft.hands = table_selectors.meeting_hands(meeting=meeting, entered_by=False)
    # The key is looked for before the form is read: once its hand is saved, the same form
    # may no longer fit the evening (the next dealer sits out now), yet it is that hand.
    earlier = next((h for h in hands if h.idempotency_key == draft.key), None) if draft.key else None
    if earlier is not None:
        return _saved(request, meeting, membership, earlier, hands=hands)
    draft.live = [h for h in hands if h.deleted_at is None]
    draft.number = len(draft.live) + 1
    carried = carried_rounds(meeting)
    draft.result, _broken = replay_hands(meeting, [h.payload for h in draft.live], carried)
    if draft.result is None:
        return render_table(request, meeting, membership, status=400, hands=hands)
    draft.payload, read_errors = draft.module.payload_from_post(
        request.POST, players=seat_names(meeting), result=draft.result
    )
    if draft.expected is not None and draft.expected != draft.number:
        # The sheet on this phone was stale: someone else entered that hand already.
        return _conflict(request, draft, exceptions.HandConflict(draft.number - 1))
    if control.errors or read_errors:
        errors = [{"hand": draft.number, "field": f, "message": m} for f, m in read_errors.items()]
        return _form_errors(request, draft, errors + control_errors(control, draft.number))
    locked = services.Locked(hands=hands, seated=seated(meeting), carried=carried, before=draft.result)
    return services.enter_hand(
        meeting=meeting, payload=draft.payload, by=request.user, number=draft.expected, key=draft.key, locked=locked
    )


def initial_of(module, payload):
    return module.initial_from_payload(payload) if isinstance(payload, dict) else {}


def _form_errors(request, draft, errors):
    """The form again with its problems on the fields, status 400, nothing saved. It keeps
    its idempotency key (nothing was saved with it); htmx swaps only the form, the sheet
    stays as it was."""
    meeting, initial = draft.meeting, initial_of(draft.module, draft.payload)
    if not request.htmx:
        return render_table(
            request, meeting, draft.membership, status=400, initial=initial, errors=errors, idempotency_key=draft.key
        )
    context = {
        "meeting": meeting,
        "league": meeting.league,
        "can_write": True,
        "hand_url": reverse("hand_add_hx", kwargs={"slug": meeting.league.slug, "pk": meeting.pk}),
        "idempotency_key": draft.key or uuid.uuid4(),
        "sheet_mark": draft.mark,
        "say": hand_words(meeting.league.game),
        # The save bar keeps the last hand's undo (the form it submits stays on the page).
        "undo": undo.offers(
            meeting=meeting,
            hands=table_selectors.meeting_hands(meeting=meeting, entered_by=False),
            user=request.user,
            may_write=True,
        )["undo"],
        **form_context(
            request,
            meeting,
            players=seat_names(meeting),
            result=draft.result,
            module=draft.module,
            initial=initial,
            errors=errors,
            hand_number=draft.number,
        ),
    }
    response = render(request, "meetings/meeting.html#hand_form", context, status=400)
    return reswap(retarget(response, "#hand-form"), "outerHTML")


def _conflict(request, draft, taken):
    """Someone else entered the hand first (``taken``: HandConflict, or IdempotencyKeyReused
    naming the hand its key entered): show the refreshed sheet and keep what this phone
    entered in the form (nothing is saved twice, nothing typed is lost)."""
    if isinstance(taken, exceptions.IdempotencyKeyReused):
        number = taken.hand.number or draft.number
    else:
        number = draft.expected or draft.number
    initial = initial_of(draft.module, draft.payload)
    response = render_table(
        request, draft.meeting, draft.membership, status=409, initial=initial, conflict={"number": number}
    )
    if request.htmx:
        response = reswap(retarget(response, "#at-table"), "outerHTML")
    return response


def stale_page(request, meeting, membership, error):
    """A correction, delete or restore of a hand someone else changed meanwhile: nothing is
    saved; the page shows the hand as it is now, who changed it and when (409)."""
    hand = Hand.objects.select_related("entered_by").get(pk=error.hand.pk)
    context = why_context(request, meeting, membership, hand)
    context["stale"] = stale_notice(error)
    return render(request, "meetings/hand.html", context, status=409)


@login_required
@require_http_methods(["GET", "POST"])
def hand_edit(request, slug, pk, hand_pk):
    """Correct a hand: the same form, pre-filled; everything after it is replayed. The form
    carries the version of the hand it showed: when someone else changed the hand since,
    nothing is saved and the page shows the hand as it is now, with what was typed (409)."""
    if request.method == "GET":
        meeting, membership = member_meeting(request, slug, pk, role=Role.SCOREKEEPER)
        hand = get_object_or_404(Hand, pk=hand_pk, meeting=meeting, deleted_at=None)
        return _edit_page(request, meeting, membership, hand)
    control = HandVersionForm(request.POST)
    # The meeting's lock from the start: the hands the form is read against are those the
    # correction writes over, read once.
    with transaction.atomic():
        meeting, membership = meeting_for(user=request.user, slug=slug, pk=pk, role=Role.SCOREKEEPER, lock=True)
        hands = table_selectors.meeting_hands(meeting=meeting, entered_by=False)
        hand = next((h for h in hands if h.pk == hand_pk), None)
        if hand is None:
            raise Http404
        if hand.deleted_at is not None and control.is_valid():
            # Deleted since this phone opened the form: no correction can apply to it.
            return _deleted_meanwhile(request, meeting, membership, hand)
        locked = services.Locked(hands=hands, seated=seated(meeting), carried=carried_rounds(meeting))
        version = control.cleaned_data["version"] if control.is_valid() else None
        return _edit_page(
            request,
            meeting,
            membership,
            hand,
            post=request.POST,
            version=version,
            control=None if control.is_valid() else control,
            locked=locked,
        )


def _deleted_meanwhile(request, meeting, membership, hand):
    by, at = services.last_change(hand)
    return stale_page(request, meeting, membership, exceptions.StaleHand(hand, changed_by=by, changed_at=at))


@dataclass(frozen=True)
class _Edit:
    """The hand being corrected, its number on the sheet, the replay of the hands before it
    (the form sees the evening as it stood then: its dealer, who was active) and the game's
    form module."""

    hand: Hand
    number: int
    before: dict
    module: object


def _edit_page(request, meeting, membership, hand, *, post=None, version=None, control=None, stale=None, locked=None):
    """The correction's page; ``locked``: what a POST read under the meeting's lock, with
    which the correction is written (a GET reads the hands here, for the form only)."""
    if locked is None:
        hands = table_selectors.meeting_hands(meeting=meeting, entered_by=False)
    else:
        hands = locked.hands
    live = [h for h in hands if h.deleted_at is None]
    index = live_index(live, hand)
    if index is None:  # deleted a moment ago
        return _deleted_meanwhile(request, meeting, membership, hand)
    before, broken = replay_hands(meeting, [h.payload for h in live[:index]], locked and locked.carried)
    if before is None:
        # The hands before it no longer replay (a rule or a name changed since): the form
        # cannot be built, so show the sheet with what is wrong (fix or delete those first).
        context = table_context(request, meeting, membership)
        context["broken"] = context["broken"] or broken
        return render(request, "meetings/meeting.html", context, status=400)
    edit = _Edit(hand=hand, number=index + 1, before=before, module=form_module(meeting.game))
    if post is None:
        return _edit_form(request, meeting, edit, initial=edit.module.initial_from_payload(hand.payload))
    return _correct(
        request, meeting, membership, edit, post, version=version, control=control, stale=stale, locked=locked
    )


def _correct(request, meeting, membership, edit, post, *, version, control, stale, locked):
    """Write the correction posted, or answer with the form and its problems (400), or with
    the hand as someone else changed it meanwhile and what was typed (409)."""
    payload, read_errors = edit.module.payload_from_post(post, players=seat_names(meeting), result=edit.before)
    errors = [{"hand": edit.number, "field": f, "message": m} for f, m in read_errors.items()]
    if control is not None:
        errors += control_errors(control, edit.number)
    elif not errors and stale is None:
        try:
            # Its own savepoint: a correction may raise after writing (a later evening that
            # would no longer add up), and then nothing of it may stay.
            with transaction.atomic():
                services.change_hand(hand=edit.hand, payload=payload, by=request.user, version=version, locked=locked)
        except exceptions.StaleHand as error:
            if error.hand.deleted_at is not None:
                return stale_page(request, meeting, membership, error)
            # Built again from the hand as it is now, keeping what this phone typed.
            return _edit_page(
                request, meeting, membership, error.hand, post=post, version=version, stale=error, locked=locked
            )
        except exceptions.InvalidInput as error:
            errors = page_errors(meeting, error.errors)
        else:
            messages.success(request, _("Hand %(number)s corrected.") % {"number": edit.number})
            return redirect(meeting.get_absolute_url() + f"#hand-{edit.number}")
    # A form with problems keeps the version its phone saw, so that saving it again still
    # cannot overwrite a correction made by someone else in the meantime.
    shown = edit.hand.version if stale is not None or version is None else version
    initial = initial_of(edit.module, payload)
    status = 409 if stale is not None else 400
    return _edit_form(request, meeting, edit, initial=initial, errors=errors, version=shown, stale=stale, status=status)


def _edit_form(request, meeting, edit, *, initial, errors=(), version=None, stale=None, status=200):
    context = {
        "meeting": meeting,
        "league": meeting.league,
        "hand": edit.hand,
        "number": edit.number,
        "version": edit.hand.version if version is None else version,
        "stale": stale_notice(stale) if stale is not None else None,
        "stale_lines": sheet.describe_payload(module=edit.module, payload=edit.hand.payload)
        if stale is not None
        else [],
        **form_context(
            request,
            meeting,
            players=seat_names(meeting),
            result=edit.before,
            module=edit.module,
            initial=initial,
            errors=list(errors),
            hand_number=edit.number,
        ),
    }
    return render(request, "meetings/hand_edit.html", context, status=status)


def _refused(request, meeting, membership, error):
    """A delete or restore that would leave the evening impossible: say why, change nothing."""
    _fields, lines = errors_by_field([{**e, "field": None} for e in page_errors(meeting, error.errors)], None)
    context = table_context(request, meeting, membership)
    context["refused"] = lines
    return render(request, "meetings/meeting.html", context, status=400)


def _hand_write(request, slug, pk, hand_pk, write, done_message):
    """Delete or restore (``write``) the hand at the version its form showed."""
    meeting, membership = member_meeting(request, slug, pk, role=Role.SCOREKEEPER)
    hand = get_object_or_404(Hand.objects.select_related("entered_by"), pk=hand_pk, meeting=meeting)
    control = HandVersionForm(request.POST)
    if not control.is_valid():
        context = why_context(request, meeting, membership, hand)
        context["refused"] = [message for messages_ in control.errors.values() for message in messages_]
        return render(request, "meetings/hand.html", context, status=400)
    try:
        write(hand=hand, by=request.user, version=control.cleaned_data["version"])
    except exceptions.StaleHand as error:
        return stale_page(request, meeting, membership, error)
    except exceptions.InvalidInput as error:
        return _refused(request, meeting, membership, error)
    messages.success(request, done_message)
    return redirect(meeting.get_absolute_url() + "#sheet")


@login_required
@require_POST
def hand_delete(request, slug, pk, hand_pk):
    return _hand_write(
        request, slug, pk, hand_pk, services.delete_hand, _("Hand deleted. You can restore it below the sheet.")
    )


@login_required
@require_POST
def hand_restore(request, slug, pk, hand_pk):
    return _hand_write(request, slug, pk, hand_pk, services.restore_hand, _("Hand restored."))


urlpatterns = [
    path("l/<slug:slug>/m/<int:pk>/hands/_hx/", hand_add_hx, name="hand_add_hx"),
    path("l/<slug:slug>/m/<int:pk>/h/<int:hand_pk>/edit/", hand_edit, name="hand_edit"),
    path("l/<slug:slug>/m/<int:pk>/h/<int:hand_pk>/delete/", hand_delete, name="hand_delete"),
    path("l/<slug:slug>/m/<int:pk>/h/<int:hand_pk>/restore/", hand_restore, name="hand_restore"),
]
