"""Django's PostgreSQL backend, with server-side binding's limit on parameters respected.

settings.py turns on server-side binding (psycopg then prepares the statements a connection
runs again and again: issue 12). A statement so bound carries at most 65,535 parameters, and
Django's PostgreSQL backend sets no limit on its batches: deleting a league of more than 65,535
hands collected its HandResult rows by one ``hand_id IN (...)`` of every hand, and PostgreSQL
refused it. Here every batch Django makes (the deletion's look-ups, ``bulk_create``,
``bulk_update``) is cut to fit.
"""

from django.db.backends.postgresql import base, operations

# The protocol counts a statement's parameters in 16 bits.
MAX_PARAMETERS = 65535


class DatabaseOperations(operations.DatabaseOperations):
    def bulk_batch_size(self, fields, objs):
        # Halved: bulk_update binds two parameters per field and row (its CASE WHEN pk = %s
        # THEN %s), more than the one per field that ``fields`` counts.
        return max(1, min(len(objs), MAX_PARAMETERS // (2 * max(1, len(fields)))))


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
