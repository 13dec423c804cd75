"""The evening's big screen (a TV, a projector, a phone watching): for the league's members,
and by the public link when the league has one. Large type and no controls; its part that
changes is polled every few seconds (templates/live/live.html) and answered through Django's
``condition``: the mark of what the screen shows (``leagues.table.live.live_mark``, one
query) is its ETag, so an unchanged poll is a 304 with nothing rendered
(``leagues.table.views.polled``)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.urls import path
from django.utils.cache import patch_cache_control
from django.views.decorators.http import condition, require_GET

from leagues.table import live
from leagues.table import selectors as table_selectors
from leagues.table.views.meeting import member_meeting, next_words, render_table
from leagues.table.views.polled import mark_readers, render_polled

_member_mark, _public_mark = mark_readers(live.live_mark)


def _public_meeting(token, pk):
    # A wrong or revoked token, or a meeting of another league: the same 404.
    meeting = table_selectors.public_meeting(token=token, pk=pk)
    if meeting is None:
        raise Http404
    return meeting


def _render(request, meeting, *, mark, token=None, part=False):
    """The screen, or its polled part alone (``part``), with the mark it shows."""
    context = {
        "league": meeting.league,
        "public_token": token,
        "poll_url": live.poll_url(meeting, token=token),
        **live.board(meeting, next_words=next_words),
    }
    return render_polled(request, "live/live.html", context, mark=mark, part="board" if part else None)


@login_required
@require_GET
def meeting_live(request, slug, pk):
    meeting, _membership = member_meeting(request, slug, pk)
    return _render(request, meeting, mark=_member_mark(request, slug, pk))


@login_required
@require_GET
@condition(etag_func=_member_mark)
def meeting_live_hx(request, slug, pk):
    meeting, _membership = member_meeting(request, slug, pk)
    return _render(request, meeting, mark=request.live_mark, part=True)


@login_required
@require_GET
@condition(etag_func=_member_mark)
def meeting_table_hx(request, slug, pk):
    """The meeting page's table for a member who only reads it (a phone watching the evening):
    polled as the big screen is, and drawn as the page draws it after a hand."""
    meeting, membership = member_meeting(request, slug, pk)
    response = render_table(request, meeting, membership)
    patch_cache_control(response, private=True, no_cache=True)
    return response


@require_GET
def public_live(request, token, pk):
    meeting = _public_meeting(token, pk)
    return _render(request, meeting, mark=_public_mark(request, token, pk), token=token)


@require_GET
@condition(etag_func=_public_mark)
def public_live_hx(request, token, pk):
    meeting = _public_meeting(token, pk)
    return _render(request, meeting, mark=request.live_mark, token=token, part=True)


urlpatterns = [
    path("l/<slug:slug>/m/<int:pk>/live/", meeting_live, name="meeting_live"),
    path("l/<slug:slug>/m/<int:pk>/live/_hx", meeting_live_hx, name="meeting_live_hx"),
    path("l/<slug:slug>/m/<int:pk>/_table", meeting_table_hx, name="meeting_table_hx"),
    path("p/<token:token>/m/<int:pk>/live/", public_live, name="public_live"),
    path("p/<token:token>/m/<int:pk>/live/_hx", public_live_hx, name="public_live_hx"),
]
