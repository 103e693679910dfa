"""The scheduler API: the network posts lifecycle events and resource holds.

Authenticated by a bearer token per scheduler client (stored hashed, revocable).
Every write carries an idempotency key: a repeat is accepted and changes nothing, the
same key with a different body is refused with 409 (as Stripe does)."""

import logging
from datetime import UTC, datetime
from typing import Annotated, Literal

from ninja import Field, Router, Schema
from ninja.errors import HttpError
from ninja.security import HttpBearer
from pydantic import field_validator

from jobs.runs.models import EventKind, FailureReason, Phase, Run
from portal.clientip import client_ip
from portal.errors import DomainError

from . import ingest, services
from . import ledger as ledger_mod
from . import observed as observed_mod
from .presenters import simulated_now

log = logging.getLogger(__name__)

MAX_BATCH = 500


class SchedulerToken(HttpBearer):
    def authenticate(self, request, token):
        client = services.client_for_token(token)
        if client is None:
            # The client's address (behind the TLS proxy, not the proxy's): who to block.
            log.warning("scheduler API: unknown or revoked token from %s", client_ip(request))
        return client


router = Router(auth=SchedulerToken(), tags=["scheduler"])


def _aware(value):
    if value.tzinfo is None:
        raise ValueError("give a time zone, e.g. 2027-03-01T09:00:00Z")
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise ValueError("this time is outside the calendar") from None


JobId = Annotated[int, Field(ge=1, le=2**63 - 1)]
Bytes = Annotated[int, Field(ge=0, le=10**21)]
Seconds = Annotated[int, Field(ge=0, le=10**10)]


class ObservedIn(Schema):
    """What the scheduler measured, all optional: the job page sets it next to what the job
    declared. Byte counts are totals for the run so far."""

    bytes_staged: Bytes | None = Field(default=None, description="Bytes staged to compute so far.")
    bytes_delivered: Bytes | None = Field(
        default=None, description="Bytes of output delivered so far."
    )
    nodes_granted: int | None = Field(
        default=None, ge=1, le=100_000, description="Nodes the job was given."
    )
    exit_reason: str | None = Field(
        default=None, max_length=200, description="Why the job ended, as the scheduler says it."
    )
    # What one attempt of the run used, from the engine's accounting (Slurm's sacct), sent
    # on the event that ends the attempt (output, failed, cancelled, preempted).
    elapsed_seconds: Seconds | None = Field(default=None, description="The attempt's elapsed time.")
    time_limit_seconds: Seconds | None = Field(default=None, description="Its time limit.")
    memory_requested_bytes: Bytes | None = Field(
        default=None, description="Memory per node the job asked the engine for (ReqMem)."
    )
    peak_memory_bytes: Bytes | None = Field(
        default=None, description="Peak resident memory on a node (MaxRSS)."
    )
    cpus_allocated: int | None = Field(default=None, ge=1, le=10**9, description="AllocCPUS.")
    cpu_seconds: float | None = Field(
        default=None, ge=0, le=1e15, description="CPU time used, user + system (TotalCPU)."
    )
    cpu_held_seconds: float | None = Field(
        default=None, ge=0, le=1e15, description="CPUs allocated × elapsed seconds."
    )
    exit_code: int | None = Field(default=None, ge=0, le=255)
    signal: int | None = Field(default=None, ge=0, le=255)
    tres_allocated: str | None = Field(default=None, max_length=200, description="AllocTRES.")
    gpu_memory_bytes: Bytes | None = Field(
        default=None, description="Peak accelerator memory, only where the engine measures it."
    )
    gpu_utilization_percent: float | None = Field(
        default=None, ge=0, le=100_000, description="Peak accelerator utilisation, ditto."
    )
    cancelled_by: Literal["partner", "staff", "cluster"] | None = Field(
        default=None, description="Who cancelled the run: the partner, staff, or the cluster."
    )
    estimated: bool | None = Field(
        default=None,
        description="The times come from the engine's live records, not its accounting "
        "(Slurm without slurmdbd): the held figures and elapsed time are estimated.",
    )

    def observed(self):
        return {
            k: getattr(self, k) for k in observed_mod.OBSERVED_KEYS if getattr(self, k) is not None
        }


# A scheduler reports what its engine did; dispatching again is staff's (dispatch.dispatch).
SCHEDULER_KINDS = tuple(k for k in EventKind.values if k != EventKind.REDISPATCHED)


class EventIn(ObservedIn):
    kind: Literal[SCHEDULER_KINDS]  # type: ignore[valid-type]
    occurred_at: datetime
    idempotency_key: str = Field(min_length=1, max_length=200)
    note: str = Field(default="", max_length=2000)
    requeue_to: Literal["", "submitted", "rented"] = ""
    failure_reason: Literal[("", *FailureReason.values)] = ""  # type: ignore[valid-type]

    _tz = field_validator("occurred_at")(_aware)


class BatchEventIn(EventIn):
    job_id: JobId


class BatchIn(Schema):
    events: list[BatchEventIn] = Field(max_length=MAX_BATCH)


