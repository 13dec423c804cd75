"""The login backend: Django's ModelBackend, taking the logged-in user the session read with it
(leagues/sessions.py), else reading it by a query of its own.

Every request of a logged-in member reads its user once (AuthenticationMiddleware); Django's
backend builds and compiles a queryset for it, which cost more than the SELECT (issue 12).
Logging in, passwords and permissions are Django's, unchanged.
"""

import functools

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.db import connections, router

from . import raw_reads, sessions


class ModelBackend(DjangoModelBackend):
    def get_user(self, user_id):
        # Read with the session, on every request of a logged-in member (leagues/sessions.py).
        known, user = sessions.preloaded_user(user_id)
        if not known:
            user = self._read(user_id)
        if user is None:
            return None
        return user if self.user_can_authenticate(user) else None

    def _read(self, user_id):
        model = get_user_model()
        alias = router.db_for_read(model)
        with connections[alias].cursor() as cursor:
            cursor.execute(_user_sql(model, alias), [user_id])
            row = cursor.fetchone()
        return None if row is None else raw_reads.instance(model, alias, row)


@functools.cache
def _user_sql(model, alias):
    quote, opts = connections[alias].ops.quote_name, model._meta
    return (
        f"SELECT {raw_reads.columns(model, alias, 'u')} FROM {quote(opts.db_table)} u"
        f" WHERE u.{quote(opts.pk.column)} = %s"
    )
