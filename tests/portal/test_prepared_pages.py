"""keyset_page(prepared=True): the page query sent as a statement prepared once per
database connection (portal/prepared.py) gives the very rows the plain query gives."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from jobs import selectors, services, spec
from portal.pagination import keyset_page
from portal.prepared import numbered
from tests.keyset_walk import walk_pages

on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's PREPARE")


def test_djangos_parameter_markers_become_numbered_ones():
    sql = "SELECT 1 WHERE a = %s AND b LIKE '%%s%%' AND c IN (%s, %s)"
    assert numbered(sql) == "SELECT 1 WHERE a = $1 AND b LIKE '%s%' AND c IN ($2, $3)"


def _statements():
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements")
        return {name for (name,) in cursor.fetchall() if name.startswith("page_")}


def _waiting(team, user, n):
    for _ in range(n):
        job = services.create_draft(team=team, user=user, data=spec.example_data())
        services.submit(job=job, user=user)


def _pages(prepared):
    """Every page of the review queue, 3 rows a page, forward then back from the last."""
    walked = walk_pages(
        selectors.review_queue, order=selectors.REVIEW_ORDER, size=3, prepared=prepared
    )
    return [page.rows for page in walked]


@pytest.mark.django_db
def test_a_prepared_page_has_the_rows_of_the_plain_one(team_a, a_member):
    _waiting(team_a, a_member, 8)
    plain = _pages(prepared=False)
    assert len(plain) == 3 + 2 and sum(len(p) for p in plain[:3]) == 8
    assert _pages(prepared=True) == plain  # values, dates and JSON as Django reads them


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_prepared_once_per_connection_and_sent_as_execute(team_a, a_member):
    _waiting(team_a, a_member, 5)
    connection.close()  # a session of its own: none of the other tests' statements
    with CaptureQueriesContext(connection) as first:
        keyset_page(selectors.review_queue(), order=selectors.REVIEW_ORDER, prepared=True)
    assert [q["sql"].split()[0] for q in first] == ["EXECUTE"]
    known = _statements()
    assert len(known) == 1
    cursor = keyset_page(selectors.review_queue(), order=selectors.REVIEW_ORDER, size=2).next_cursor
    for _ in range(3):  # the first page again, a next page: one more statement, kept
        keyset_page(selectors.review_queue(), order=selectors.REVIEW_ORDER, prepared=True)
        page = keyset_page(
            selectors.review_queue(), order=selectors.REVIEW_ORDER, after=cursor, prepared=True
        )
    assert len(page.rows) == 3
    assert known < _statements() and len(_statements()) == 2

    # A rolled-back transaction keeps the statement; a new connection prepares it again.
    with pytest.raises(RuntimeError), transaction.atomic():
        keyset_page(selectors.review_queue(), order=selectors.REVIEW_ORDER, prepared=True)
        raise RuntimeError("roll back")
    assert (
        len(keyset_page(selectors.review_queue(), order=selectors.REVIEW_ORDER, prepared=True)) == 5
    )
    connection.close()
    assert _statements() == set()
    assert (
        len(keyset_page(selectors.review_queue(), order=selectors.REVIEW_ORDER, prepared=True)) == 5
    )
    assert _statements() == known
