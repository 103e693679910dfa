"""Figures computed over every row of some tables, kept until one of those rows changes.

Aggregates over the whole program (medians, distinct counts) cost what the program weighs:
~0.5 s at a hundred times a busy program. They change only when a row they read is written,
so they are kept in the cache with a *stamp*: the newest id and the newest write time of
each table they read, read in one query whose every part is an index look-up (MAX of an
indexed column). A new row changes an id, a changed row its time (the services set
`updated_at`/`recorded_at` on every write the figures read), and the figures are computed
again. What no stamp sees (a row deleted, an edit that bypasses the services) is caught by
`max_age`; the pages say when their figures were computed."""

import functools
import hashlib
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.db import connection

from portal.models import User

from .prepared import names_on


@functools.cache
def code_stamp():
    """A digest of the size and time of every template and Python file of this checkout,
    once per process: what was kept as rendered HTML by older code (another deploy, other
    templates) is not served by newer code, however young it is. Workers of one deploy
    agree; a deploy that changes any file disagrees with every entry before it."""
    digest = hashlib.md5(usedforsecurity=False)
    root = Path(settings.BASE_DIR)
    # The project's own apps: not the installed packages, even in a virtualenv under the root.
    own = [
        Path(app.path)
        for app in apps.get_app_configs()
        if Path(app.path).is_relative_to(root)
        and not any(part.startswith(".") for part in Path(app.path).relative_to(root).parts)
    ]
    for folder in sorted({*own, root / "templates"}):
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".html", ".py"):
                info = path.stat()
                digest.update(
                    f"{path.relative_to(root)}:{info.st_size}:{info.st_mtime_ns};".encode()
                )
    return digest.hexdigest()


def stamp(sources):
    """The newest value of each (model, field) in `sources`, as one tuple of strings."""
    quote = connection.ops.quote_name
    selects = []
    for model, name in sources:
        column = model._meta.get_field(name).column
        table = quote(model._meta.db_table)
        selects.append(f"(SELECT MAX({quote(column)}) FROM {table})")  # noqa: S608
    with connection.cursor() as cursor:
        # Table and column names from the models' own metadata, quoted; no values.
        cursor.execute("SELECT " + ", ".join(selects))  # noqa: S608
        return tuple(str(value) for value in cursor.fetchone())


def fetch_prepared(name, sql, params):
    """The first row of `sql` (PostgreSQL, parameters written $1, $2…), run as a statement
    prepared once per database connection: a digest of a dozen sub-selects, each an index
    look-up, cost PostgreSQL more to plan (~0.6 ms) than to run, on every visit. A prepared
    statement outlives a rolled-back transaction, so it is prepared only once."""
    connection.ensure_connection()
    names = names_on(connection.connection)
    with connection.cursor() as cursor:
        if name not in names:
            # `name` and `sql` are the caller's own text; the values are parameters.
            cursor.execute(f"PREPARE {name} AS {sql}")
            names.add(name)
        if not params:  # EXECUTE takes no empty parentheses
            cursor.execute(f"EXECUTE {name}")
        else:
            cursor.execute(f"EXECUTE {name}({', '.join(['%s'] * len(params))})", params)
        return cursor.fetchone()


def columns_sql(model, alias):
    """The select list of `model`'s concrete columns under the table alias `alias`, in the
    order instance_of() reads them back."""
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(field.column)}" for field in model._meta.concrete_fields)


@functools.cache
def _readers(model):
    """The primary key's place among the concrete columns, and each column's converters
    (index, converters, column) as the ORM's compiler finds them (the backend's, then the
    field's: a JSON column's text decoded, say)."""
    readers = []
    for index, field in enumerate(model._meta.concrete_fields):
        column = field.get_col(model._meta.db_table)
        converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if converters:
            readers.append((index, converters, column))
    return model._meta.concrete_fields.index(model._meta.pk), readers


def instance_of(model, row, offset):
    """The `model` instance whose columns (columns_sql) start at `row[offset]`, built from
    the row as the ORM builds it from its own query, or None if its primary key is NULL (an
    outer join found no row). A statement of the caller's own then reads a model and its
    relations without the ORM compiling a query on every visit."""
    pk_index, readers = _readers(model)
    values = list(row[offset : offset + len(model._meta.concrete_fields)])
    if values[pk_index] is None:
        return None
    for index, converters, column in readers:
        for converter in converters:
            values[index] = converter(values[index], column, connection)
    return model.from_db(connection.alias, None, values)


def person_sql(column):
    """SQL for what a page prints of the user whose id is in `column` (str(user) is the full
    name or the e-mail; some pages say "staff"), for a digest of the rows a page shows."""
    table = connection.ops.quote_name(User._meta.db_table)
    # A table name from the model's metadata and a column of the caller's own SQL; no values.
    return f"(SELECT concat(full_name, '/', email, '/', is_staff) FROM {table} WHERE id = {column})"  # noqa: S608


def kept(key, *, sources, compute, max_age=300):
    """compute(), or what it returned last time if no table in `sources` changed since and
    it is younger than `max_age` seconds. The stamp is read before computing, so figures
    are never kept under a stamp older than the rows they were computed from."""
    return kept_under(key, stamp(sources), compute, max_age=max_age)


def kept_under(key, current, compute, *, max_age=300):
    """compute(), or what it returned last time under the same stamp `current` (read by the
    caller, before computing, from the rows the value shows). No stamp (None): computed."""
    return kept_all({key: (key, current, compute)}, max_age=max_age)[key]


def kept_all(entries, *, max_age=300, found=None):
    """{name: (key, current, compute)} -> {name: value}, each as kept_under would give it,
    with one read of the cache for all of them (and one write for those computed). `found`:
    the cache's entries for those keys, if the caller read them with others of its own."""
    if found is None:
        keys = [key for key, current, _ in entries.values() if current is not None]
        found = cache.get_many(keys) if keys else {}
    values, fresh = {}, {}
    for name, (key, current, compute) in entries.items():
        entry = found.get(key)
        if entry is not None and entry[0] == (code_stamp(), current):
            values[name] = entry[1]
            continue
        values[name] = compute()
        if current is not None:
            fresh[key] = ((code_stamp(), current), values[name])
    if fresh:
        cache.set_many(fresh, max_age)
    return values
