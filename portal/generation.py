"""Figures kept until some models are written: a *generation*, a token in the cache that
every committed write of those models replaces; a figure kept under another token is
computed again.

A bounded count still reads up to a thousand rows of an index on every visit, for a figure
that changes only when a row is written. The models' signals (post_save, post_delete and,
for links, m2m_changed: sent by the services, the admin and a cascade alike) replace the
token once the write's transaction commits: a visit computing while the write is not yet
visible keeps what it computed under the old token, which the reset then retires. Writes
that send no signal (QuerySet.update, bulk writes) call `reset_after_commit` themselves or
show after the figure's max age."""

import uuid

from django.core.cache import cache
from django.db.models.signals import m2m_changed, post_delete, post_save

from .kept import code_stamp
from .outbox import after_commit


class Generation:
    """`key`: the token's cache key. `models`: "app_label.Model" whose writes replace it;
    `links`: many-to-many through models ("app_label.Model") whose changes do."""

    def __init__(self, key, *, models=(), links=()):
        self.key, self.models, self.links = key, models, links

    def reset(self):
        """Retire every figure kept under the current token."""
        cache.set(self.key, uuid.uuid4().hex, None)

    def reset_after_commit(self):
        after_commit(self.reset)

    def kept(self, key, compute, *, found=None, extra=(), max_age=300):
        """compute(), or what it returned last time under the current token (and the same
        `extra`, what else the figure depends on), younger than `max_age` seconds. `found`:
        the cache's entries for the token and `key`, if the caller read them with others."""
        if found is None:
            found = cache.get_many([self.key, key])
        generation = found.get(self.key)
        entry = found.get(key)
        if (
            generation is not None
            and entry is not None
            and entry[0]
            == (
                code_stamp(),
                generation,
                *extra,
            )
        ):
            return entry[1]
        value = compute()
        if generation is None:
            # None kept yet (or evicted): start one. If another visit just did, keep nothing.
            generation = uuid.uuid4().hex
            if not cache.add(self.key, generation, None):
                return value
        cache.set(key, ((code_stamp(), generation, *extra), value), max_age)
        return value

    def _written(self, **kwargs):
        self.reset_after_commit()

    def _linked(self, action, **kwargs):
        if action in ("post_add", "post_remove", "post_clear"):
            self.reset_after_commit()

    def connect(self):
        """Reset after each write of the models (an AppConfig's ready(): lazy senders, so no
        app imports another's models to listen to them)."""
        for model in self.models:
            uid = f"{self.key}:{model}"
            post_save.connect(self._written, sender=model, dispatch_uid=uid, weak=False)
            post_delete.connect(self._written, sender=model, dispatch_uid=uid, weak=False)
        for through in self.links:
            uid = f"{self.key}:{through}"
            m2m_changed.connect(self._linked, sender=through, dispatch_uid=uid, weak=False)


# What the staff home counts (portal.context_processors.staff_glance). The ingest's bulk
# writes of runs reset it themselves.
STAFF_GLANCE = Generation(
    "staff-glance:generation",
    models=("portal.IntakeApplication", "jobs.JobDescription", "jobs.Run", "findings.Finding"),
)
