"""A request whose database connection was lost gets its answer, not a 500.

PostgreSQL ends every connection when it restarts or fails over (as ``pg_terminate_backend``
does), and a worker keeps its connection for ``CONN_MAX_AGE`` seconds. A connection that died
between two requests is replaced at the next request's first query (``CONN_HEALTH_CHECKS`` in
settings.py). One that dies while a view runs is this middleware's: it closes the dead
connection and runs the view once more on a fresh one where that is safe, else answers 503 with
Retry-After, so that the client sends it again.

What is safe to run twice:
- a read (GET, HEAD, OPTIONS): the few writes a page makes on the way (a kept figure, a
  session's expiry) come out the same when made twice;
- a write that carries an idempotency key (a hand sent from the sheet, the outbox or the API):
  a hand already stored under its key is answered as it is now, and a transaction the lost
  connection cut off was rolled back by PostgreSQL, so the second run stores it once.
Any other write is not run again: the connection may have died after its COMMIT reached the
server, and a second run could store it twice. It was one transaction, so it is stored whole or
not at all; the 503 says to send it again (the outbox does so by itself, with its key).

Only an error raised by the view (or its template) comes here, as Django's process_exception:
the middlewares around the view read the session and the user lazily, inside the view; only a
session saved after the view (at a login, a logout) is beyond its reach.
"""

import json

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError, connections
from django.http import HttpResponse, JsonResponse, RawPostDataException
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

READS = frozenset({"GET", "HEAD", "OPTIONS"})
# Seconds a client is asked to wait before sending the request again (a restart takes a few).
RETRY_AFTER = "2"


class LostConnectionMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        request._view_to_rerun = (view_func, view_args, view_kwargs)
        if request.method not in READS and request.content_type == "application/json":
            # Kept, so that a second run can read it again (DRF reads the stream itself).
            try:
                request.body  # noqa: B018
            except RequestDataTooBig:
                pass  # past Django's cap for a kept body: read as a stream, not run again
        return None

    def process_exception(self, request, exception):
        if not connection_lost(exception):
            return None
        _close_dead_connections()
        view = getattr(request, "_view_to_rerun", None)
        if view is None or not _safe_to_run_again(request):
            return unavailable(request)
        view_func, view_args, view_kwargs = view
        try:
            response = view_func(request, *view_args, **view_kwargs)
            if callable(getattr(response, "render", None)):
                response = response.render()
        except (OperationalError, InterfaceError) as again:
            if not connection_lost(again):
                raise
            _close_dead_connections()
            return unavailable(request)
        return response


# PostgreSQL's SQLSTATEs for a connection that is gone: class 08 (connection exception), and an
# administrator's or a crash's shutdown, or a server not yet taking connections (57P01-57P03).
LOST = ("08", "57P01", "57P02", "57P03")


def connection_lost(exception):
    """Whether a database error says the connection itself is gone (not a query that failed)."""
    if not isinstance(exception, (OperationalError, InterfaceError)):
        return False
    cause = exception.__cause__
    if not hasattr(cause, "sqlstate"):
        return False  # not psycopg's: SQLite's "database is locked" is a busy file, not a lost server
    # psycopg gives no SQLSTATE when the socket itself failed ("server closed the connection").
    return cause.sqlstate is None or cause.sqlstate.startswith(LOST)


def _close_dead_connections():
    # A connection lost outside a transaction stays open on Django's side, and the view's next
    # query would fail on it again. (One lost inside a transaction Django has replaced already:
    # its rollback failed, it closed it, and reconnected on leaving the transaction.)
    for connection in connections.all(initialized_only=True):
        if connection.connection is not None and not connection.in_atomic_block and not connection.is_usable():
            connection.close()


def _safe_to_run_again(request):
    if request.method in READS:
        return True
    if request.headers.get("Idempotency-Key"):
        return True
    if request.content_type == "application/json":
        try:
            data = json.loads(request.body)
        except (ValueError, RecursionError, RequestDataTooBig, RawPostDataException):
            return False  # not JSON, or read as a stream and not kept: we cannot tell
        return isinstance(data, dict) and bool(data.get("idempotency_key"))
    try:
        return bool(request.POST.get("idempotency_key"))
    except Exception:  # a body the view read as a stream, or could not parse: we cannot tell
        return False


def unavailable(request):
    """503 with Retry-After: the request may be sent again once the database answers."""
    if request.path.startswith("/api/"):
        message = _("The connection to the database was lost. Please send the request again in a moment.")
        response = JsonResponse({"errors": [{"hand": None, "field": None, "message": message}]}, status=503)
    else:
        # The page for a server error, without the request: it reads nothing from the database.
        response = HttpResponse(render_to_string("500.html"), status=503)
    response["Retry-After"] = RETRY_AFTER
    return response
