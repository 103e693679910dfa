"""The cluster side of the scheduler API, for a cluster's agent (jobs/slurm_agent/).

It pulls the jobs dispatched to its cluster, says which Slurm job ids it submitted them as,
reports its partition and says when it is done with a dispatch. Events and holds go through
the same endpoints as any other scheduler's (scheduler_api.py). Same bearer tokens."""

import logging
import re
from typing import Annotated

from ninja import Field, Router, Schema
from ninja.errors import HttpError

from jobs.runs.models import Dispatch
from portal.errors import DomainError

from . import dispatch as dispatch_mod
from .scheduler_api import ErrorOut, JobId, SchedulerToken

log = logging.getLogger(__name__)

router = Router(auth=SchedulerToken(), tags=["scheduler: cluster agents"])

SlurmId = Annotated[str, Field(pattern=r"^[0-9]{1,12}$")]
AGENT_VERSION = re.compile(r"^[0-9A-Za-z][0-9A-Za-z.+-]{0,39}$")


class ScriptOut(Schema):
    phase: str
    filename: str
    text: str
    after: str


class DispatchOut(Schema):
    job_id: int
    key: str
    state: str
    run_state: str
    dispatched_at: str
    scripts: list[ScriptOut]
    slurm_jobs: dict[str, str]
    cancel: bool
    # Who asked for the cancel ("partner" or "staff"; "" when nobody did).
    cancel_by: str


class DispatchListOut(Schema):
    cluster: str
    partition: str
    dispatches: list[DispatchOut]


class SubmittedIn(Schema):
    slurm_jobs: dict[Annotated[str, Field(max_length=20)], SlurmId] = Field(max_length=10)


class PartitionIn(Schema):
    nodes: int = Field(ge=0, le=10**6)
    cpus_per_node: int | None = Field(default=None, ge=0, le=10**6)
    memory_per_node_mb: int | None = Field(default=None, ge=0, le=10**12)
    tmp_disk_per_node_mb: int | None = Field(default=None, ge=0, le=10**12)
    gres_per_node: dict[Annotated[str, Field(max_length=100)], int] = Field(max_length=50)
    max_time_seconds: int | None = Field(default=None, ge=1, le=10**9)
    # Agents before version 2 do not send it; their User-Agent says it (e31-slurm-agent/1).
    agent_version: str | None = Field(default=None, pattern=AGENT_VERSION.pattern)


class OkOut(Schema):
    ok: bool


def _cluster(request):
    cluster = dispatch_mod.cluster_for_client(request.auth)
    if cluster is None:
        raise HttpError(403, "This token belongs to a scheduler client that is not a cluster.")
    return cluster


def _out(record):
    return {
        "job_id": record.run.job_id,
        "key": record.key,
        "state": record.state,
        "run_state": record.run.state,
        "dispatched_at": record.dispatched_at.isoformat(),
        "scripts": record.scripts,
        "slurm_jobs": record.slurm_jobs,
        "cancel": record.cancel_requested_at is not None,
        "cancel_by": _cancel_by(record),
    }


def _cancel_by(record):
    if record.cancel_requested_at is None:
        return ""
    person = record.cancel_requested_by
    return "staff" if person is not None and person.is_staff else "partner"


def _dispatch(cluster, job_id):
    record = (
        Dispatch.objects.filter(cluster=cluster, run__job_id=job_id)
        .select_related("run", "cancel_requested_by")
        .first()
    )
    if record is None:
        raise HttpError(404, f"No job {job_id} was dispatched to {cluster}.")
    return record


@router.get(
    "/dispatches", response={200: DispatchListOut, 403: ErrorOut}, url_name="agent_dispatches"
)
def list_dispatches(request):
    """Jobs dispatched to this cluster that the agent must submit or still watch."""
    cluster = _cluster(request)
    return {
        "cluster": cluster.name,
        "partition": cluster.partition,
        "dispatches": [_out(d) for d in dispatch_mod.active(cluster)[:500]],
    }


@router.post(
    "/dispatches/{job_id}/submitted",
    response={200: DispatchOut, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut},
    url_name="agent_submitted",
)
def submitted(request, job_id: JobId, payload: SubmittedIn):
    """The Slurm job ids the dispatch was submitted as (repeatable; other ids are refused)."""
    cluster = _cluster(request)
    try:
        record = dispatch_mod.mark_submitted(
            dispatch=_dispatch(cluster, job_id), slurm_jobs=payload.slurm_jobs
        )
    except DomainError as error:
        log.info("agent of %s: submitted refused for job %s: %s", cluster, job_id, error)
        raise HttpError(400, str(error)) from None
    return _out(Dispatch.objects.select_related("run", "cancel_requested_by").get(pk=record.pk))


@router.post(
    "/dispatches/{job_id}/finished",
    response={200: DispatchOut, 403: ErrorOut, 404: ErrorOut},
    url_name="agent_finished",
)
def finished(request, job_id: JobId):
    """The agent has posted everything Slurm recorded for this dispatch: stop listing it."""
    cluster = _cluster(request)
    record = dispatch_mod.mark_finished(dispatch=_dispatch(cluster, job_id))
    return _out(Dispatch.objects.select_related("run", "cancel_requested_by").get(pk=record.pk))


@router.put("/partition", response={200: OkOut, 403: ErrorOut}, url_name="agent_partition")
def partition(request, payload: PartitionIn):
    """What the agent sees of its partition; dispatch checks jobs against it."""
    cluster = _cluster(request)
    report = payload.dict()
    if not report["agent_version"]:
        said = request.headers.get("User-Agent", "").removeprefix("e31-slurm-agent/")
        report["agent_version"] = said if AGENT_VERSION.match(said) else ""
    dispatch_mod.report_partition(cluster=cluster, **report)
    return {"ok": True}
