"""Writes on runs: lifecycle events, holds, scheduler clients. Staff controls, the
scheduler API and the simulator all come through here."""

import hashlib
import secrets
import uuid
from datetime import timedelta

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from jobs.models import (
    FINAL_STATES,
    Cluster,
    Event,
    EventKind,
    FailureReason,
    Hold,
    Phase,
    Run,
    RunState,
    SchedulerClient,
)
from portal.errors import DomainError
from portal.models import NoticeTopic
from portal.notify import Email, team_people, tell
from portal.outbox import absolute_url

from . import observed as observed_mod
from .lifecycle import replay

NOTIFY_STATES = {
    RunState.RENTED: "Resources are held for {job}: data staging has started.",
    RunState.RUNNING: "{job} is running.",
    RunState.OUTPUT: "Output of {job} is being delivered.",
    RunState.RELEASED: "{job} is done: resources were released. Check the ledger.",
    RunState.FAILED: "{job} failed ({reason}).",
}
MAX_CLOCK_SKEW = timedelta(minutes=5)


# The simulator lays job time in the past; nothing real is older than this before acceptance.
MAX_BACKDATING = timedelta(days=3660)


def _check_time(run, value, name):
    if value > timezone.now() + MAX_CLOCK_SKEW:
        raise DomainError(f"{name} is in the future.")
    if value < run.created_at - MAX_BACKDATING:
        raise DomainError(f"{name} is long before the job was accepted.")


def hash_token(token):
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def create_client(*, name, created_by=None, simulated=False):
    """A new scheduler client; returns (client, token). The token is not stored."""
    token = "e31s_" + secrets.token_urlsafe(32)
    client = SchedulerClient.objects.create(
        name=name.strip()[:120],
        token_hash=hash_token(token),
        token_prefix=token[:12],
        created_by=created_by,
        simulated=simulated,
    )
    return client, token


def client_for_token(token):
    if not token or len(token) > 200:
        return None
    client = SchedulerClient.objects.filter(
        token_hash=hash_token(token), revoked_at__isnull=True
    ).first()
    if client is not None:
        SchedulerClient.objects.filter(pk=client.pk).update(last_used_at=timezone.now())
    return client


