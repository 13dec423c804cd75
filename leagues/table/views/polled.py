"""What the polled screens share (one table's big screen, a club night's page and screen, a
tournament's screen): the ETag functions Django's ``condition`` asks before the view, and the
answer drawn with the mark it shows.

The mark is one query over what the screen shows; an unchanged poll is a 304 with nothing
else read or drawn. The answer is sent ``Cache-Control: private, no-cache``: the browser keeps
it and asks again every time with ``If-None-Match``; a 304 hands the kept answer to the page."""

from django.shortcuts import render
from django.utils.cache import patch_cache_control


def mark_readers(mark_of):
    """The ETag functions of a screen whose mark ``mark_of`` gives, for the league's members
    (``slug``) and for the public link (``token``). Each keeps the mark on the request, so a
    poll that is drawn shows the mark it was asked with."""

    def member_mark(request, slug, pk):
        request.live_mark = mark_of(pk=pk, language=request.LANGUAGE_CODE, user=request.user, slug=slug)
        return request.live_mark

    def public_mark(request, token, pk):
        request.live_mark = mark_of(pk=pk, language=request.LANGUAGE_CODE, token=token)
        return request.live_mark

    return member_mark, public_mark


def render_polled(request, template, context, *, mark, part=None):
    """``template`` (with ``part``, that partial of it alone: what the poll replaces) drawn
    with the mark it shows, its ETag, and kept by the browser only to ask again."""
    context = {**context, "etag": f'"{mark}"' if mark else ""}
    response = render(request, f"{template}#{part}" if part else template, context)
    patch_cache_control(response, private=True, no_cache=True)
    return response
