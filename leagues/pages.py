"""Whole pages kept under their league's stamp.

The league page, the standings (members' and public), the meeting page and the public sheet
are read far more often than anything of their league changes: at the table, every phone
reloads the sheet while one of them enters the next hand. Each is kept here whole, as HTML,
under a key that holds everything the page can depend on:

- the league's stamp (``LeagueStamp``): a number the database gives a new random value
  whenever any row of the league is inserted, changed or deleted, by its own triggers
  (migration 0013), so no writer can forget to say so and a kept page is never stale. It is
  read with the league (``permissions.league_for``, ``permissions.public_league``), before
  anything the page shows: a write that commits in between gives the page newer figures
  than its stamp, never older ones, and the next request reads the new stamp;
- the address (path and query, host and scheme), the language and today's date;
- who asks (his id, whether he is staff or superuser) and what the view adds (his role, the
  meeting's end time passed or not);
- the view itself: a kept answer is only ever a 200 of a plain GET.

Two things differ in each answer and are not kept: the CSRF token and the hand form's
idempotency key. The page is rendered with stand-ins for them (``STAND_INS``), which every
answer replaces by the request's own. A request that has messages to show (after a redirect)
is rendered afresh, as is an htmx request, a page of a league without a stamp (a superuser
who is not a member: his league comes without one), and a page a view marks as changing by
itself at some time (``response.kept_until``: an invite that expires).

A kept page skips every query but the session's, the user's and the league's, and all of its
template.

The cache is per process (LocMemCache, settings.CACHES["pages"]); the least recently used
pages are dropped past its size, and a page whose league changed is never asked for again.
"""

import hashlib
import secrets
import uuid

from django.contrib.messages import get_messages
from django.core.cache import caches
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils import timezone
from django.utils.translation import get_language

CACHE = "pages"
SECONDS = 24 * 3600

# Rendered in place of the request's own values, then replaced in every answer. Made anew in
# each process, so that no page can hold them by chance.
CSRF_STAND_IN = "csrf" + secrets.token_hex(24)
IDEMPOTENCY_STAND_IN = str(uuid.uuid4())
STAND_INS = {"csrf_token": CSRF_STAND_IN, "idempotency_key": IDEMPOTENCY_STAND_IN}


def kept(request, *, league, render, vary=()):
    """The answer of ``render(stand_ins)``, kept under ``league``'s stamp (see the module's
    doc). ``render`` takes a dict to add to the page's context: ``STAND_INS`` when the page
    is to be kept, else empty; ``vary``: what else the view's page depends on (plain values)."""
    stamp = getattr(league, "_stamp", None)
    if stamp is None or request.method != "GET" or request.htmx or len(get_messages(request)):
        return render({})
    cache = caches[CACHE]
    key = _key(request, league.pk, stamp, vary)
    entry = cache.get(key)
    if entry is not None:
        html, content_type = entry
        response = HttpResponse(content_type=content_type)
    else:
        response = render(STAND_INS)
        html = response.content.decode()
        seconds = _seconds(response)
        if response.status_code == 200 and seconds > 0:
            cache.set(key, (html, response["Content-Type"]), seconds)
    response.content = _own(request, html)
    return response


def _own(request, html):
    """The kept HTML with this request's CSRF token and a fresh idempotency key."""
    html = html.replace(CSRF_STAND_IN, get_token(request))
    if IDEMPOTENCY_STAND_IN in html:
        html = html.replace(IDEMPOTENCY_STAND_IN, str(uuid.uuid4()))
    return html


def _seconds(response):
    until = getattr(response, "kept_until", None)
    if until is None:
        return SECONDS
    return min(SECONDS, int((until - timezone.now()).total_seconds()))


def _key(request, league_id, stamp, vary):
    user = request.user
    parts = (
        request.resolver_match.view_name if request.resolver_match else None,
        league_id,
        stamp,
        request.get_full_path(),
        request.get_host(),
        request.is_secure(),
        get_language(),
        timezone.localdate().isoformat(),
        user.pk,
        user.is_staff,
        user.is_superuser,
        tuple(vary),
    )
    return "page:" + hashlib.blake2b(repr(parts).encode(), digest_size=20).hexdigest()


def clear():
    """Forget every kept page (tests)."""
    caches[CACHE].clear()
