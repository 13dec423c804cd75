"""The evening's history and why a hand scored what it did."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.views.decorators.http import require_GET

from leagues.models import Hand
from leagues.table import hand_history, sheet
from leagues.table import selectors as table_selectors
from leagues.table.hand_entry import form_module
from leagues.table.views.meeting import can_write, member_meeting, replay_hands


def live_index(live, hand):
    for index, other in enumerate(live):
        if other.pk == hand.pk:
            return index
    return None


def why_context(request, meeting, membership, hand):
    hands = table_selectors.meeting_hands(meeting=meeting)
    live = [h for h in hands if h.deleted_at is None]
    module = form_module(meeting.game)
    figures = row = None
    index = live_index(live, hand)
    result, broken = replay_hands(meeting, [h.payload for h in live])
    if result is not None and index is not None:
        figures = result["hands"][index]
        # The whole sheet, so that a won game is numbered as the sheet numbers it.
        row = sheet.sheet_rows(result=result, live_hands=live)[index]
    labels = getattr(module, "LABELS", {})
    return {
        "meeting": meeting,
        "league": meeting.league,
        "hand": hand,
        "number": index + 1 if index is not None else None,
        # A deleted hand: the number it had on the sheet (one query, for such a hand only).
        "former": hand_history.former_numbers(hand_ids=[hand.pk]).get(hand.pk) if index is None else None,
        "winner": labels.get(figures.get("winner"), figures.get("winner")) if figures else None,
        "triggers": [labels.get(t, t) for t in (figures.get("triggers") or ())] if figures else [],
        "figures": figures,
        "row": row,
        "parties": result["parties"] if result else [],
        "lines": sheet.describe_payload(module=module, payload=hand.payload),
        # A closed evening's hands are read-only: no correct, delete or restore buttons.
        "can_write": can_write(membership) and meeting.closed_at is None,
        "broken": broken,
    }


@login_required
@require_GET
def hand_why(request, slug, pk, hand_pk):
    """Why a hand scored what it did: value breakdown, multiplier, triggers, the hand."""
    meeting, membership = member_meeting(request, slug, pk)
    hand = get_object_or_404(Hand.objects.select_related("entered_by"), pk=hand_pk, meeting=meeting)
    template = "meetings/hand.html#why" if request.htmx else "meetings/hand.html"
    return render(request, template, why_context(request, meeting, membership, hand))


def stale_notice(error):
    """What the 409 page says about the hand someone else changed meanwhile."""
    return {"by": error.changed_by, "at": error.changed_at, "deleted": error.hand.deleted_at is not None}


@login_required
@require_GET
def meeting_history(request, slug, pk):
    meeting, membership = member_meeting(request, slug, pk)
    context = {
        "meeting": meeting,
        "league": meeting.league,
        "entries": hand_history.evening_history(meeting=meeting),
        "can_write": can_write(membership) and meeting.closed_at is None,
        "reopenings": meeting.reopenings.select_related("reopened_by", "was_closed_by"),
    }
    return render(request, "meetings/history.html", context)


urlpatterns = [
    path("l/<slug:slug>/m/<int:pk>/history/", meeting_history, name="meeting_history"),
    path("l/<slug:slug>/m/<int:pk>/h/<int:hand_pk>/", hand_why, name="hand_why"),
]
