"""The end of the evening: "End the evening" and the end time, for scorekeepers; an admin
reopens a closed evening.

Ending an evening that could still go on asks first, on a page of its own ("End the evening?",
plain HTML, no script needed), reached from below the sheet, far from the hand form: a tap
beside the form's save button once closed an evening for good. An evening already over (its
end time passed with the round complete) takes no more hands: its panel ends it in one tap.
The end time is set, changed or cleared here while the evening is open; what it does is in
``services`` ("the end of the evening").
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.dateformat import time_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from leagues import exceptions, games
from leagues.models import Role
from leagues.permissions import meeting_for
from leagues.table import evening, meetings, replay, selectors
from leagues.table.forms import EndTimeForm, ReopenMeetingForm


def _scorekeepers_meeting(request, slug, pk):
    meeting, _membership = meeting_for(user=request.user, slug=slug, pk=pk, role=Role.SCOREKEEPER)
    return meeting


def _replay(meeting):
    """The replay of the evening's hands, or (None, the first problem) when they no longer
    add up (the page says so instead of failing)."""
    try:
        return replay.calculate_meeting(meeting), ""
    except exceptions.InvalidInput as error:
        return None, error.errors[0]["message"]


def _question(request, meeting, result, *, refusal="", status=200):
    """The page "End the evening?": what ending it fixes (the winner, the pennant), what is
    still open (the end time not reached, solos owed), and the answer; or why it cannot end."""
    nxt = (result or {}).get("next") or {}
    rounds = result is not None and evening.has_rounds(result)
    context = {
        "meeting": meeting,
        "league": meeting.league,
        "refusal": refusal or evening.close_problem(meeting, result),
        "hands": len((result or {}).get("hands") or ()),
        "leader": selectors.evening_leader(meeting=meeting),
        "pennant": games.has_pennant(meeting.game),
        "before_end": rounds and meeting.end_time is not None and not evening.end_time_passed(meeting),
        "solo_owed": nxt.get("solo_owed") if rounds else None,
    }
    return render(request, "meetings/close.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def meeting_close(request, slug, pk):
    """ "End the evening": GET asks; a POST with ``confirm`` ends it (an evening already over
    needs no answer: nothing can be entered any more). A POST without the answer, from a page
    of an older version, asks; one that cannot end the evening is a 400 saying why."""
    meeting = _scorekeepers_meeting(request, slug, pk)
    result, broken = _replay(meeting)
    if request.method == "GET":
        return _question(request, meeting, result, refusal=broken)
    if meeting.closed_at is not None:  # the answer sent twice: it is ended
        return redirect(meeting.get_absolute_url())
    problem = broken or evening.close_problem(meeting, result)
    if problem:
        return _question(request, meeting, result, refusal=problem, status=400)
    if request.POST.get("confirm") != "1" and not evening.evening_over(meeting, result):
        return _question(request, meeting, result)
    try:
        meetings.close_meeting(meeting=meeting, user=request.user)
    except exceptions.InvalidInput as error:  # a hand entered meanwhile, mid-round
        meeting.refresh_from_db()
        return _question(request, meeting, result, refusal=error.errors[0]["message"], status=400)
    messages.success(request, _("The evening is over."))
    return redirect(meeting.get_absolute_url())


@login_required
@require_http_methods(["GET", "POST"])
def meeting_end_time(request, slug, pk):
    """Set, change or clear the end time of an open evening."""
    meeting = _scorekeepers_meeting(request, slug, pk)
    bound = request.POST if request.method == "POST" else None
    form = EndTimeForm(bound, game=meeting.game, initial={"end_time": meeting.end_time})
    status = 200
    if bound is not None:
        status = 400
        if form.is_valid():
            end_time = form.cleaned_data["end_time"]
            try:
                meetings.set_end_time(meeting=meeting, end_time=end_time)
            except exceptions.InvalidInput as error:
                form.add_error(None, error.errors[0]["message"])
            else:
                if end_time is None:
                    messages.success(request, _("The evening has no end time now."))
                else:
                    time = time_format(end_time, "H:i")
                    messages.success(request, _("The end time is %(time)s now.") % {"time": time})
                return redirect(meeting.get_absolute_url() + "#evening-end")
    context = {"meeting": meeting, "league": meeting.league, "form": form, "closed": meeting.closed_at is not None}
    return render(request, "meetings/end_time.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def meeting_reopen(request, slug, pk):
    """An admin reopens a closed evening, saying why (kept in its history)."""
    meeting, _membership = meeting_for(user=request.user, slug=slug, pk=pk, role=Role.ADMIN)
    form = ReopenMeetingForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                meetings.reopen_meeting(meeting=meeting, user=request.user, reason=form.cleaned_data["reason"])
            except exceptions.InvalidInput as error:
                for problem in error.errors:
                    form.add_error("reason" if problem["field"] == "reason" else None, problem["message"])
            else:
                messages.success(request, _("The evening is open again."))
                return redirect(meeting.get_absolute_url())
    context = {"meeting": meeting, "league": meeting.league, "form": form}
    return render(request, "meetings/reopen.html", context, status=status)


urlpatterns = [
    path("l/<slug:slug>/m/<int:pk>/reopen/", meeting_reopen, name="meeting_reopen"),
    path("l/<slug:slug>/m/<int:pk>/close/", meeting_close, name="meeting_close"),
    path("l/<slug:slug>/m/<int:pk>/end-time/", meeting_end_time, name="meeting_end_time"),
]
