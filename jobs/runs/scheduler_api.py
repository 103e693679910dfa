"""The scheduler API: the network posts lifecycle events and resource holds.

Authenticated by a bearer token per scheduler client (stored hashed, revocable).
Every write carries an idempotency key: a repeat is accepted and changes nothing."""

import logging
from datetime import UTC, datetime
from typing import Annotated, Literal

from django.db import IntegrityError
from ninja import Field, Router, Schema
from ninja.errors import HttpError
from ninja.security import HttpBearer
from pydantic import field_validator

from jobs.models import EventKind, FailureReason, Phase, Run
from portal.errors import DomainError

from . import ledger as ledger_mod
from . import observed as observed_mod
from . import services

log = logging.getLogger(__name__)

MAX_BATCH = 500


class SchedulerToken(HttpBearer):
    def authenticate(self, request, token):
        client = services.client_for_token(token)
        if client is None:
            log.warning(
                "scheduler API: unknown or revoked token from %s", request.META.get("REMOTE_ADDR")
            )
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

    def observed(self):
        return {
            k: getattr(self, k) for k in observed_mod.OBSERVED_KEYS if getattr(self, k) is not None
        }


class EventIn(ObservedIn):
    kind: Literal[tuple(EventKind.values)]  # type: ignore[valid-type]
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


def _record(run, payload, client):
    try:
        event, created = services.record_event(
            run=run,
            kind=payload.kind,
            occurred_at=payload.occurred_at,
            idempotency_key=payload.idempotency_key,
            client=client,
            note=payload.note,
            requeue_to=payload.requeue_to,
            failure_reason=payload.failure_reason,
            observed=payload.observed(),
        )
    except (DomainError, IntegrityError) as error:
        log.info("scheduler API: %s refused an event for job %s: %s", client, run.job_id, error)
        raise HttpError(400, str(error)) from None
    run.refresh_from_db(fields=["state"])
    return {
        "job_id": run.job_id,
        "idempotency_key": event.idempotency_key,
        "status": event.status,
        "duplicate": not created,
        "reject_reason": event.reject_reason,
        "run_state": run.state,
    }


@router.post(
    "/jobs/{job_id}/events",
    response={200: EventOut, 400: ErrorOut, 404: ErrorOut},
    url_name="scheduler_event",
)
def post_event(request, job_id: JobId, payload: EventIn):
    """Post one lifecycle event. An event illegal at its place in time is kept as rejected."""
    return _record(_run(job_id), payload, request.auth)


@router.post("/events", response={200: dict, 400: ErrorOut}, url_name="scheduler_batch")
def post_batch(request, payload: BatchIn):
    """Post many events at once; each is answered on its own (a missing job does not stop the rest)."""
    results = []
    for item in payload.events:
        run = Run.objects.filter(job_id=item.job_id).first()
        if run is None:
            results.append(
                {
                    "job_id": item.job_id,
                    "idempotency_key": item.idempotency_key,
                    "error": "no accepted job",
                }
            )
            continue
        try:
            results.append(_record(run, item, request.auth))
        except HttpError as error:
            results.append(
                {
                    "job_id": item.job_id,
                    "idempotency_key": item.idempotency_key,
                    "error": str(error),
                }
            )
    return {"results": results}


@router.post(
    "/jobs/{job_id}/holds",
    response={200: HoldOut, 400: ErrorOut, 404: ErrorOut},
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
    except DomainError as error:
        raise HttpError(400, str(error)) from None
    return {"job_id": job_id, "idempotency_key": hold.idempotency_key, "outcome": outcome}


@router.get("/jobs/{job_id}", response={200: RunOut, 404: ErrorOut}, url_name="scheduler_run")
def get_run(request, job_id: JobId):
    """The run's state and its ledger figures."""
    run = _run(job_id)
    events, holds = list(run.events.all()), list(run.holds.all())
    ledger = ledger_mod.compute(run, holds=holds)
    return {
        "job_id": job_id,
        "state": run.state,
        "restarts": run.restarts,
        "failure_reason": run.failure_reason,
        "ledger": ledger.figures(),
        "observed": observed_mod.compute(run, events=events, holds=holds, ledger=ledger).as_dict(),
    }
