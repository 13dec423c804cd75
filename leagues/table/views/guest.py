"""The guest scorer's pages: the sheet of the one table his link is for, with the hand form,
and nothing else of the league (no standings, no other tables, no league's links). Every
address names the link's token and the table (``/s/<token>/m/<pk>/``); a link that no longer
works, or is not the link of the table named, is refused with a page that says why (403),
never a login (leagues/table/scorer_links.py says when a link works).

A hand goes through the same write as a member's (``services.enter_hand``, ``by`` None and
``guest`` the link), under the meeting's lock, so the history names the guest. The answer is
the guest's table (htmx) or his page again (a plain POST).
"""

import uuid
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import re_path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from leagues import exceptions
from leagues.table import evening, scorer_links, services, undo
from leagues.table import selectors as table_selectors
from leagues.table.forms import HandEntryForm
from leagues.table.hand_entry import form_module
from leagues.table.scorer_links import LinkRefused
from leagues.table.views.hands import control_errors, initial_of
from leagues.table.views.meeting import (
    carried_rounds,
    form_context,
    next_context,
    page_errors,
    replay_hands,
    seat_names,
    seated,
    sheet_part,
)

# A token is "<id>.<nonce>:<signature>" (scorer_links.token_of); anything else matches no URL.
TOKEN = r"(?P<token>[0-9]{1,18}\.[A-Za-z0-9_-]{1,16}:[A-Za-z0-9_-]{1,64})"


def refusal_words():
    """What the refusal page says for each reason a link does not open."""
    return {
        scorer_links.INVALID: _("This scorer link is not valid. Ask the scorekeeper at your table for a new one."),
        scorer_links.OTHER_TABLE: _("This scorer link is for another table: it enters hands at its own table only."),
        scorer_links.REVOKED: _(
            "A scorekeeper has withdrawn this scorer link. Ask for a new one if you still keep score."
        ),
        scorer_links.ENDED: _("This table's evening has ended: its scorer links no longer enter hands."),
        scorer_links.EXPIRED: _("This scorer link has expired: it was for one evening only."),
    }


def refused(request, why):
    """The refusal page (403): why this link enters no hand here."""
    context = {"message": refusal_words()[why]}
    return render(request, "meetings/guest_refused.html", context, status=403)


def _link(token, pk):
    link = scorer_links.usable_link(token=token)
    scorer_links.for_table(link, pk=pk)
    return link


def guest_context(request, link, meeting, *, hands=None, replayed=None, **shown):
    """The guest's table: what comes next, the form and the sheet. ``hands``: every hand of
    the meeting as the write read them under its lock; ``replayed``: (the live hands, their
    replay) the write made. ``shown``: the form's ``initial``, ``errors`` and
    ``idempotency_key``, a ``conflict`` or a ``refusal`` to say above it, the hand he just
    ``undone`` (its id) and ``mine``, ids of hands known to be his (undo.guest_offers)."""
    if hands is None:
        hands = table_selectors.meeting_hands(meeting=meeting, entered_by=False)
    live = [h for h in hands if h.deleted_at is None]
    if replayed is not None and [(h.pk, h.version) for h in live] == [(h.pk, h.version) for h in replayed[0]]:
        result, broken = replayed[1], []
    else:
        result, broken = replay_hands(meeting, [h.payload for h in live])
    context = {
        "meeting": meeting,
        "league": meeting.league,
        "link": link,
        "players": seat_names(meeting),
        "hand_number": len(live) + 1,
        "rows": [],
        "broken": broken,
        "conflict": shown.get("conflict"),
        "closed_refusal": shown.get("refusal"),
        "undo": None,
        "undone": None,
        "after_end": evening.end_time_passed(meeting),
    }
    if result is None:
        return context
    over = evening.evening_over(meeting, result)
    module = form_module(meeting.game)
    context["evening_over"] = over
    context["last_round"] = not over and evening.has_rounds(result) and context["after_end"]
    context.update(
        form_context(
            request,
            meeting,
            players=context["players"],
            result=result,
            module=module,
            initial=shown.get("initial"),
            errors=shown.get("errors"),
            hand_number=context["hand_number"],
        )
    )
    context.update(sheet_part(meeting, context, result=result, live=live, idempotency_key=shown.get("idempotency_key")))
    context["hand_url"] = reverse("guest_hand", kwargs={"token": scorer_links.token_of(link), "pk": meeting.pk})
    if not over:
        context.update(next_context(context, module=module))
        offered = undo.guest_offers(
            link=link, meeting=meeting, hands=hands, undone=shown.get("undone"), mine=shown.get("mine", ())
        )
        context.update(offered)
    return context


def render_guest(request, link, meeting, *, status=200, **kwargs):
    context = guest_context(request, link, meeting, **kwargs)
    template = "meetings/guest.html#table" if request.htmx else "meetings/guest.html"
    return render(request, template, context, status=status)


@require_GET
def guest_table(request, token, pk):
    """The guest's page: his table's sheet and the hand form."""
    try:
        link = _link(token, int(pk))
    except LinkRefused as refusal:
        return refused(request, refusal.why)
    meeting = table_selectors.league_meeting(league=link.meeting.league, pk=link.meeting_id)
    if meeting is None:
        raise Http404
    return render_guest(request, link, meeting, undone=request.GET.get("undone"))


