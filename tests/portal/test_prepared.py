"""portal.kept.fetch_prepared: a statement prepared once per database connection (PostgreSQL)."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from portal.kept import fetch_prepared

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's PREPARE"),
]

SQL = "SELECT $1::int + 1, $2::text"


def test_prepared_once_per_connection_then_executed():
    with CaptureQueriesContext(connection) as first:
        assert fetch_prepared("test_prepared_sum", SQL, [1, "a"]) == (2, "a")
    assert [q["sql"].split()[0] for q in first] == ["PREPARE", "EXECUTE"]
    with CaptureQueriesContext(connection) as again:
        assert fetch_prepared("test_prepared_sum", SQL, [41, "b"]) == (42, "b")
    assert [q["sql"].split()[0] for q in again] == ["EXECUTE"]


def test_it_outlives_a_rolled_back_transaction_and_a_new_connection_prepares_again():
    with pytest.raises(RuntimeError), transaction.atomic():
        assert fetch_prepared("test_prepared_rolled", SQL, [1, "a"]) == (2, "a")
        raise RuntimeError("roll back")
    assert fetch_prepared("test_prepared_rolled", SQL, [2, "b"]) == (3, "b")
    connection.close()  # the next query opens another session, which has no statements yet
    with CaptureQueriesContext(connection) as reopened:
        assert fetch_prepared("test_prepared_rolled", SQL, [3, "c"]) == (4, "c")
    assert [q["sql"].split()[0] for q in reopened] == ["PREPARE", "EXECUTE"]


def test_a_statement_without_values_is_executed_without_parentheses():
    with CaptureQueriesContext(connection) as first:
        assert fetch_prepared("test_prepared_none", "SELECT 41 + 1", ()) == (42,)
        assert fetch_prepared("test_prepared_none", "SELECT 41 + 1", ()) == (42,)
    assert [q["sql"] for q in first][1:] == ["EXECUTE test_prepared_none"] * 2
