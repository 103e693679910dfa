"""Many rows of one table in one statement, from plain values.

On PostgreSQL the rows go as one array per column:
`INSERT INTO t (a, b) SELECT * FROM unnest(%s::bigint[], %s::varchar[])`, so the
statement is the same text for 3 rows or 3,000 and PostgreSQL parses a handful of
parameters, not one per value. Django's bulk_create does the same since 5.2, but not for
a table with a JSON column (the scheduler's events: 500 rows of 14 columns went as 7,000
parameter markers), and it first builds and prepares a model instance per row, which cost a
batch of scheduler events more than the statements did. Elsewhere (SQLite, the embedded
default) it is a plain multi-row VALUES, in chunks the backend accepts.

Both take `conflict_nothing` (ON CONFLICT DO NOTHING) and `returning` (the new rows'
ids, in the order the rows were given: Django's bulk_create relies on that order too).
Values are what the model's attributes hold (foreign keys by id, dicts for JSON); a
column left out gets the field's default, row by row."""

import functools
from datetime import datetime

from django.db import connections, models, router


def insert(model, fields, rows, *, returning=False, conflict_nothing=False):
    """Insert `rows` (tuples, one value per name in `fields`) into `model`'s table.
    Returns the new ids when `returning` (a skipped conflict has none), else None."""
    rows = list(rows)
    if not rows:
        return [] if returning else None
    # The connection itself, not django.db.connection: that proxy looks the connection up
    # on every attribute read, and values are prepared one by one.
    connection = connections[router.db_for_write(model)]
    meta = model._meta
    given = [meta.get_field(name) for name in fields]
    # Left to the database: the generated id, generated columns and database defaults.
    missing = [
        f
        for f in _writable(model)
        if f not in given and (f.has_default() or not f.has_db_default())
    ]
    columns = given + missing
    preps = [_preparer(f, connection) for f in given]
    defaults = [(f.get_default, _preparer(f, connection)) for f in missing]
    values = [
        [prep(v) for prep, v in zip(preps, row, strict=True)]
        + [prep(default()) for default, prep in defaults]
        for row in rows
    ]
    head = _head(connection, model, columns)
    tail = (" ON CONFLICT DO NOTHING" if conflict_nothing else "") + (
        f" RETURNING {connection.ops.quote_name(meta.pk.column)}" if returning else ""
    )
    if takes_arrays(connection):
        ids = _unnest(connection, head, tail, columns, values, returning)
    else:
        ids = _values(connection, head, tail, columns, values, returning)
    return ids if returning else None


def update(model, fields, rows):
    """Set `fields` of many rows, each its own values: `rows` are (id, value, ...).
    PostgreSQL: one `UPDATE ... FROM unnest(...)` (Django's bulk_update builds a CASE over
    every row, which PostgreSQL plans slowly); elsewhere one UPDATE a row, sent together."""
    rows = list(rows)
    if not rows:
        return
    connection = connections[router.db_for_write(model)]
    meta = model._meta
    columns = [meta.pk] + [meta.get_field(name) for name in fields]
    preps = [_preparer(f, connection) for f in columns]
    values = [[prep(v) for prep, v in zip(preps, row, strict=True)] for row in rows]
    quote = connection.ops.quote_name
    table, pk = quote(meta.db_table), quote(meta.pk.column)
    names = [quote(f.column) for f in columns]
    # Names come from the model; every value is a parameter.
    with connection.cursor() as cursor:
        if takes_arrays(connection):
            sets = ", ".join(f"{n} = u.{n}" for n in names[1:])
            arrays = ", ".join(f"%s::{_array_type(connection, f)}[]" for f in columns)
            cursor.execute(
                f"UPDATE {table} SET {sets} FROM unnest({arrays}) AS u({', '.join(names)})"  # noqa: S608
                f" WHERE {table}.{pk} = u.{pk}",
                [list(column) for column in zip(*values, strict=True)],
            )
        else:
            sets = ", ".join(f"{n} = %s" for n in names[1:])
            cursor.executemany(
                f"UPDATE {table} SET {sets} WHERE {pk} = %s",  # noqa: S608
                [row[1:] + row[:1] for row in values],
            )


