"""The session store: Django's database sessions, read with their user by one query.

Every page of a logged-in member starts by reading its session, then its user. The sessions
live in a table of our own (``leagues.models.Session``: Django's columns and the logged-in
user's id), so that one SELECT reads both: the session's data, and the user's row joined to it
(issue 12: a kept page did three queries, two of them for this). The user read here is handed
to the login backend (``preloaded_user``) for the one request, and Django's checks of it (the
backend named in the session, the password's hash, ``is_active``) run as ever. Building and
compiling a queryset for this cost more than the SELECT, hence SQL of its own. Everything else
(writes, expiry, ``clearsessions``) is Django's own store's, on our table.
"""

import contextlib
import contextvars
import functools

from django.contrib.auth import BACKEND_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.core.exceptions import ValidationError
from django.db import connections, router
from django.utils import timezone

from . import raw_reads

# Sessions begun before leagues.backends.ModelBackend replaced Django's name their backend by
# Django's path; read as ours, they stay logged in (Django logs out a session whose backend is
# no longer in AUTHENTICATION_BACKENDS). Ours is Django's, but for how it reads a user.
_RENAMED_BACKENDS = {"django.contrib.auth.backends.ModelBackend": "leagues.backends.ModelBackend"}

# (user id, the user or None) read with the session, while Django's get_user() asks the
# backend for the logged-in user (leagues.middleware.AuthenticationMiddleware sets it).
_PRELOADED: contextvars.ContextVar = contextvars.ContextVar("preloaded_user", default=None)


class SessionStore(DatabaseSessionStore):
    # What load() read of the logged-in user: (the user id column, the user or None when no
    # such user), or None when nothing was read (no session, or a session without a user).
    loaded_user = None

    @classmethod
    def get_model_class(cls):
        from .models import Session

        return Session

    def create_model_instance(self, data):
        session = super().create_model_instance(data)
        session.user_id = _user_id(data.get(SESSION_KEY))
        return session

    def load(self):
        self.loaded_user = None
        if self.session_key is None:  # no cookie, or one the base class refused
            return {}
        model = self.model
        alias = router.db_for_read(model)
        connection = connections[alias]
        with connection.cursor() as cursor:
            cursor.execute(
                _session_sql(model, alias),
                [self.session_key, connection.ops.adapt_datetimefield_value(timezone.now())],
            )
            row = cursor.fetchone()
        if row is None:  # unknown or expired: Django's store forgets the key too
            self._session_key = None
            return {}
        data = self.decode(row[0])
        backend = data.get(BACKEND_SESSION_KEY)
        if backend in _RENAMED_BACKENDS:
            data[BACKEND_SESSION_KEY] = _RENAMED_BACKENDS[backend]
        if row[1] is not None:
            user_row = row[2:]
            user = None if user_row[0] is None else raw_reads.instance(get_user_model(), alias, user_row)
            self.loaded_user = (row[1], user)
        return data


def _user_id(value):
    """The user id column of a session whose data names ``value`` as its user (a string, as
    Django keeps it), or None."""
    if value is None:
        return None
    try:
        return get_user_model()._meta.pk.to_python(value)
    except ValidationError:
        return None


@contextlib.contextmanager
def preloaded(session):
    """While inside, the login backend takes the user ``session`` read along with it."""
    token = _PRELOADED.set(getattr(session, "loaded_user", None))
    try:
        yield
    finally:
        _PRELOADED.reset(token)


def preloaded_user(user_id):
    """(True, the user or None) when the session read user ``user_id`` along with it, else
    (False, None): the backend reads the user itself."""
    found = _PRELOADED.get()
    if found is None or found[0] != user_id:
        return False, None
    return True, found[1]


@functools.cache
def _session_sql(model, alias):
    quote, opts = connections[alias].ops.quote_name, model._meta
    column = opts.get_field
    user = get_user_model()
    return (
        f"SELECT s.{quote(column('session_data').column)}, s.{quote(column('user').column)},"
        f" {raw_reads.columns(user, alias, 'u')}"
        f" FROM {quote(opts.db_table)} s LEFT JOIN {quote(user._meta.db_table)} u"
        f" ON u.{quote(user._meta.pk.column)} = s.{quote(column('user').column)}"
        f" WHERE s.{quote(column('session_key').column)} = %s AND s.{quote(column('expire_date').column)} > %s"
    )
