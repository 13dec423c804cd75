"""The cache of derived figures that outlive a process (``CACHES["derived"]``).

The statistics' season parts and the rating states cost 0.8 s and 1.5 s to work out for a big
league; kept in Django's per-process cache, every gunicorn worker paid that again after each
restart. Kept in a database table they are worked out once for all workers and machines on
the database, and survive a restart. They are derived, never edited: each is stored with the
fingerprint of what it was worked out from and read only when that still matches
(``leagues.statistics``, ``leagues.ratings``), and ``verify_replays --rebuild`` empties the
table after it mended a cached result (which a fingerprint does not see).

Django's ``DatabaseCache`` writes one key at a time (a count, a look-up and an insert or update
each), so a page that works out 20 seasons would run 60 queries more than one that works out
one. ``set_many`` here writes them all in a fixed number of queries: the count (and the cull
when full), then one INSERT ... ON CONFLICT DO UPDATE of every row (SQLite and PostgreSQL, the
databases the project runs on, both have it): two workers writing the same key at once both
succeed, the later one's row stays (Django's look-up then insert loses one of them).
"""

from __future__ import annotations

import base64
import pickle
from datetime import datetime, timezone

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache
from django.db import DatabaseError, connections, router, transaction
from django.utils.timezone import now as tz_now

# The table, created by migration leagues/0011_derived_cache (which names it itself, so that a
# later change of this name cannot change what an old migration did).
TABLE = "kartenliga_derived_cache"
# Rows in one INSERT: within SQLite's 999 variables (3 a row). A page writes one row a season.
BATCH = 300


class DerivedCache(DatabaseCache):
    def get_many(self, keys, version=None):
        """As DatabaseCache (``get`` reads through it), but a row that no longer unpickles (a
        part pickled by older code whose class moved or changed, without its key's version
        bumped) is a miss, worked out again: a derived value is never worth a 500."""
        try:
            return super().get_many(keys, version=version)
        except (pickle.UnpicklingError, AttributeError, ImportError, EOFError, TypeError, ValueError, IndexError):
            return {}

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self.set_many({key: value}, timeout=timeout, version=version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        """Write every key of ``data``; the keys that could not be written (none, or all of
        them when the database refused, e.g. a deadlock: a derived value is worked out again
        on the next read, so a lost write loses nothing)."""
        if not data:
            return []
        rows = {self.make_and_validate_key(key, version=version): value for key, value in data.items()}
        timeout = self.get_backend_timeout(timeout)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        quote_name = connection.ops.quote_name
        table = quote_name(self._table)
        if timeout is None:
            expires = datetime.max
        else:
            expires = datetime.fromtimestamp(timeout, tz=timezone.utc if settings.USE_TZ else None)
        expires = connection.ops.adapt_datetimefield_value(expires.replace(microsecond=0))
        # In the order of the keys, so that two writers lock shared rows in the same order.
        encoded = [
            (key, base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1"), expires)
            for key, value in sorted(rows.items())
        ]
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT COUNT(*) FROM {table}")
            count = cursor.fetchone()[0]
            if count > self._max_entries:
                self._cull(db, cursor, tz_now().replace(microsecond=0), count)
            key, value, expires = (quote_name(c) for c in ("cache_key", "value", "expires"))
            try:
                with transaction.atomic(using=db):
                    for start in range(0, len(encoded), BATCH):
                        batch = encoded[start : start + BATCH]
                        cursor.execute(
                            f"INSERT INTO {table} ({key}, {value}, {expires}) "
                            f"VALUES {', '.join(['(%s, %s, %s)'] * len(batch))} "
                            f"ON CONFLICT ({key}) DO UPDATE SET {value} = excluded.{value}, {expires} = excluded.{expires}",
                            [field for row in batch for field in row],
                        )
            except DatabaseError:
                return list(data)
        return []
