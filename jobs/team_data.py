"""The jobs app's part of a team's data (portal/team_archive.py): its jobs with every
revision, reviews, status history and discussion, the imported files as they were, and the
runs with their events, holds (the ledger) and dispatches."""

import hashlib
from itertools import chain

from django.db.models import Sum

from portal import badges
from portal.models import User
from portal.team_archive import CHUNK, person, safe_name

from .models import (
    Comment,
    FieldSignal,
    JobDescription,
    JobStatusChange,
    JobStatusCount,
    ReadMark,
    Review,
    Revision,
)
from .runs.models import Dispatch, Event, Hold, Run, RunOutcome

FILES = [
    (
        "jobs.json",
        "Each job: name, status, who made and last changed it, and its description as last "
        "saved (data: the work, data, request, output and real-time parts).",
    ),
    (
        "revisions.json",
        "Every revision submitted for review: the job it belongs to (job_id), its number, who "
        "submitted it when, the warnings acknowledged, and the description exactly as submitted.",
    ),
    ("reviews.json", "Staff reviews of each revision: outcome, note, the fields asked about."),
    ("job_history.json", "Each move of a job's status: from, to, who, when, why."),
    ("comments.json", "The discussion of each job: author, text, the field it is about, replies."),
    (
        "runs.json",
        "The run of each accepted job: its state, restarts, failure reason, and its outcome "
        "(declared against observed) once it ended.",
    ),
    ("run_events.json", "Each lifecycle event of a run as received: kind, times, who sent it."),
    (
        "run_holds.json",
        "The ledger: what the network held for each run, in which phase, from when to when.",
    ),
    ("run_dispatches.json", "Runs sent to a Slurm cluster: the batch scripts and Slurm job ids."),
    (
        "imports/<job id>-r<revision>-<file name>",
        "The original file a job was imported from (a SkyPilot task or an sbatch script), as "
        "it was, once per revision that carries it; -draft- for a job's last saved description. "
        "In the JSON its text is replaced by the name of this file (source.file).",
    ),
]


def _source_text(data):
    source = (data or {}).get("source")
    if isinstance(source, dict) and source.get("text"):
        return source["text"]
    return None


def _key(job_id, text):
    return job_id, hashlib.sha256(text.encode()).hexdigest()


def _export_imports(team, archive):
    """Each imported file as its own file, once per job and text (revisions first, then a
    job's last saved description if its text differs). Returns (job, text hash) -> name."""
    names = {}
    revisions = (
        Revision.objects.filter(job__team=team)
        .order_by("job", "number")
        .values_list("job_id", "number", "data")
    )
    jobs = JobDescription.objects.filter(team=team).order_by("pk").values_list("pk", "data")
    rows = chain(
        ((job_id, f"r{n}", data) for job_id, n, data in revisions.iterator(chunk_size=CHUNK)),
        ((job_id, "draft", data) for job_id, data in jobs.iterator(chunk_size=CHUNK)),
    )
    for job_id, label, data in rows:
        text = _source_text(data)
        if text is None or _key(job_id, text) in names:
            continue
        filename = safe_name(data["source"].get("filename"), "imported")
        names[_key(job_id, text)] = archive.text(f"imports/{job_id}-{label}-{filename}", text)
    return names


def _with_source_file(data, job_id, names):
    """The description with the imported file's text replaced by that file's name."""
    text = _source_text(data)
    if text is None:
        return data
    kept = {k: v for k, v in data["source"].items() if k != "text"}
    return {**data, "source": {**kept, "file": names[_key(job_id, text)]}}


def export(team, archive):
    jobs = JobDescription.objects.filter(team=team).order_by("pk")
    names = _export_imports(team, archive)
    revisions = (
        Revision.objects.filter(job__team=team)
        .select_related("submitted_by")
        .order_by("job", "number")
    )
    archive.records(
        "revisions.json",
        (
            {
                "id": r.pk,
                "job_id": r.job_id,
                "number": r.number,
                "submitted_by": person(r.submitted_by),
                "submitted_at": r.submitted_at,
                "warnings_acknowledged": r.warnings_acknowledged,
                "data": _with_source_file(r.data, r.job_id, names),
            }
            for r in revisions.iterator(chunk_size=CHUNK)
        ),
    )
    archive.records(
        "jobs.json",
        (
            {
                "id": j.pk,
                "name": j.name,
                "status": j.status,
                "clarify_fields": j.clarify_fields,
                "created_by": person(j.created_by),
                "created_at": j.created_at,
                "updated_by": person(j.updated_by),
                "updated_at": j.updated_at,
                "data": _with_source_file(j.data, j.pk, names),
            }
            for j in jobs.select_related("created_by", "updated_by").iterator(chunk_size=CHUNK)
        ),
    )
    reviews = (
        Review.objects.filter(revision__job__team=team)
        .select_related("revision", "reviewer")
        .order_by("pk")
    )
    archive.records(
        "reviews.json",
        (
            {
                "id": r.pk,
                "job_id": r.revision.job_id,
                "revision_id": r.revision_id,
                "revision_number": r.revision.number,
                "outcome": r.outcome,
                "note": r.note,
                "fields": r.fields,
                "reviewer": person(r.reviewer),
                "created_at": r.created_at,
            }
            for r in reviews.iterator(chunk_size=CHUNK)
        ),
    )
    changes = JobStatusChange.objects.filter(job__team=team).select_related("actor").order_by("pk")
    archive.records(
        "job_history.json",
        (
            {
                "id": c.pk,
                "job_id": c.job_id,
                "from_status": c.from_status,
                "to_status": c.to_status,
                "by": person(c.actor),
                "note": c.note,
                "at": c.created_at,
            }
            for c in changes.iterator(chunk_size=CHUNK)
        ),
    )
    comments = Comment.objects.filter(job__team=team).select_related("author").order_by("pk")
    archive.records(
        "comments.json",
        (
            {
                "id": c.pk,
                "job_id": c.job_id,
                "reply_to": c.parent_id,
                "about": c.anchor,
                "author": person(c.author),
                "by_staff": c.by_staff,
                "body": c.body,
                "created_at": c.created_at,
            }
            for c in comments.iterator(chunk_size=CHUNK)
        ),
    )
    _export_runs(team, archive)


