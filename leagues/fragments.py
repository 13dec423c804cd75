"""Rendered HTML kept by what it shows: the rows of the evening's sheet (meeting
page, htmx table, public sheet), the evenings and hosts of the standings, the seasons and the
house rules form of the league page.

Profiles of the meeting page and the public sheet showed most of their time in the template
engine, rendering 40 rows of five cells each. Each row is rendered here on its own, from a
plain dict of exactly what the row shows, and its HTML is kept in the ``fragments`` cache
under a digest of that dict, the language and the template's name. The row template is given
nothing else (no request, no user, no other context), so whatever it could show is in the key:
a kept row can never be stale. A hand entered, corrected, deleted or restored, a rule changed,
a season reopened or a name changed gives a row other figures or words, hence another key, and
it is rendered afresh; rows that did not change are taken as they were (an htmx POST of the
next hand renders two rows: the new one and the one that was the latest).

The cache is per process (LocMemCache, settings.CACHES["fragments"]): a worker renders a row
the first time it shows it, and the least recently used rows are dropped past its size.
"""

import hashlib

import orjson
from django.core.cache import caches
from django.template.loader import get_template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

CACHE = "fragments"
LISTS = "fragment_lists"
SECONDS = 7 * 24 * 3600


def _key(template_name, data, language=None):
    # Plain data (str, int, bool, None, tuples, lists, dicts built in a fixed order) written
    # as JSON is the same in every process, and orjson writes it five times faster than repr
    # (issue 12: 40 rows' keys are worked out for every sheet shown or entered into). A lazy
    # translation would differ from process to process, so callers pass str(); anything
    # orjson does not write (a dict with other than str keys) is written by repr instead.
    parts = (template_name, language or get_language(), data)
    try:
        text = orjson.dumps(parts)
    except TypeError:
        text = repr(parts).encode()
    return "row:" + hashlib.blake2b(text, digest_size=20).hexdigest()


def rendered_rows(template_name, rows, *, using=None):
    """The HTML of ``rows`` (plain dicts), each rendered by ``template_name`` (of the template
    engine ``using``, None: the first that has it) as ``r`` and kept by its content; one
    SafeString, in order.

    The whole list is kept too, under the digest of all its rows: a page shown again as it was
    (the usual read) takes one entry instead of one per row (0.8 ms of the meeting page's 40
    rows). Those are in their own, smaller cache (``fragment_lists``), since each is the size
    of a whole sheet and most are outdated by the next hand."""
    lists = caches[LISTS]
    language = get_language()  # once: each call asks a thread-local (0.3 ms for 40 rows)
    keys = [_key(template_name, row, language) for row in rows]
    whole = _list_key(keys)
    html = lists.get(whole)
    if html is None:
        # A sheet read after a hand was entered is the sheet read before it and one row more:
        # that list, kept, and the new row (each row of the list taken from the cache was
        # 0.8 ms of the sheet shown after each hand).
        before = lists.get(_list_key(keys[:-1])) if len(keys) > 1 else None
        if before is not None:
            html = before + _rendered_each(template_name, rows[-1:], keys[-1:], using)
        else:
            html = _rendered_each(template_name, rows, keys, using)
        lists.set(whole, html, SECONDS)
    return mark_safe(html)  # noqa: S308 (rendered by the template engine)


def _list_key(keys):
    # The list's key from its rows' keys (each a digest of its row): a digest of the whole
    # list's text would take that text's repr a second time (0.4 ms of a hand's entry).
    return "list:" + hashlib.blake2b("".join(keys).encode(), digest_size=20).hexdigest()


def _rendered_each(template_name, rows, keys, using=None):
    cache = caches[CACHE]
    found = cache.get_many(keys)
    missing = {}
    if len(found) < len(keys):
        template = get_template(template_name, using=using)
        for key, row in zip(keys, rows, strict=True):
            if key not in found:
                missing[key] = found[key] = template.render({"r": row})
        cache.set_many(missing, SECONDS)
    return "".join(found[key] for key in keys)


def rendered(template_name, data, context):
    """``template_name`` rendered with ``context()``, kept under a digest of ``data``, which
    must hold everything the output depends on besides the language (the caller says why)."""
    cache = caches[CACHE]
    key = _key(template_name, data)
    html = cache.get(key)
    if html is None:
        html = get_template(template_name).render(context())
        cache.set(key, html, SECONDS)
    return html


def clear():
    """Forget every kept piece (tests, and anyone who wants pages rendered afresh)."""
    caches[CACHE].clear()
    caches[LISTS].clear()