class EventOut(Schema):
    job_id: int
    idempotency_key: str
    status: str
    duplicate: bool
    reject_reason: str
    run_state: str


class HoldIn(ObservedIn):
    accelerator_type: str = Field(min_length=1, max_length=100)
    count: int = Field(ge=1, le=100_000)
    phase: Literal[tuple(Phase.values)]  # type: ignore[valid-type]
    started_at: datetime
    ended_at: datetime | None = None
    idempotency_key: str = Field(min_length=1, max_length=200)

    _tz = field_validator("started_at", "ended_at")(lambda v: v if v is None else _aware(v))


class HoldOut(Schema):
    job_id: int
    idempotency_key: str
    outcome: str


class RunOut(Schema):
    job_id: int
    state: str
    restarts: int
    failure_reason: str
    ledger: dict
    observed: dict


class ErrorOut(Schema):
    detail: str


def _run(job_id):
    run = Run.objects.select_related("revision", "job").filter(job_id=job_id).first()
    if run is None:
        raise HttpError(404, f"No accepted job has id {job_id}.")
    return run


def _incoming(job_id, payload):
    return ingest.Incoming(
        job_id=job_id,
        kind=payload.kind,
        occurred_at=payload.occurred_at,
        idempotency_key=payload.idempotency_key,
        note=payload.note,
        requeue_to=payload.requeue_to,
        failure_reason=payload.failure_reason,
        observed=payload.observed(),
    )


def _answer(outcome):
    item = outcome.incoming
    if outcome.error:
        return {
            "job_id": item.job_id,
            "idempotency_key": item.idempotency_key,
            "error": outcome.error,
            "conflict": outcome.conflict,
        }
    return {
        "job_id": item.job_id,
        "idempotency_key": outcome.event.idempotency_key,
        "status": outcome.event.status,
        "duplicate": not outcome.created,
        "reject_reason": outcome.event.reject_reason,
        "run_state": outcome.run.state,
    }


@router.post(
    "/jobs/{job_id}/events",
    response={200: EventOut, 400: ErrorOut, 404: ErrorOut, 409: ErrorOut},
    url_name="scheduler_event",
)
def post_event(request, job_id: JobId, payload: EventIn):
    """Post one lifecycle event. An event illegal at its place in time is kept as rejected.
    An idempotency key reused with a different body answers 409."""
    (outcome,) = services.record_events(items=[_incoming(job_id, payload)], client=request.auth)
    if outcome.error == ingest.NO_RUN:
        raise HttpError(404, f"No accepted job has id {job_id}.")
    if outcome.error:
        log.info("scheduler API: %s refused an event for job %s: %s", request.auth, job_id,
                 outcome.error)  # fmt: skip
        raise HttpError(409 if outcome.conflict else 400, outcome.error)
    return _answer(outcome)


@router.post("/events", response={200: dict, 400: ErrorOut}, url_name="scheduler_batch")
def post_batch(request, payload: BatchIn):
    """Post many events at once, in one transaction; each is answered on its own (a
    missing job or a reused key does not stop the rest). run_state is the run's state
    after the whole batch."""
    outcomes = services.record_events(
        items=[_incoming(item.job_id, item) for item in payload.events], client=request.auth
    )
    refused = sum(1 for o in outcomes if o.error)
    if refused:
        log.info("scheduler API: %s sent a batch with %d refused events", request.auth, refused)
    return {"results": [_answer(o) for o in outcomes]}


@router.post(
    "/jobs/{job_id}/holds",
    response={200: HoldOut, 400: ErrorOut, 404: ErrorOut, 409: ErrorOut},
    url_name="scheduler_hold",
)
def post_hold(request, job_id: JobId, payload: HoldIn):
    """Record accelerators held in a phase; repeat the key with ended_at to close an open hold."""
    run = _run(job_id)
    try:
        hold, outcome = services.record_hold(
            run=run,
            accelerator_type=payload.accelerator_type,
            count=payload.count,
            phase=payload.phase,
            started_at=payload.started_at,
            ended_at=payload.ended_at,
            idempotency_key=payload.idempotency_key,
            client=request.auth,
            observed=payload.observed(),
        )
    except services.KeyConflict as error:
        raise HttpError(409, str(error)) from None
    except DomainError as error:
        raise HttpError(400, str(error)) from None
    return {"job_id": job_id, "idempotency_key": hold.idempotency_key, "outcome": outcome}


@router.get("/jobs/{job_id}", response={200: RunOut, 404: ErrorOut}, url_name="scheduler_run")
def get_run(request, job_id: JobId):
    """The run's state and its ledger figures."""
    run = _run(job_id)
    events, holds = list(run.events.all()), list(run.holds.all())
    now = simulated_now(run, events)  # a simulated run's job time, as on the job page
    ledger = ledger_mod.compute(run, holds=holds, now=now)
    return {
        "job_id": job_id,
        "state": run.state,
        "restarts": run.restarts,
        "failure_reason": run.failure_reason,
        "ledger": ledger.figures(),
        "observed": observed_mod.compute(
            run, events=events, holds=holds, ledger=ledger, now=now
        ).as_dict(),
    }
