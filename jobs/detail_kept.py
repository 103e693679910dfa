"""The read-only parts of a job page, kept rendered until a row they show changes.

A finished run's timeline, ledger and events, and a job's revisions, reviews and status
history, are most of what a job page costs, and they change only when one of their rows
does. Their stamp is a digest of those rows themselves (every column of the run, its
dispatch, events and holds; the revisions', reviews' and status changes' shown columns;
the names of the people and schedulers they name), computed by PostgreSQL in one query of
index look-ups: any write, however made (services, ingest, admin), changes it. Forms and
anything per person stay out (the CSRF token, the staff's controls); what differs by role
is kept per role. On other databases nothing is kept (the stamp is None)."""

from django.db import connection
from django.db.models import Max
from django.template.loader import render_to_string

from portal.models import User

from .models import (
    Cluster,
    Dispatch,
    Event,
    Hold,
    JobStatusChange,
    Review,
    Revision,
    Run,
    SchedulerClient,
)

MAX_AGE = 3600  # the digest sees every change; this only lets unread entries go
_MODELS = (Run, Dispatch, Cluster, Event, Hold, SchedulerClient, Revision, Review, JobStatusChange)


def _sql():
    t = {m.__name__: connection.ops.quote_name(m._meta.db_table) for m in _MODELS}
    user = connection.ops.quote_name(User._meta.db_table)

    def named(column):
        # str(user) is the full name or the e-mail: both are in the digest.
        return f"(SELECT concat(full_name, '/', email) FROM {user} WHERE id = {column})"  # noqa: S608

    # Table names from the models' metadata; the only values are the two ids, as parameters.
    return f"""
    SELECT
      md5(concat_ws('|',
        (SELECT r::text FROM {t["Run"]} r WHERE r.id = %(run)s),
        (SELECT concat(d::text, c.name, '/', c.partition, '/', {named("d.cancel_requested_by_id")})
           FROM {t["Dispatch"]} d JOIN {t["Cluster"]} c ON c.id = d.cluster_id
           WHERE d.run_id = %(run)s),
        (SELECT string_agg(concat(e::text, {named("e.actor_id")}, '/',
                  (SELECT s.name FROM {t["SchedulerClient"]} s WHERE s.id = e.client_id)),
                '|' ORDER BY e.id)
           FROM {t["Event"]} e WHERE e.run_id = %(run)s),
        (SELECT string_agg(h::text, '|' ORDER BY h.id) FROM {t["Hold"]} h
           WHERE h.run_id = %(run)s))),
      EXISTS (SELECT 1 FROM {t["Hold"]} h WHERE h.run_id = %(run)s AND h.ended_at IS NULL),
      md5(concat_ws('|',
        (SELECT string_agg(concat(v.id, '/', v.number, '/', v.submitted_at, '/',
                  {named("v.submitted_by_id")}), '|' ORDER BY v.id)
           FROM {t["Revision"]} v WHERE v.job_id = %(job)s),
        (SELECT string_agg(concat(w::text, {named("w.reviewer_id")}), '|' ORDER BY w.id)
           FROM {t["Review"]} w JOIN {t["Revision"]} v ON v.id = w.revision_id
           WHERE v.job_id = %(job)s),
        (SELECT string_agg(concat(c::text, {named("c.actor_id")}), '|' ORDER BY c.id)
           FROM {t["JobStatusChange"]} c WHERE c.job_id = %(job)s))),
      (SELECT max(v.number) FROM {t["Revision"]} v WHERE v.job_id = %(job)s)
    """  # noqa: S608


class Stamps:
    """The digests of a job page's run and record, read in one query (PostgreSQL; elsewhere
    no digest, and only the latest revision's number is read)."""

    def __init__(self, job, run):
        self.run = self.record = None
        if connection.vendor != "postgresql":
            self.latest_number = job.revisions.aggregate(n=Max("number"))["n"]
            return
        with connection.cursor() as cursor:
            cursor.execute(_sql(), {"run": run.pk if run else 0, "job": job.pk})
            run_digest, open_hold, self.record, self.latest_number = cursor.fetchone()
        # An active run's page moves with the clock (open phases, the simulated now): never kept.
        if run is not None and run.is_final and not open_hold:
            self.run = run_digest


def run_live(stamps, request, job, run, context):
    """The run's timeline, ledger and events as HTML, kept per run and role (staff are not
    offered to file a finding): an entry for portal.kept.kept_all."""
    role = "staff" if request.user.is_staff else "partner"
    return (
        f"job-page:run:{run.pk}:{role}",
        stamps.run,
        lambda: render_to_string(
            "jobs/_run.html#run-live", {"job": job, **context()}, request=request
        ),
    )


def record(stamps, request, job, context):
    """The revisions with their reviews, and the status history, as HTML: the same for
    everyone who may see the job. An entry for portal.kept.kept_all."""
    return (
        f"job-page:record:{job.pk}",
        stamps.record,
        lambda: render_to_string(
            "jobs/detail.html#record", {"job": job, **context()}, request=request
        ),
    )