@transaction.atomic
def revoke_client(*, client):
    SchedulerClient.objects.filter(pk=client.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


def start_run(*, job, revision):
    """The accepted job enters the lifecycle, queued."""
    run, _ = Run.objects.get_or_create(job=job, defaults={"revision": revision})
    return run


@transaction.atomic
def record_event(
    *,
    run,
    kind,
    occurred_at,
    idempotency_key,
    actor=None,
    client=None,
    note="",
    requeue_to="",
    failure_reason="",
    observed=None,
):
    """Record one event. Returns (event, created). A repeated key changes nothing; an
    event illegal at its place in time is kept as rejected, with the reason. `observed`
    holds what the scheduler measured (observed.OBSERVED_KEYS), all optional."""
    run = Run.objects.select_for_update().select_related("job", "job__team").get(pk=run.pk)
    kind = EventKind(kind)
    observed = observed_mod.clean_observed(observed)
    existing = run.events.filter(idempotency_key=idempotency_key).first()
    if existing is not None:
        same = (
            existing.kind == kind
            and existing.occurred_at == occurred_at
            and existing.requeue_to == (requeue_to or "")
            and existing.failure_reason == (failure_reason or "")
            and existing.observed == observed
        )
        if not same:
            raise DomainError("This idempotency key was used for a different event.")
        return existing, False
    _check_time(run, occurred_at, "occurred_at")
    if client is not None:
        SchedulerClient.objects.filter(pk=client.pk).update(last_used_at=timezone.now())
    if failure_reason and failure_reason not in FailureReason.values:
        raise DomainError(f"failure_reason is one of {', '.join(FailureReason.values)}.")
    before = run.state
    event = Event.objects.create(
        run=run,
        kind=kind,
        occurred_at=occurred_at,
        idempotency_key=idempotency_key[:200],
        actor=actor,
        client=client,
        note=(note or "")[:2000],
        requeue_to=requeue_to or "",
        failure_reason=failure_reason or "",
        simulated=bool(client and client.simulated),
        observed=observed,
    )
    events = list(run.events.all())
    result = replay(run, events)
    Event.objects.bulk_update(events, ["status", "from_state", "to_state", "reject_reason"])
    run.state, run.state_since, run.restarts = result.state, result.state_since, result.restarts
    run.failure_reason = result.failure_reason
    run.simulated = run.simulated or event.simulated
    run.save(update_fields=["state", "state_since", "restarts", "failure_reason", "simulated"])
    run.job.__class__.objects.filter(pk=run.job_id).update(last_activity_at=timezone.now())
    if run.is_final or before in FINAL_STATES:
        observed_mod.record_outcome(run, events=events)
    event.refresh_from_db()
    if run.state != before and run.state in NOTIFY_STATES:
        _notify(run)
    return event, True


def _notify(run):
    job = run.job
    reason = run.get_failure_reason_display() if run.failure_reason else ""
    message = NOTIFY_STATES[RunState(run.state)].format(job=job, reason=reason)
    if run.simulated:
        message = f"[simulated] {message}"
    path = reverse("job_detail", args=[job.pk]) + "#run"
    tell(
        team_people(job.team),
        key=f"run:{run.pk}:{run.state}:{run.restarts}",
        notice=message,
        topic=NoticeTopic.JOB,
        url=path,
        team=job.team,
        email=Email(
            subject=message[:200],
            template="emails/run_transition.txt",
            context={"job": job, "run": run, "message": message, "url": absolute_url(path)},
        ),
    )


@transaction.atomic
def move_by_hand(*, run, kind, actor, note, requeue_to="", failure_reason=""):
    """Staff controls: the same rules as the API, with a note and the staff member as actor.
    Unlike the API, a refused move is not kept: the person sees why and nothing changes."""
    if not note.strip():
        raise DomainError("Write a note saying why the run is moved by hand.")
    event, _ = record_event(
        run=run,
        kind=kind,
        occurred_at=timezone.now(),
        idempotency_key=f"staff:{uuid.uuid4()}",
        actor=actor,
        note=note,
        requeue_to=requeue_to,
        failure_reason=failure_reason,
    )
    if event.status == "rejected":
        raise DomainError(event.reject_reason)
    return event


@transaction.atomic
def record_hold(
    *,
    run,
    accelerator_type,
    count,
    phase,
    started_at,
    ended_at,
    idempotency_key,
    client=None,
    observed=None,
):
    """Record accelerators held. Returns (hold, outcome): created, closed, or duplicate.
    Posting the same key again with an end time closes an open hold; the closing post may
    add what was measured over the hold (e.g. bytes_staged when staging ends)."""
    run = Run.objects.select_for_update().select_related("job").get(pk=run.pk)
    observed = observed_mod.clean_observed(observed)
    phase = Phase(phase)
    if count < 1 or count > 100_000:
        raise DomainError("count is between 1 and 100,000.")
    if ended_at is not None and ended_at < started_at:
        raise DomainError("ended_at is before started_at.")
    _check_time(run, started_at, "started_at")
    if ended_at is not None:
        _check_time(run, ended_at, "ended_at")
    existing = run.holds.filter(idempotency_key=idempotency_key).first()
    if existing is not None:
        same = (
            existing.accelerator_type == accelerator_type
            and existing.count == count
            and existing.phase == phase
            and existing.started_at == started_at
        )
        if not same:
            raise DomainError("This idempotency key was used for a different hold.")
        if existing.ended_at is None and ended_at is not None:
            existing.ended_at = ended_at
            existing.observed = {**existing.observed, **observed}
            existing.save(update_fields=["ended_at", "observed"])
            _outcome_after_hold(run)
            return existing, "closed"
        if observed and {**existing.observed, **observed} != existing.observed:
            raise DomainError("This idempotency key was used for a different hold.")
        return existing, "duplicate"
    hold = Hold.objects.create(
        run=run,
        accelerator_type=accelerator_type[:100],
        count=count,
        phase=phase,
        started_at=started_at,
        ended_at=ended_at,
        idempotency_key=idempotency_key[:200],
        client=client,
        simulated=bool(client and client.simulated),
        # A cluster's agent posts what the engine's own accounting recorded.
        measured=bool(client and Cluster.objects.filter(client=client).exists()),
        observed=observed,
    )
    _outcome_after_hold(run)
    return hold, "created"


def _outcome_after_hold(run):
    # A scheduler may report the last holds after the run ended: the outcome follows them.
    if run.is_final:
        observed_mod.record_outcome(run)