def takes_arrays(connection):
    """Whether the database takes a list as one array parameter (PostgreSQL does)."""
    return connection.vendor == "postgresql"


def insert_objects(objs):
    """Insert unsaved instances of one model and give each its id. As with bulk_create,
    no save() and no signals."""
    objs = list(objs)
    if not objs:
        return objs
    model = type(objs[0])
    fields = _writable(model)
    rows = [tuple(f.pre_save(obj, True) for f in fields) for obj in objs]
    ids = insert(model, [f.attname for f in fields], rows, returning=True)
    alias = router.db_for_write(model)
    for obj, pk in zip(objs, ids, strict=True):
        obj.pk = pk
        obj._state.adding, obj._state.db = False, alias
    return objs


def _writable(model):
    return [
        f
        for f in model._meta.concrete_fields
        if not f.generated and not (f.primary_key and f.db_returning)
    ]


# Stock fields whose preparation leaves a value of this type as it is on PostgreSQL.
STORED_AS = {
    **dict.fromkeys([models.CharField, models.TextField, models.EmailField, models.SlugField], str),
    **dict.fromkeys(
        [
            models.AutoField,
            models.BigAutoField,
            models.IntegerField,
            models.BigIntegerField,
            models.PositiveIntegerField,
            models.PositiveSmallIntegerField,
        ],
        int,
    ),
    models.BooleanField: bool,
    models.DateTimeField: datetime,
}


def _preparer(field, connection):
    """How a column's values are prepared: as the ORM does (`get_db_prep_save`), except a
    value already of the type the column stores, which goes as it is. Preparing each of a
    500-event batch's 7,500 values through the field cost more than inserting them."""
    full = functools.partial(field.get_db_prep_save, connection=connection)
    stored = field.target_field if isinstance(field, models.ForeignKey) else field
    kind = STORED_AS.get(type(stored))
    if kind is None or not takes_arrays(connection):
        return full  # e.g. JSON, or SQLite, which takes times as text
    if kind is datetime:
        # A naive time is made aware (with a warning) by the field, as the ORM does.
        return lambda v: v if v is None or (type(v) is datetime and v.tzinfo) else full(v)
    return lambda v: v if v is None or type(v) is kind else full(v)


def _head(connection, model, columns):
    quote = connection.ops.quote_name
    names = ", ".join(quote(f.column) for f in columns)
    # Names come from the model; every value is a parameter.
    return f"INSERT INTO {quote(model._meta.db_table)} ({names})"


def _array_type(connection, field):
    # The bare type: a cast to varchar(12)[] would cut longer values silently, where
    # writing them to the varchar(12) column refuses them, as any insert does.
    return field.db_type(connection).split("(")[0]


def _unnest(connection, head, tail, columns, values, returning):
    arrays = ", ".join(f"%s::{_array_type(connection, f)}[]" for f in columns)
    sql = f"{head} SELECT * FROM unnest({arrays}){tail}"  # noqa: S608 (names and types from the model)
    with connection.cursor() as cursor:
        cursor.execute(sql, [list(column) for column in zip(*values, strict=True)])
        return [row[0] for row in cursor.fetchall()] if returning else []


def _values(connection, head, tail, columns, values, returning):
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    size = max(1, connection.ops.bulk_batch_size(columns, values))
    ids = []
    with connection.cursor() as cursor:
        for start in range(0, len(values), size):
            chunk = values[start : start + size]
            sql = f"{head} VALUES {', '.join([row] * len(chunk))}{tail}"
            cursor.execute(sql, [v for r in chunk for v in r])
            if returning:
                ids += [r[0] for r in cursor.fetchall()]
    return ids
