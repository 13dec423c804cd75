"""On PostgreSQL, psycopg prepares the statements a connection runs again and again (settings:
``prepare_threshold``; Django leaves it off unless told). Unprepared, PostgreSQL planned the
meeting page's query afresh on each request: 2.2 ms of its CPU against 0.4 prepared (issue 12)."""

import pytest
from django.db import connection

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="psycopg's prepared statements"),
]

SQL = "SELECT %s::int + 1 AS prepared_statements_test"


def prepared():
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_a_statement_run_again_and_again_is_prepared():
    connection.ensure_connection()
    assert connection.connection.prepare_threshold == 5
    for n in range(6):
        with connection.cursor() as cursor:
            cursor.execute(SQL, [n])
            assert cursor.fetchone() == (n + 1,)
    assert any("prepared_statements_test" in statement for statement in prepared())
