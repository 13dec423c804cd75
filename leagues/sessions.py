"""The session store: Django's database sessions, read by a query of their own.

Every page of a logged-in member starts by reading its session. Django's store builds and
compiles a queryset for it (0.40 ms against 0.17 for the same SELECT on PostgreSQL, issue 12);
this one sends the SELECT itself. Everything else (writes, expiry, ``clearsessions``) is
Django's own, on the same table.
"""

import functools

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import connections, router
from django.utils import timezone

# Sessions begun before leagues.backends.ModelBackend replaced Django's name their backend by
# Django's path; read as ours, they stay logged in (Django logs out a session whose backend is
# no longer in AUTHENTICATION_BACKENDS). Ours is Django's, but for how it reads a user.
_RENAMED_BACKENDS = {"django.contrib.auth.backends.ModelBackend": "leagues.backends.ModelBackend"}


class SessionStore(DatabaseSessionStore):
    def load(self):
        if self.session_key is None:  # no cookie, or one the base class refused
            return {}
        connection = connections[router.db_for_read(self.model)]
        with connection.cursor() as cursor:
            cursor.execute(
                _session_sql(connection.alias),
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
        return data


@functools.cache
def _session_sql(alias):
    from django.contrib.sessions.models import Session

    quote, opts = connections[alias].ops.quote_name, Session._meta
    column = opts.get_field
    return (
        f"SELECT {quote(column('session_data').column)} FROM {quote(opts.db_table)}"
        f" WHERE {quote(column('session_key').column)} = %s AND {quote(column('expire_date').column)} > %s"
    )
