"""Undo the last hand in one tap, and the undo of the undo (leagues/table/undo.py says what is
allowed). Plain POST forms: without JavaScript the undo answers with the meeting page, which
offers the undo of the undo above the form (its address names the hand undone); with htmx
both answer with the table, the offer in it (static/js/at-table.js shows it for a few seconds
as a toast at the foot of the screen). A refusal answers with the table and why, nothing
changed: 400, or 409 when the hand was changed meanwhile."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.urls import path
from django.utils import formats
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from leagues import exceptions
from leagues.models import Hand, Role
from leagues.permissions import meeting_for
from leagues.table import undo
from leagues.table.forms import HandVersionForm
from leagues.table.views.meeting import render_table


def _who(user):
    if user is None:
        return _("Someone")
    return user.get_short_name() or user.get_username()


def stale_message(error, number, *, redo):
    words = {"who": _who(error.changed_by), "number": number}
    if redo:
        return _("%(who)s changed this hand after this page was shown: it did not come back.") % words
    return _("%(who)s changed hand %(number)s after this page was shown: nothing was undone.") % words


def _write(request, slug, pk, hand_pk, *, redo):
    """Undo (or, ``redo``, undo the undo of) the hand at the version its form showed: the
    written hand, or the answer that refuses it."""
    meeting, membership = meeting_for(user=request.user, slug=slug, pk=pk, role=Role.SCOREKEEPER)
    hand = get_object_or_404(Hand, pk=hand_pk, meeting=meeting)
    control = HandVersionForm(request.POST)
    if not control.is_valid():
        refusal = " ".join(m for messages_ in control.errors.values() for m in messages_)
        return meeting, membership, render_table(request, meeting, membership, status=400, closed_refusal=refusal)
    write = undo.redo_hand if redo else undo.undo_last_hand
    number = hand.number
    try:
        hand = write(hand=hand, user=request.user, version=control.cleaned_data["version"])
    except exceptions.StaleHand as error:
        message = stale_message(error, number, redo=redo)
        return meeting, membership, render_table(request, meeting, membership, status=409, closed_refusal=message)
    except exceptions.InvalidInput as error:
        message = " ".join(e["message"] for e in error.errors)
        return meeting, membership, render_table(request, meeting, membership, status=400, closed_refusal=message)
    return meeting, membership, hand


@login_required
@require_POST
def hand_undo(request, slug, pk, hand_pk):
    meeting, membership, done = _write(request, slug, pk, hand_pk, redo=False)
    if not isinstance(done, Hand):
        return done
    if request.htmx:
        return render_table(request, meeting, membership, undone=done.pk)
    return redirect(f"{meeting.get_absolute_url()}?undone={done.pk}#sheet")


@login_required
@require_POST
def hand_redo(request, slug, pk, hand_pk):
    meeting, membership, done = _write(request, slug, pk, hand_pk, redo=True)
    if not isinstance(done, Hand):
        return done
    if request.htmx:
        return render_table(request, meeting, membership)
    messages.success(request, _("Hand %(number)s is back.") % {"number": formats.localize(done.number)})
    return redirect(f"{meeting.get_absolute_url()}#hand-{done.number}")


urlpatterns = [
    path("l/<slug:slug>/m/<int:pk>/h/<int:hand_pk>/undo/", hand_undo, name="hand_undo"),
    path("l/<slug:slug>/m/<int:pk>/h/<int:hand_pk>/redo/", hand_redo, name="hand_redo"),
]
