"""A guest scorer's undo of the last hand he entered, and the undo of that undo, by his scorer
link: the member's undo (leagues/table/undo.py, its rules and its writes) with the guest's
link in place of an account, answered as the guest's other pages are (views/guest.py).

A link that no longer works, or is not the link of the table its address names, is refused
with the page that says why (403), as is an undo after the evening was closed meanwhile; a
hand of another table is no hand here (404). A refusal of the undo itself answers with the
guest's table and why, nothing changed: 400, or 409 when the hand was changed meanwhile.
Without JavaScript the undo answers with the guest's page, which offers the undo of the undo
(its address names the hand undone); with htmx both answer with his table.
"""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect
from django.urls import re_path, reverse
from django.utils import formats
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from leagues import exceptions
from leagues.models import Hand
from leagues.table import scorer_links, undo
from leagues.table import selectors as table_selectors
from leagues.table.forms import HandVersionForm
from leagues.table.scorer_links import LinkRefused
from leagues.table.views.guest import TOKEN, refused, render_guest
from leagues.table.views.undo import stale_message


def _write(request, token, pk, hand_pk, *, redo):
    """Undo (or, ``redo``, undo the undo of) the guest's hand at the version his form showed:
    (link, meeting, the written hand), or (None, None, the answer that refuses it)."""
    try:
        link = scorer_links.usable_link(token=token)
        scorer_links.for_table(link, pk=int(pk))
    except LinkRefused as refusal:
        return None, None, refused(request, refusal.why)
    meeting = table_selectors.league_meeting(league=link.meeting.league, pk=link.meeting_id)
    hand = Hand.objects.filter(pk=int(hand_pk), meeting_id=link.meeting_id).first()
    if meeting is None or hand is None:
        raise Http404
    control = HandVersionForm(request.POST)
    if not control.is_valid():
        refusal = " ".join(m for messages_ in control.errors.values() for m in messages_)
        return None, None, render_guest(request, link, meeting, status=400, refusal=refusal)
    write = undo.redo_hand if redo else undo.undo_last_hand
    number = hand.number
    try:
        hand = write(hand=hand, user=None, guest=link, version=control.cleaned_data["version"])
    except exceptions.StaleHand as error:
        message = stale_message(error, number, redo=redo)
        return None, None, render_guest(request, link, meeting, status=409, refusal=message)
    except exceptions.MeetingClosed as error:
        meeting.refresh_from_db(fields=["closed_at"])
        if meeting.closed_at is not None:
            return None, None, refused(request, scorer_links.ENDED)
        return None, None, render_guest(request, link, meeting, status=400, refusal=error.errors[0]["message"])
    except exceptions.InvalidInput as error:
        message = " ".join(e["message"] for e in error.errors)
        return None, None, render_guest(request, link, meeting, status=400, refusal=message)
    return link, meeting, hand


@require_POST
def guest_hand_undo(request, token, pk, hand_pk):
    """Undo the last hand the guest entered: his table offering it back."""
    link, meeting, done = _write(request, token, pk, hand_pk, redo=False)
    if link is None:
        return done
    if request.htmx:
        return render_guest(request, link, meeting, undone=done.pk, mine=[done.pk])
    address = reverse("guest_table", kwargs={"token": token, "pk": meeting.pk})
    return redirect(f"{address}?undone={done.pk}#sheet")


@require_POST
def guest_hand_redo(request, token, pk, hand_pk):
    """Bring the hand the guest undid back as the last hand."""
    link, meeting, done = _write(request, token, pk, hand_pk, redo=True)
    if link is None:
        return done
    if request.htmx:
        return render_guest(request, link, meeting, mine=[done.pk])
    messages.success(request, _("Hand %(number)s is back.") % {"number": formats.localize(done.number)})
    address = reverse("guest_table", kwargs={"token": token, "pk": meeting.pk})
    return redirect(f"{address}#hand-{done.number}")


HAND = r"(?P<pk>[0-9]{1,18})/h/(?P<hand_pk>[0-9]{1,18})"

urlpatterns = [
    re_path(rf"^s/{TOKEN}/m/{HAND}/undo/$", guest_hand_undo, name="guest_hand_undo"),
    re_path(rf"^s/{TOKEN}/m/{HAND}/redo/$", guest_hand_redo, name="guest_hand_redo"),
]
