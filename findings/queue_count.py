"""How many findings the triage queue's filters match ("1,000+"), kept per filter set until a
finding or its links to problems change.

A bounded count still reads up to a thousand rows of an index (a search: of the words'
index, ~2-3 ms at a hundred times the program), on every visit of every page of the queue,
for a figure that changes only when a finding is written. Each filter set's count is kept
under a *generation*, a token every write of a finding, or of its links, replaces once its
transaction commits (signals, wired in FindingsConfig.ready: the services, the admin and a
cascade all send them); a count kept under another generation is counted again. The reset
waits for the commit: a visit counting while the write is not yet visible keeps what it
counted under the old generation, which the reset then retires.

Writes that send no signal (QuerySet.update, bulk_create: load_scale, the demo's dates)
show after MAX_AGE at most. The age filter's count moves with the clock, not with writes:
it is never kept."""

import hashlib
import uuid

from django.core.cache import cache
from django.db.models.signals import m2m_changed, post_delete, post_save

from portal.kept import code_stamp
from portal.outbox import after_commit
from portal.pagination import bounded_count

from .models import Finding

GENERATION = "triage-queue:count-generation"
KEY = "triage-queue:count:{}"
MAX_AGE = 300
# Query parameters that page or sort the queue: the same findings match whatever they say.
NOT_FILTERS = ("after", "before", "sort")


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
    generation = found.get(GENERATION)
    valid = (code_stamp(), generation, stamp, _filter_set(filters))
    entry = found.get(key)
    if generation is not None and entry is not None and entry[0] == valid:
        return entry[1]
    n = bounded_count(queryset)
    if generation is None:
        # None kept yet (or evicted): start one. If another visit just did, keep nothing.
        generation = uuid.uuid4().hex
        if not cache.add(GENERATION, generation, None):
            return n
    cache.set(key, ((code_stamp(), generation, stamp, _filter_set(filters)), n), MAX_AGE)
    return n


def reset():
    """Retire every kept count: the next visit of each filter set counts again."""
    cache.set(GENERATION, uuid.uuid4().hex, None)


def _finding_written(**kwargs):
    after_commit(reset)


def _links_written(action, **kwargs):
    if action in ("post_add", "post_remove", "post_clear"):
        after_commit(reset)


def connect():
    """Reset after each write of a finding or of its links to problems (FindingsConfig.ready)."""
    uid = "triage-queue-count"
    post_save.connect(_finding_written, sender=Finding, dispatch_uid=uid)
    post_delete.connect(_finding_written, sender=Finding, dispatch_uid=uid)
    m2m_changed.connect(_links_written, sender=Finding.problems.through, dispatch_uid=uid)
