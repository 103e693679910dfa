"""Queries sent as statements prepared once per database connection (PostgreSQL).

A list's page query joins four to six tables; PostgreSQL spent longer planning it than
running it (~1-2 ms against ~0.5-1 ms at a hundred times the data), on every visit.
Prepared, it is parsed once per connection and, once PostgreSQL finds a generic plan as
good as the custom ones (at the latest after five runs; at once for a query without
values), not planned again. Django still builds the query and reads its rows (values(),
converters, model instances): only what is sent changes, `SELECT …` becoming
`EXECUTE name(values)`. portal.kept.fetch_prepared does the same for one hand-written row,
in the same registry of what each connection has prepared."""

import hashlib
import re
import weakref
from contextlib import contextmanager

from django.db import connections

# The statements prepared on each connection (PostgreSQL keeps them per session, across
# rolled-back transactions): a connection Django opens anew starts with none.
_prepared = weakref.WeakKeyDictionary()

_MARKER = re.compile(r"%%|%s")


def names_on(connection):
    """The names of the statements prepared on `connection` (a DB-API connection)."""
    return _prepared.setdefault(connection, set())


def numbered(sql):
    """Django's SQL (%s for each value, %% for a percent sign) as PREPARE writes it ($1, $2…)."""
    count = 0

    def number(match):
        nonlocal count
        if match.group() == "%%":
            return "%"
        count += 1
        return f"${count}"

    return _MARKER.sub(number, sql)


def statement_name(sql):
    """A name per text of a query: the same query with other values is the same statement."""
    return "page_" + hashlib.md5(sql.encode(), usedforsecurity=False).hexdigest()[:20]


def _send_prepared(execute, sql, params, many, context):
    """An execute wrapper (Django's connection.execute_wrapper): the query prepared on this
    connection if it was not yet, then executed with its values."""
    if many:
        return execute(sql, params, many, context)
    names = names_on(context["connection"].connection)
    name = statement_name(sql)
    if name not in names:
        # `sql` is Django's compilation of a queryset; its values travel apart, in params.
        execute(f"PREPARE {name} AS {numbered(sql)}", None, False, context)
        names.add(name)
    if not params:
        return execute(f"EXECUTE {name}", None, False, context)
    return execute(f"EXECUTE {name}({', '.join(['%s'] * len(params))})", params, False, context)


def _send_written_in(execute, sql, params, many, context):
    """_send_prepared with the values written into the statement (psycopg's quoting, as
    Django's compose_sql writes them): a statement of its own per set of values, planned
    for those values, once, and executed without any."""
    if many or not params:
        return _send_prepared(execute, sql, params, many, context)
    text = context["connection"].ops.compose_sql(sql, params)
    names = names_on(context["connection"].connection)
    name = statement_name(text)
    if name not in names:
        # `text` holds no parameter marker any more: sent with no values, nothing reads its `%`.
        execute(f"PREPARE {name} AS {text}", None, False, context)
        names.add(name)
    return execute(f"EXECUTE {name}", None, False, context)


@contextmanager
def prepared(using="default", written_in=False):
    """Within it, queries on `using` are sent as prepared statements (on PostgreSQL; on
    other databases as they are). For queries of a fixed shape, run on every visit: each
    text is a statement the connection keeps. `written_in`: with their values written in,
    a statement per set of values, for a query whose generic plan would be bad (a search:
    planned without its words, PostgreSQL reads every match) and which is asked again with
    the same values (a list's filters): a connection keeps what it was asked while it lives
    (CONN_MAX_AGE)."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        yield
        return
    with connection.execute_wrapper(_send_written_in if written_in else _send_prepared):
        yield
