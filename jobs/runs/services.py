"""Writes on runs: lifecycle events, holds, scheduler clients. Staff controls, the
scheduler API and the simulator all come through here."""

import hashlib
import secrets
import uuid
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from jobs.runs.models import Cluster, Hold, Phase, Run, SchedulerClient
from portal import submissions
from portal.errors import DomainError

from . import ingest
from . import observed as observed_mod

# Kept here under their old names for callers of the services module.
NOTIFY_STATES = ingest.NOTIFY_STATES
MAX_CLOCK_SKEW, MAX_BACKDATING = ingest.MAX_CLOCK_SKEW, ingest.MAX_BACKDATING
KeyConflict = ingest.KeyConflict
_check_time = ingest.check_time
# A scheduler posting many requests a second would otherwise write its client row on each.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def hash_token(token):
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
@transaction.atomic
def create_client(*, name, created_by=None, simulated=False, submission_token=None):
    """A new scheduler client; returns (client, token). The token is not stored, so the
    same form sent twice gets the client it created and no token (None)."""
    repeat = submissions.earlier(SchedulerClient.objects.all(), submission_token)
    if repeat is not None:
        return repeat, None
    name = name.strip()[:120]
    taken = f"A client called {name} already exists: revoke it or choose another name."
    if SchedulerClient.objects.filter(name__iexact=name).exists():
        raise DomainError(taken)
    token = "e31s_" + secrets.token_urlsafe(32)
    try:
        client, created = submissions.create_once(
            SchedulerClient.objects.all(),
            submission_token,
            lambda: SchedulerClient.objects.create(
                name=name,
                token_hash=hash_token(token),
                token_prefix=token[:12],
                created_by=created_by,
                simulated=simulated,
                submission_token=submission_token,
            ),
        )
    except IntegrityError:
        # Another staff member created a client of this name since the check.
        raise DomainError(taken) from None
    return client, token if created else None


def client_for_token(token):
    if not token or len(token) > 200:
        return None
    client = SchedulerClient.objects.filter(
        token_hash=hash_token(token), revoked_at__isnull=True
    ).first()
    now = timezone.now()
    # Noted within the minute (what the row just read says): not even a query. The
    # condition is in SQL too, for two requests that read the same old time.
    if client is not None and (
        client.last_used_at is None or client.last_used_at < now - LAST_USED_RESOLUTION
    ):
        SchedulerClient.objects.filter(pk=client.pk).filter(
            Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - LAST_USED_RESOLUTION)
        ).update(last_used_at=now)
    return client


@transaction.atomic(durable=True)
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
    """Record one event. Returns (event, created). A repeated key changes nothing (a key
    reused for a different event raises KeyConflict); an event illegal at its place in
    time is kept as rejected, with the reason. `observed` holds what the scheduler
    measured (observed.OBSERVED_KEYS), all optional."""
    item = ingest.Incoming(
        job_id=run.job_id,
        kind=kind,
        occurred_at=occurred_at,
        idempotency_key=idempotency_key,
        note=note,
        requeue_to=requeue_to,
        failure_reason=failure_reason,
        observed=observed,
    )
    (outcome,) = ingest.record([item], client=client, actor=actor)
    if outcome.conflict:
        raise KeyConflict(outcome.error)
    if outcome.error:
        raise DomainError(outcome.error)
    return outcome.event, outcome.created


@transaction.atomic(durable=True)
def record_events(*, items, client=None):
    """A batch of events (ingest.Incoming, each naming its job) in one transaction.
    Returns one ingest.Outcome per item, in order."""
    return ingest.record(items, client=client)


@transaction.atomic(durable=True)
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
    simulated = bool(client and client.simulated)
    _check_time(run, started_at, "started_at", simulated)
    if ended_at is not None:
        _check_time(run, ended_at, "ended_at", simulated)
    existing = run.holds.filter(idempotency_key=idempotency_key).first()
    if existing is not None:
        same = (
            existing.accelerator_type == accelerator_type
            and existing.count == count
            and existing.phase == phase
            and existing.started_at == started_at
        )
        if not same:
            raise KeyConflict(
                "This idempotency key was used for a different hold: the earlier hold is kept "
                "(a different body needs a new key)."
            )
        if existing.ended_at is None and ended_at is not None:
            existing.ended_at = ended_at
            existing.observed = {**existing.observed, **observed}
            existing.save(update_fields=["ended_at", "observed"])
            _outcome_after_hold(run)
            return existing, "closed"
        if observed and {**existing.observed, **observed} != existing.observed:
            raise KeyConflict(
                "This idempotency key was used for a different hold: the earlier hold is kept "
                "(a different body needs a new key)."
            )
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
