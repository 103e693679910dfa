"""The read-only parts of a job page, kept rendered until a row they show changes.

A finished run's timeline, ledger and events, a job's revisions, reviews and status
history, the staff's blank review form, and its discussion, are most of what a job page costs, and they change only when
one of their rows does. Their stamp is a digest of those rows themselves (every column of
the run, its dispatch, events and holds; the revisions', reviews' and status changes' shown
columns; every column of the comments; the names of the people and schedulers they name),
computed by PostgreSQL with the job (selectors.get_job_for_page), each part an index
look-up: any write, however made (services, ingest, admin), changes it. Forms and anything
per person stay out (the CSRF token, the staff's controls): the discussion's reply forms
are kept with marks where their tokens go (jobs/discussion.py); what differs by role is
kept per role. On other databases nothing is kept (the stamp is None)."""

import functools

from django.db import connection
from django.db.models import Max
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from jobs.runs.models import Cluster, Dispatch, Event, Hold, Run, SchedulerClient
from portal.kept import person_sql

from .discussion import CSRF_MARK, threads_html
from .models import Comment, JobDescription, JobStatusChange, Review, Revision
from .review.presenters import review_groups

MAX_AGE = 3600  # the digest sees every change; this only lets unread entries go
_MODELS = (
    Run,
    Dispatch,
    Cluster,
    Event,
    Hold,
    SchedulerClient,
    Revision,
    Review,
    JobStatusChange,
    Comment,
)


@functools.cache
def stamps_sql():
    """{name: SQL expression} of the digests, over the job (alias j) and its run (alias r):
    read with the job by selectors.get_job_for_page, or on their own by Stamps."""
    t = {m.__name__: connection.ops.quote_name(m._meta.db_table) for m in _MODELS}
    named = person_sql
    # Table names from the models' metadata; no values (the ids are the job's and run's own).
    return {
        "run": f"""md5(concat_ws('|',
        (SELECT r2::text FROM {t["Run"]} r2 WHERE r2.id = r.id),
        (SELECT concat(d::text, c.name, '/', c.partition, '/', {named("d.cancel_requested_by_id")})
           FROM {t["Dispatch"]} d JOIN {t["Cluster"]} c ON c.id = d.cluster_id
           WHERE d.run_id = r.id),
        (SELECT string_agg(concat(e::text, {named("e.actor_id")}, '/',
                  (SELECT s.name FROM {t["SchedulerClient"]} s WHERE s.id = e.client_id)),
                '|' ORDER BY e.id)
           FROM {t["Event"]} e WHERE e.run_id = r.id),
        (SELECT string_agg(h::text, '|' ORDER BY h.id) FROM {t["Hold"]} h
           WHERE h.run_id = r.id)))""",  # noqa: S608
        "open_hold": f"""EXISTS (SELECT 1 FROM {t["Hold"]} h
           WHERE h.run_id = r.id AND h.ended_at IS NULL)""",  # noqa: S608
        "record": f"""md5(concat_ws('|',
        (SELECT string_agg(concat(v.id, '/', v.number, '/', v.submitted_at, '/',
                  {named("v.submitted_by_id")}, '/', md5(v.data::text)), '|' ORDER BY v.id)
           FROM {t["Revision"]} v WHERE v.job_id = j.id),
        (SELECT string_agg(concat(w::text, {named("w.reviewer_id")}), '|' ORDER BY w.id)
           FROM {t["Review"]} w JOIN {t["Revision"]} v ON v.id = w.revision_id
           WHERE v.job_id = j.id),
        (SELECT string_agg(concat(c::text, {named("c.actor_id")}), '|' ORDER BY c.id)
           FROM {t["JobStatusChange"]} c WHERE c.job_id = j.id)))""",  # noqa: S608
        "latest_number": f"""(SELECT max(v.number) FROM {t["Revision"]} v
           WHERE v.job_id = j.id)""",  # noqa: S608
        "discussion": f"""md5(concat_ws('|',
        (SELECT string_agg(concat(k::text, {named("k.author_id")}), '|' ORDER BY k.id)
           FROM {t["Comment"]} k WHERE k.job_id = j.id)))""",  # noqa: S608
    }


class Stamps:
    """The digests of a job page's run and record, read with the job (`job.also`, see
    stamps_sql) or else in one query of their own (PostgreSQL; elsewhere no digest, and
    only the latest revision's number is read)."""

    def __init__(self, job, run, clock=None):
        self.run = self.record = self.discussion = None
        if connection.vendor != "postgresql":
            self.latest_number = job.revisions.aggregate(n=Max("number"))["n"]
            return
        values = getattr(job, "also", {})
        if not all(name in values for name in stamps_sql()):
            values = _read(job)
        self.record, self.latest_number = values["record"], values["latest_number"]
        self.discussion = values["discussion"]
        if run is not None and run.is_final and not values["open_hold"]:
            self.run = values["run"]
        elif run is not None and clock is not None and values["run"] is not None:
            # An active run's section moves with the clock (open phases and holds, the
            # simulated now), shown to the second: kept for the second it was read at.
            self.run = f"{values['run']}@{clock.isoformat()}"


def _read(job):
    expressions = stamps_sql()
    job_table = connection.ops.quote_name(JobDescription._meta.db_table)
    run_table = connection.ops.quote_name(Run._meta.db_table)
    with connection.cursor() as cursor:
        # The expressions and table names are our own SQL; the only value, the id, a parameter.
        cursor.execute(
            f"SELECT {', '.join(expressions.values())} FROM {job_table} j"  # noqa: S608
            f" LEFT JOIN {run_table} r ON r.job_id = j.id WHERE j.id = %s",
            [job.pk],
        )
        return dict(zip(expressions, cursor.fetchone(), strict=True))


def run_live(stamps, request, job, run, context):
    """The run's timeline, ledger and events as HTML, kept per run and role (staff are not
    offered to file a finding), the cancel form's CSRF token (an active run's) as a mark to
    replace on each visit (discussion.with_tokens): an entry for portal.kept.kept_all."""
    role = "staff" if request.user.is_staff else "partner"
    return (
        f"job-page:run:{run.pk}:{role}",
        stamps.run,
        lambda: render_to_string(
            "jobs/_run.html#run-live",
            {"job": job, **context(), "csrf_token": SafeString(CSRF_MARK)},
            request=request,
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


def review_form(stamps, request, job, latest):
    """The staff's review form of the latest revision, blank, as HTML: the fields it offers
    to name are the revision's (its data is in the record's digest), the same for every
    reviewer; its CSRF token a mark to replace on each visit (discussion.with_tokens). An
    entry for portal.kept.kept_all; `latest` reads the revision when rendered."""

    def render():
        revision = latest()
        return render_to_string(
            "jobs/_review_form.html",
            {
                "job": job,
                "revision": revision,
                "review_values": {},
                "review_groups": review_groups(revision),
                "csrf_token": SafeString(CSRF_MARK),
            },
            request=request,
        )

    return (f"job-page:review-form:{job.pk}", stamps.record, render)


def discussion(stamps, job, threads):
    """The comments and their reply forms as HTML (jobs/discussion.py), the forms' tokens
    as marks to replace on each visit: the same for everyone who may see the job. An entry
    for portal.kept.kept_all; `threads` reads them (selectors.discussion) when rendered."""
    return (
        f"job-page:discussion:{job.pk}",
        stamps.discussion,
        lambda: threads_html(job, threads()),
    )
