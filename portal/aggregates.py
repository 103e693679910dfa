"""Aggregates Django does not ship, computed by the database on PostgreSQL and SQLite alike.

PostgreSQL has the median built in (percentile_cont). SQLite has none, so one is registered on
each new SQLite connection (portal/apps.py): it still runs inside the database's own GROUP BY,
one value per group comes back to Python."""

import statistics

from django.db.models import Aggregate, FloatField


class Median(Aggregate):
    """The median of a numeric expression (NULLs left out, as every aggregate does)."""

    function = "PERCENTILE_CONT"
    name = "Median"
    output_field = FloatField()
    template = "%(function)s(0.5) WITHIN GROUP (ORDER BY %(expressions)s)"
    allow_distinct = False

    def as_sqlite(self, compiler, connection, **extra):
        return super().as_sql(
            compiler, connection, function="PORTAL_MEDIAN", template="%(function)s(%(expressions)s)"
        )


class MedianSeconds(Median):
    """The median of a duration expression (e.g. F("end") - F("start")), in seconds."""

    name = "MedianSeconds"
    template = "%(function)s(0.5) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM %(expressions)s))"

    def as_sqlite(self, compiler, connection, **extra):
        # Django's SQLite backend subtracts datetimes into microseconds.
        return super(Median, self).as_sql(
            compiler,
            connection,
            function="PORTAL_MEDIAN",
            template="(%(function)s(%(expressions)s) / 1000000.0)",
        )


class _SqliteMedian:
    def __init__(self):
        self.values = []

    def step(self, value):
        if value is not None:
            self.values.append(float(value))

    def finalize(self):
        return statistics.median(self.values) if self.values else None


def register_sqlite_functions(sender, connection, **kwargs):
    """connection_created receiver: give a new SQLite connection the median aggregate."""
    if connection.vendor == "sqlite":
        connection.connection.create_aggregate("PORTAL_MEDIAN", 1, _SqliteMedian)
