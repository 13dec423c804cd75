"""A tournament's big screen (a TV, a projector): the ranking and the current round's tables,
large type, no controls. For the league's members, and by the public link when the league has
one. Its changing part is polled every few seconds and answered through Django's
``condition``: the mark of what it shows (``selectors.live_mark``, one query) is its ETag, so
an unchanged poll is a 304 with nothing read or drawn, as for one table's screen."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.urls import path, reverse
from django.views.decorators.http import condition, require_GET

from leagues.models import Tournament
from leagues.table.views.polled import mark_readers, render_polled
from leagues.tournaments import selectors
from leagues.tournaments.page import tournament_view
from leagues.tournaments.views.tournaments import tournament_for

_member_mark, _public_mark = mark_readers(selectors.live_mark)


def _public_tournament(token, pk):
    # A wrong or revoked token, or a tournament of another league: the same 404.
    tournament = Tournament.objects.select_related("league").filter(pk=pk, league__public_token=token).first()
    if not token or tournament is None:
        raise Http404
    return tournament


def _render(request, tournament, *, mark, token=None, part=False):
    """The screen, or its polled part alone (``part``), with the mark it shows."""
    if token is not None:
        poll_url = reverse("public_tournament_live_hx", kwargs={"token": token, "pk": tournament.pk})
    else:
        poll_url = reverse("tournament_live_hx", kwargs={"slug": tournament.league.slug, "pk": tournament.pk})
    context = {
        "league": tournament.league,
        "tournament": tournament,
        "public_token": token,
        "poll_url": poll_url,
        **tournament_view(tournament),
    }
    return render_polled(request, "tournaments/live.html", context, mark=mark, part="board" if part else None)


@login_required
@require_GET
def tournament_live(request, slug, pk):
    tournament, _membership = tournament_for(request, slug, pk)
    return _render(request, tournament, mark=_member_mark(request, slug, pk))


@login_required
@require_GET
@condition(etag_func=_member_mark)
def tournament_live_hx(request, slug, pk):
    tournament, _membership = tournament_for(request, slug, pk)
    return _render(request, tournament, mark=request.live_mark, part=True)


@require_GET
def public_tournament_live(request, token, pk):
    tournament = _public_tournament(token, pk)
    return _render(request, tournament, mark=_public_mark(request, token, pk), token=token)


@require_GET
@condition(etag_func=_public_mark)
def public_tournament_live_hx(request, token, pk):
    tournament = _public_tournament(token, pk)
    return _render(request, tournament, mark=request.live_mark, token=token, part=True)


urlpatterns = [
    path("l/<slug:slug>/t/<int:pk>/live/", tournament_live, name="tournament_live"),
    path("l/<slug:slug>/t/<int:pk>/live/_hx", tournament_live_hx, name="tournament_live_hx"),
    path("p/<token:token>/t/<int:pk>/live/", public_tournament_live, name="public_tournament_live"),
    path("p/<token:token>/t/<int:pk>/live/_hx", public_tournament_live_hx, name="public_tournament_live_hx"),
]