@dataclass
class _Draft:
    """The hand the guest's phone sends, as read under the meeting's lock."""

    expected: int | None
    key: uuid.UUID | None
    link: object = None
    meeting: object = None
    module: object = None
    payload: object = None
    number: int | None = None
    hands: list = field(default_factory=list)


@require_POST
def guest_hand(request, token, pk):
    """Save the guest's next hand: his table again (200), with the form's problems (400), or
    with the hand someone else entered first (409); a link that no longer works, or an
    evening closed meanwhile, is refused (403). The same form sent twice enters its hand
    once."""
    try:
        link = _link(token, int(pk))
    except LinkRefused as refusal:
        return refused(request, refusal.why)
    control = HandEntryForm(request.POST)
    data = control.cleaned_data if control.is_valid() else {}
    draft = _Draft(expected=data.get("expected_hand"), key=data.get("idempotency_key"), link=link)
    try:
        with transaction.atomic():
            answer = _read_and_enter(request, control, draft)
    except IntegrityError as error:
        try:
            answer = services.entered_meanwhile(draft.meeting, key=draft.key, payload=draft.payload, error=error)
        except (exceptions.HandConflict, exceptions.IdempotencyKeyReused) as taken:
            return _conflict(request, draft, taken)
    except (exceptions.HandConflict, exceptions.IdempotencyKeyReused) as taken:
        return _conflict(request, draft, taken)
    except exceptions.MeetingClosed as error:
        if draft.meeting.closed_at is not None:
            return refused(request, scorer_links.ENDED)
        return render_guest(request, link, draft.meeting, status=400, refusal=error.errors[0]["message"])
    except exceptions.InvalidInput as error:
        return _form_errors(request, draft, page_errors(draft.meeting, error.errors))
    if not isinstance(answer, services.Entered):
        return answer
    if not request.htmx:
        return redirect(reverse("guest_table", kwargs={"token": token, "pk": pk}) + "#sheet")
    if answer.result is None:  # the hand its key entered before: nothing written
        return render_guest(request, link, draft.meeting)
    # The table from the write's own replay and the hands read under the lock.
    hands = [*draft.hands, answer.hand]
    replayed = ([h for h in hands if h.deleted_at is None], answer.result)
    return render_guest(request, link, draft.meeting, hands=hands, replayed=replayed, mine=[answer.hand.pk])


def _read_and_enter(request, control, draft):
    """Under the meeting's lock, taken first: the hands, their replay, the form read against
    it, and the write. The hand entered (or entered before with the same key), or the answer
    that saves nothing."""
    link = draft.link
    meeting = draft.meeting = table_selectors.meeting_for_entry(league=link.meeting.league, pk=link.meeting_id)
    if meeting is None:
        raise Http404
    draft.module = form_module(meeting.game)
    hands = draft.hands = table_selectors.meeting_hands(meeting=meeting, entered_by=False)
    # The key is looked for before the form is read: once its hand is saved, the same form
    # may no longer fit the evening, yet it is that hand.
    earlier = next((h for h in hands if h.idempotency_key == draft.key), None) if draft.key else None
    if earlier is not None:
        return services.Entered(earlier, created=False, result=None)
    live = [h for h in hands if h.deleted_at is None]
    draft.number = len(live) + 1
    carried = carried_rounds(meeting)
    result, _broken = replay_hands(meeting, [h.payload for h in live], carried)
    if result is None:
        return render_guest(request, link, meeting, status=400, hands=hands)
    draft.payload, read_errors = draft.module.payload_from_post(
        request.POST, players=seat_names(meeting), result=result
    )
    if draft.expected is not None and draft.expected != draft.number:
        raise exceptions.HandConflict(draft.number - 1)
    if control.errors or read_errors:
        errors = [{"hand": draft.number, "field": f, "message": m} for f, m in read_errors.items()]
        return _form_errors(request, draft, errors + control_errors(control, draft.number))
    locked = services.Locked(hands=hands, seated=seated(meeting), carried=carried, before=result)
    return services.enter_hand(
        meeting=meeting,
        payload=draft.payload,
        by=None,
        guest=link,
        number=draft.expected,
        key=draft.key,
        locked=locked,
    )


def _form_errors(request, draft, errors):
    """The table again with the form's problems on its fields (400), nothing saved; the form
    keeps its idempotency key."""
    initial = initial_of(draft.module, draft.payload)
    return render_guest(
        request, draft.link, draft.meeting, status=400, initial=initial, errors=errors, idempotency_key=draft.key
    )


def _conflict(request, draft, taken):
    """Someone else entered the hand first: the table as it is now, with what the guest
    entered still in the form (409)."""
    if isinstance(taken, exceptions.IdempotencyKeyReused):
        number = taken.hand.number or draft.number
    else:
        number = draft.expected or draft.number
    initial = initial_of(draft.module, draft.payload) if draft.module else None
    return render_guest(request, draft.link, draft.meeting, status=409, initial=initial, conflict={"number": number})


urlpatterns = [
    re_path(rf"^s/{TOKEN}/m/(?P<pk>[0-9]{{1,18}})/$", guest_table, name="guest_table"),
    re_path(rf"^s/{TOKEN}/m/(?P<pk>[0-9]{{1,18}})/hands/$", guest_hand, name="guest_hand"),
]
