"""How many findings the triage queue's filters match ("1,000+"), kept per filter set until a
finding or its links to problems change.

A bounded count still reads up to a thousand rows of an index (a search: of the words'
index, ~2-3 ms at a hundred times the program), on every visit of every page of the queue,
for a figure that changes only when a finding is written. Each filter set's count is kept
under a generation (portal/generation.py) that every write of a finding, or of its links,
replaces once its transaction commits (signals, wired in FindingsConfig.ready).

Writes that send no signal (QuerySet.update, bulk_create: load_scale, the demo's dates)
show after MAX_AGE at most. The age filter's count moves with the clock, not with writes:
it is never kept."""

import hashlib

from portal.generation import Generation
from portal.pagination import bounded_count

from .models import Finding

GENERATION = "triage-queue:count-generation"
KEY = "triage-queue:count:{}"
MAX_AGE = 300
# Query parameters that page or sort the queue: the same findings match whatever they say.
NOT_FILTERS = ("after", "before", "sort")
COUNTS = Generation(GENERATION, models=(Finding,), links=(Finding.problems.through,))


def key(params):
    """The cache key of the count of a query's filters (its parameters, as sent)."""
    shown = sorted((k, v) for k, values in params.lists() if k not in NOT_FILTERS for v in values)
    return KEY.format(hashlib.md5(repr(shown).encode(), usedforsecurity=False).hexdigest())


def _filter_set(filters):
    """The cleaned filters as the count's entry names them (not the sort)."""
    return repr(sorted((k, str(v)) for k, v in filters.items() if k not in NOT_FILTERS))


def count(queryset, filters, *, found, key, stamp):
    """The bounded count of `queryset` (the queue filtered by `filters`), from `found` (the
    cache's entries for GENERATION and `key`, read by the caller with the queue's other kept
    parts) if kept under the current generation for the same filters and lists (`stamp`:
    queue_choices.stamp(), as a search matches team names from that list); else counted and
    kept."""
    if "age" in filters:
        return bounded_count(queryset)
    return COUNTS.kept(
        key,
        lambda: bounded_count(queryset),
        found=found,
        extra=(stamp, _filter_set(filters)),
        max_age=MAX_AGE,
    )


def reset():
    """Retire every kept count: the next visit of each filter set counts again."""
    COUNTS.reset()


def connect():
    """Reset after each write of a finding or of its links to problems (FindingsConfig.ready)."""
    COUNTS.connect()
