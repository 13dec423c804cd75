"""A club night's pages: the members' page of the evening (each table with the way to its
sheet, and the standings the tables make together) and its big screen (every table's part as
the one-table screen draws it, and the standings; for the members, and by the public link
when the league has one). Large type and no controls on the screen.

Both poll the part that changes every few seconds, answered through Django's ``condition``:
the night's mark (``leagues.table.live.night_mark``, one query over all its tables) is the
ETag, so an unchanged poll is a 304 with nothing read but the mark, and a hand at any table
changes it. The poll is sent ``Cache-Control: private, no-cache``, as the one-table screen's
(leagues/table/views/live.py)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.urls import path, reverse
from django.views.decorators.http import condition, require_GET

from leagues.permissions import league_for
from leagues.table import live, night_page, night_selectors
from leagues.table.views.meeting import next_words
from leagues.table.views.polled import mark_readers, render_polled


def _member_night(request, slug, pk):
    # Not a member of the league: 404 (league_for); a night of another league: 404.
    league, _membership = league_for(user=request.user, slug=slug)
    night = night_selectors.night_of(league=league, pk=pk)
    if night is None:
        raise Http404
    return night


def _public_night(token, pk):
    # A wrong or revoked token, or a night of another league: the same 404.
    night = night_selectors.public_night(token=token, pk=pk)
    if night is None:
        raise Http404
    return night


_member_mark, _public_mark = mark_readers(live.night_mark)


def _page(request, night, *, mark, part=False):
    """The members' page, or its polled part alone (``part``), with the mark it shows."""
    tables = night_selectors.night_tables(night=night)
    context = {
        "league": night.league,
        "night": night,
        "poll_url": reverse("club_night_hx", kwargs={"slug": night.league.slug, "pk": night.pk}),
        **night_page.night_context(night, tables),
    }
    return render_polled(request, "meetings/night.html", context, mark=mark, part="night" if part else None)


def _screen(request, night, *, mark, token=None, part=False):
    """The big screen, or its polled board alone (``part``), with the mark it shows."""
    tables = night_selectors.night_tables(night=night)
    context = {
        "league": night.league,
        "public_token": token,
        "poll_url": live.night_poll_url(night, token=token),
        **live.night_board(night, tables, next_words=next_words),
    }
    return render_polled(request, "live/night.html", context, mark=mark, part="board" if part else None)


@login_required
@require_GET
def club_night(request, slug, pk):
    night = _member_night(request, slug, pk)
    return _page(request, night, mark=_member_mark(request, slug, pk))


@login_required
@require_GET
@condition(etag_func=_member_mark)
def club_night_hx(request, slug, pk):
    night = _member_night(request, slug, pk)
    return _page(request, night, mark=request.live_mark, part=True)


@login_required
@require_GET
def club_night_live(request, slug, pk):
    night = _member_night(request, slug, pk)
    return _screen(request, night, mark=_member_mark(request, slug, pk))


@login_required
@require_GET
@condition(etag_func=_member_mark)
def club_night_live_hx(request, slug, pk):
    night = _member_night(request, slug, pk)
    return _screen(request, night, mark=request.live_mark, part=True)


@require_GET
def public_night_live(request, token, pk):
    night = _public_night(token, pk)
    return _screen(request, night, mark=_public_mark(request, token, pk), token=token)


@require_GET
@condition(etag_func=_public_mark)
def public_night_live_hx(request, token, pk):
    night = _public_night(token, pk)
    return _screen(request, night, mark=request.live_mark, token=token, part=True)


urlpatterns = [
    path("l/<slug:slug>/n/<int:pk>/", club_night, name="club_night"),
    path("l/<slug:slug>/n/<int:pk>/_hx", club_night_hx, name="club_night_hx"),
    path("l/<slug:slug>/n/<int:pk>/live/", club_night_live, name="club_night_live"),
    path("l/<slug:slug>/n/<int:pk>/live/_hx", club_night_live_hx, name="club_night_live_hx"),
    path("p/<token:token>/n/<int:pk>/live/", public_night_live, name="public_night_live"),
    path("p/<token:token>/n/<int:pk>/live/_hx", public_night_live_hx, name="public_night_live_hx"),
]