_OUTCOME_LEFT_OUT = {"id", "run", "team"}


def _outcome(run):
    outcome = getattr(run, "outcome", None)
    if outcome is None:
        return None
    return {
        f.name: getattr(outcome, f.attname)
        for f in RunOutcome._meta.concrete_fields
        if f.name not in _OUTCOME_LEFT_OUT
    }


def _export_runs(team, archive):
    runs = Run.objects.filter(job__team=team).select_related("revision", "outcome").order_by("pk")
    archive.records(
        "runs.json",
        (
            {
                "id": r.pk,
                "job_id": r.job_id,
                "revision_number": r.revision.number,
                "state": r.state,
                "state_since": r.state_since,
                "restarts": r.restarts,
                "failure_reason": r.failure_reason,
                "simulated": r.simulated,
                "created_at": r.created_at,
                "outcome": _outcome(r),
            }
            for r in runs.iterator(chunk_size=CHUNK)
        ),
    )
    events = (
        Event.objects.filter(run__job__team=team)
        .with_senders()
        .order_by("run", "occurred_at", "received_at", "pk")
    )
    archive.records(
        "run_events.json",
        (
            {
                "id": e.pk,
                "run_id": e.run_id,
                "kind": e.kind,
                "requeue_to": e.requeue_to,
                "failure_reason": e.failure_reason,
                "occurred_at": e.occurred_at,
                "received_at": e.received_at,
                "from": e.actor_label,
                "note": e.note,
                "simulated": e.simulated,
                "status": e.status,
                "reject_reason": e.reject_reason,
                "from_state": e.from_state,
                "to_state": e.to_state,
                "observed": e.observed,
            }
            for e in events.iterator(chunk_size=CHUNK)
        ),
    )
    holds = Hold.objects.filter(run__job__team=team).order_by("run", "started_at", "pk")
    archive.records(
        "run_holds.json",
        (
            {
                "id": h.pk,
                "run_id": h.run_id,
                "accelerator_type": h.accelerator_type,
                "count": h.count,
                "phase": h.phase,
                "started_at": h.started_at,
                "ended_at": h.ended_at,
                "source": h.source,
                "received_at": h.received_at,
                "observed": h.observed,
            }
            for h in holds.iterator(chunk_size=CHUNK)
        ),
    )
    dispatches = (
        Dispatch.objects.filter(run__job__team=team)
        .select_related("cluster", "dispatched_by", "cancel_requested_by")
        .order_by("pk")
    )
    archive.records(
        "run_dispatches.json",
        (
            {
                "id": d.pk,
                "run_id": d.run_id,
                "cluster": d.cluster.name,
                "state": d.state,
                "scripts": d.scripts,
                "notes": d.notes,
                "slurm_jobs": d.slurm_jobs,
                "dispatched_by": person(d.dispatched_by),
                "dispatched_at": d.dispatched_at,
                "submitted_at": d.submitted_at,
                "cancel_requested_at": d.cancel_requested_at,
                "cancel_requested_by": person(d.cancel_requested_by),
                "finished_at": d.finished_at,
            }
            for d in dispatches.iterator(chunk_size=CHUNK)
        ),
    )


def count(team):
    return {
        "jobs": JobDescription.objects.filter(team=team).count(),
        "revisions": Revision.objects.filter(job__team=team).count(),
        "reviews": Review.objects.filter(revision__job__team=team).count(),
        "comments": Comment.objects.filter(job__team=team).count(),
        "runs": Run.objects.filter(job__team=team).count(),
        "run events": Event.objects.filter(run__job__team=team).count(),
        "holds": Hold.objects.filter(run__job__team=team).count(),
        "dispatches": Dispatch.objects.filter(run__job__team=team).count(),
    }


def erase(team):
    jobs = JobDescription.objects.filter(team=team)
    runs = Run.objects.filter(job__team=team)
    counts = count(team)
    # Staff count every team's unread comments on their own badge: these leave it.
    unread = ReadMark.objects.filter(job__team=team, user__is_staff=True, unread__gt=0)
    for user_id, n in unread.values_list("user_id").annotate(n=Sum("unread")).order_by():
        User.objects.filter(pk=user_id).update(**badges.decrease("unread_comments", n))
    # A run holds its revision (PROTECT): the runs and what hangs on them go first.
    Dispatch.objects.filter(run__job__team=team).delete()
    Event.objects.filter(run__job__team=team).delete()
    Hold.objects.filter(run__job__team=team).delete()
    RunOutcome.objects.filter(team=team).delete()
    runs.delete()
    FieldSignal.objects.filter(team=team).delete()
    jobs.delete()  # with their revisions, reviews, comments, read marks and history
    JobStatusCount.objects.filter(team=team).delete()
    return counts
