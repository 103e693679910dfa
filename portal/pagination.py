"""Keyset pagination for lists that grow with the program, and counts that stop at a bound.

A page is the next `size` rows after the last row shown, found through the sort's index
(`WHERE (a, b) < (last a, last b) ORDER BY a, b LIMIT size + 1`), so page 400 costs what
page 1 costs, and no page counts or skips every row (no COUNT(*), no OFFSET).
The cursor carries the sort values of the row it starts after, in the URL; a cursor that
does not decode or does not fit the sort is simply the first page (never an error)."""

import base64
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import urlencode

from django.core.exceptions import ValidationError
from django.db.models import IntegerField, Q, Subquery

from .converters import MAX_ID

PAGE_SIZE = 50
COUNT_BOUND = 1000


@dataclass
class Page:
    rows: list
    next_cursor: str = ""
    prev_cursor: str = ""
    is_first: bool = True
    params: dict = field(default_factory=dict)  # the other query parameters, kept in links

    def __iter__(self):
        return iter(self.rows)

    def __len__(self):
        return len(self.rows)

    def _link(self, **cursor):
        return "?" + urlencode({**self.params, **cursor})

    @property
    def next_url(self):
        return self._link(after=self.next_cursor) if self.next_cursor else ""

    @property
    def prev_url(self):
        if self.is_first:
            return ""
        return self._link(before=self.prev_cursor) if self.prev_cursor else self._link()

    @property
    def first_url(self):
        return "" if self.is_first else self._link()


def _encode(values):
    raw = json.dumps(values, default=str, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode(cursor, fields):
    """The sort values in a cursor, as Python values of the sort's fields; None if hostile."""
    if not cursor or len(cursor) > 500:
        return None
    try:
        values = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except ValueError:
        return None
    if not isinstance(values, list) or len(values) != len(fields):
        return None
    if any(isinstance(v, str) and ("\x00" in v or len(v) > 200) for v in values):
        return None
    # No row has an empty value in a field that cannot be empty: the query cannot compare
    # with one (ValueError, a 500).
    if any(v is None and not f.null for f, v in zip(fields, values, strict=True)):
        return None
    try:
        return [
            _as_compared(f.to_python(v)) if v is not None else None
            for f, v in zip(fields, values, strict=True)
        ]
    except (ValidationError, TypeError, ValueError, OverflowError):
        return None


def _as_compared(value):
    """A value as the database compares it: a time in UTC, an integer in 64 bits. One with
    no such form (9999-12-31T23:59:59-14:00, 2**63) fails here, not in the query (SQLite's
    OverflowError, PostgreSQL's "bigint out of range": a 500)."""
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.astimezone(UTC)
    if isinstance(value, int) and not -MAX_ID - 1 <= value <= MAX_ID:
        raise OverflowError(f"{value} does not fit in 64 bits")
    return value


def _field(model, path):
    """The model field a sort path (`created_at`, `job__submitted_at`) ends at."""
    parts = path.split("__")
    for part in parts[:-1]:
        model = model._meta.get_field(part).related_model
    return model._meta.pk if parts[-1] == "pk" else model._meta.get_field(parts[-1])


def _after(order, values):
    """Rows strictly after `values` in `order`: (a > x) or (a = x and b > y) or …, with the
    first key also as a plain bound (a >= x) so the database can start in its index there."""
    names = [o.lstrip("-") for o in order]
    ops = ["lt" if o.startswith("-") else "gt" for o in order]
    condition = Q()
    for i in range(len(order)):
        step = Q(**{f"{names[j]}": values[j] for j in range(i)})
        step &= Q(**{f"{names[i]}__{ops[i]}": values[i]})
        condition |= step
    bound = Q(**{f"{names[0]}__{ops[0][0]}te": values[0]})
    return bound & condition


def _flip(order):
    return [o[1:] if o.startswith("-") else f"-{o}" for o in order]


def _values(row, order):
    """The sort values of a row: a model instance, or a dict from .values() (whose keys are
    the sort's paths)."""
    values = []
    for path in (o.lstrip("-") for o in order):
        if isinstance(row, dict):
            value = row[path]
        else:
            value = row
            for part in path.split("__"):
                value = getattr(value, part)
        values.append(value.isoformat() if hasattr(value, "isoformat") else value)
    return values


def keyset_page(queryset, *, order, request=None, after="", before="", size=PAGE_SIZE):
    """One page of `queryset` sorted by `order` (field names, `-` for descending; the last
    must be unique, e.g. "-pk"). Pass the request to read `after`/`before` from its query
    and keep its other parameters in the links."""
    params = {}
    if request is not None:
        params = {k: v for k, v in request.GET.items() if k not in ("after", "before")}
        after, before = request.GET.get("after", ""), request.GET.get("before", "")
    fields = [_field(queryset.model, o.lstrip("-")) for o in order]
    going_back = False
    start = _decode(after, fields) if after else None
    if start is None and before:
        start = _decode(before, fields)
        going_back = start is not None
    if going_back:
        flipped = _flip(order)
        rows = list(queryset.filter(_after(flipped, start)).order_by(*flipped)[: size + 1])
        more_before = len(rows) > size
        rows = rows[:size][::-1]
        return Page(
            rows=rows,
            next_cursor=_encode(_values(rows[-1], order)) if rows else "",
            prev_cursor=_encode(_values(rows[0], order)) if more_before and rows else "",
            is_first=not more_before,
            params=params,
        )
    if start is not None:
        queryset = queryset.filter(_after(order, start))
    rows = list(queryset.order_by(*order)[: size + 1])
    more = len(rows) > size
    rows = rows[:size]
    return Page(
        rows=rows,
        next_cursor=_encode(_values(rows[-1], order)) if more else "",
        prev_cursor=_encode(_values(rows[0], order)) if start is not None and rows else "",
        is_first=start is None,
        params=params,
    )


def bounded_count(queryset, bound=COUNT_BOUND):
    """How many rows, counting no further than `bound` + 1 (the database stops there)."""
    return queryset.order_by()[: bound + 1].count()


def bounded_counts(querysets, bound=COUNT_BOUND):
    """bounded_count() of each queryset: a query each, each stopping at the bound."""
    return [bounded_count(queryset, bound) for queryset in querysets]


class BoundedCount(Subquery):
    """bounded_count() of a queryset (which may name OuterRef) as a column of another
    query: a page that reads one row anyway (a window, say) gets its counts in that row,
    not in a query of their own."""

    template = "(SELECT COUNT(*) FROM (%(subquery)s) bounded)"
    output_field = IntegerField()

    def __init__(self, queryset, bound=COUNT_BOUND):
        super().__init__(queryset.order_by().values("pk")[: bound + 1])


def shown_count(n, bound=COUNT_BOUND):
    """ "1,000+" past the bound, else the number with thousands separators."""
    return f"{bound:,}+" if n > bound else f"{n:,}"
