"""Real clusters: register one, check a job against it, dispatch, cancel, and what its
agent tells the portal (the partition it submits to, the Slurm job ids it submitted).

The agent then posts lifecycle events and holds through the same scheduler API as any
other scheduler (services.record_event / record_hold)."""

import logging
import secrets

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from jobs.jobformat import slurm_export
from jobs.runs.models import Cluster, Dispatch, DispatchState, Event, Run, RunState, SchedulerClient
from portal.errors import DomainError

from . import services

log = logging.getLogger(__name__)

GRES = slurm_export.GRES_NAME
PARTITION = slurm_export.SLURM_NAME


def parse_accelerator_map(text):
    """'H100-80GB -> gpu:h100' lines -> {"H100-80GB": "gpu:h100"}; DomainError naming the line."""
    mapping = {}
    for number, line in enumerate((text or "").splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        left, arrow, right = line.partition("->")
        left, right = left.strip(), right.strip()
        if not arrow or not left or not right:
            raise DomainError(f"Line {number}: write it as “H100-80GB -> gpu:h100”.")
        right = right.removeprefix("gres").strip()
        if not GRES.match(right) or len(left) > 100:
            raise DomainError(f"Line {number}: “{right}” is not a GRES name such as gpu:h100.")
        mapping[left] = right
    return mapping


def format_accelerator_map(mapping):
    return "\n".join(f"{k} -> {v}" for k, v in (mapping or {}).items())


def name_taken(name):
    """Whether a cluster or a scheduler client already has this name (in any case): agents
    log in by their cluster's name, so the two share one set of names."""
    return (
        Cluster.objects.filter(name__iexact=name).exists()
        or SchedulerClient.objects.filter(name__iexact=name).exists()
    )


@transaction.atomic
def create_cluster(
    *, name, partition, accelerator_map, created_by=None, stage_command="", deliver_command="",
    account="", qos="",
):  # fmt: skip
    """A cluster and the scheduler client its agent logs in as; returns (cluster, token)."""
    name = (name or "").strip()
    if not name:
        raise DomainError("Give the cluster a name.")
    if name_taken(name):
        raise DomainError(f"A cluster or scheduler client called {name} already exists.")
    if not PARTITION.match(partition or ""):
        raise DomainError("Name the Slurm partition jobs are submitted to, e.g. gpu.")
    for value, what in ((account, "Slurm account"), (qos, "QOS")):
        if value and not PARTITION.match(value):
            raise DomainError(f"The {what} is one Slurm name, e.g. proj-7, or left empty.")
    client, token = services.create_client(name=name, created_by=created_by)
    cluster = Cluster.objects.create(
        name=name[:120],
        client=client,
        partition=partition,
        account=account or "",
        qos=qos or "",
        accelerator_map=accelerator_map,
        stage_command=(stage_command or "").strip()[:1000],
        deliver_command=(deliver_command or "").strip()[:1000],
        created_by=created_by,
    )
    return cluster, token


@transaction.atomic
def replace_token(cluster):
    """A new token for the cluster's agent; the old one stops working at once. Returns it."""
    token = "e31s_" + secrets.token_urlsafe(32)
    SchedulerClient.objects.filter(pk=cluster.client_id).update(
        token_hash=services.hash_token(token), token_prefix=token[:12], revoked_at=None
    )
    return token


def cluster_for_client(client):
    return Cluster.objects.filter(client=client).first() if client is not None else None


@transaction.atomic
def report_partition(*, cluster, nodes, cpus_per_node, memory_per_node_mb, gres_per_node,
                     max_time_seconds, tmp_disk_per_node_mb=None, agent_version=""):  # fmt: skip
    """What the agent sees of its partition (sinfo / scontrol), stored for dispatch checks."""
    Cluster.objects.filter(pk=cluster.pk).update(
        nodes=nodes,
        cpus_per_node=cpus_per_node,
        memory_per_node_mb=memory_per_node_mb,
        tmp_disk_per_node_mb=tmp_disk_per_node_mb,
        gres_per_node=gres_per_node,
        max_time_seconds=max_time_seconds,
        reported_at=timezone.now(),
        agent_version=agent_version or "",
    )


# --- Dispatch --------------------------------------------------------------------------------


def site_for(cluster):
    """What the cluster adds to exported scripts (its partition, GRES names, copy commands)."""
    return slurm_export.Site(
        partition=cluster.partition,
        gres=cluster.accelerator_map,
        stage_command=cluster.stage_command,
        deliver_command=cluster.deliver_command,
        account=cluster.account,
        qos=cluster.qos,
    )


def plan(run, cluster):
    """(export, problems): the scripts this cluster would run, and why it cannot run them.

    The first accelerator choice the cluster has is used (a note says so when it is not the
    team's first). Problems are sentences for the job page; none means the job can go."""
    description = run.revision.as_description()
    r = description.request
    problems, notes = [], []
    if cluster.reported_at is None:
        problems.append(
            f"The agent of {cluster} has not reported its partition yet: start it "
            "(python manage.py slurm_agent --url <this portal> --token <its token>, or "
            "python3 e31-slurm-agent.pyz with the same arguments; see the clusters page) "
            "and try again."
        )
        return None, problems
    choices = [a for a in (r.accelerators or []) if a.type or a.count]
    if choices:
        site = site_for(cluster)
        usable = [a for a in choices if slurm_export.site_gres(site, a.type)]
        if not usable:
            have = ", ".join(cluster.accelerator_map) or "no accelerator types"
            wanted = ", ".join(a.type or "an unnamed type" for a in choices)
            problems.append(f"{cluster} has {have}; this job asks for {wanted}.")
        else:
            chosen = usable[0]
            if chosen is not choices[0]:
                notes.append(
                    f"Runs on {chosen.type}, the team's choice number {choices.index(chosen) + 1}."
                )
            gres = slurm_export.site_gres(site, chosen.type)
            per_node = (cluster.gres_per_node or {}).get(gres)
            if per_node is None:
                problems.append(f"The partition {cluster.partition} reports no {gres} GRES.")
            elif (chosen.count or 1) > per_node:
                problems.append(
                    f"The job asks for {chosen.count} × {chosen.type} per node; "
                    f"nodes of {cluster.partition} have {per_node}."
                )
            description = description.model_copy(deep=True)
            description.request.accelerators = [chosen]
    fewest = r.min_nodes if r.min_nodes and r.nodes and r.min_nodes < r.nodes else r.nodes
    if description.work.shape != "shards" and fewest and cluster.nodes and fewest > cluster.nodes:
        problems.append(
            f"The job needs {fewest} node{'s' if fewest != 1 else ''}; "
            f"{cluster.partition} has {cluster.nodes}."
        )
    limit = cluster.max_time_seconds
    if r.maximum and r.maximum.exact and limit and r.maximum.seconds > limit:
        problems.append(
            f"The time limit ({r.maximum}) is above the partition's "
            f"({slurm_export.slurm_time(limit)})."
        )
    if r.cpus_per_node and cluster.cpus_per_node and r.cpus_per_node > cluster.cpus_per_node:
        problems.append(
            f"The job asks for {r.cpus_per_node} CPUs per node; nodes have {cluster.cpus_per_node}."
        )
    memory = cluster.memory_per_node_mb
    if (
        r.memory_per_node
        and r.memory_per_node.exact
        and memory
        and (r.memory_per_node.bytes > memory * 2**20)
    ):
        problems.append(
            f"The job asks for {r.memory_per_node} of memory per node; nodes have {memory} MiB."
        )
    scratch, tmp = description.data.scratch, cluster.tmp_disk_per_node_mb
    if scratch and scratch.exact and tmp is not None and scratch.bytes > tmp * 2**20:
        problems.append(f"The job needs {scratch} of local scratch per node; nodes have {tmp} MiB.")
    if not description.work.command:
        problems.append("The description names no command to run.")
    exported = slurm_export.export(description, site_for(cluster))
    exported.notes[:0] = notes
    return exported, problems


class DispatchRefused(DomainError):
    """The cluster cannot run the job as described: nothing was dispatched."""

    def __init__(self, cluster, problems, who):
        super().__init__(f"{cluster} cannot run this job: " + " ".join(problems))
        self.cluster, self.problems, self.who = cluster, problems, who


# Problems only staff can fix (the cluster's side); any other is the description asking for
# more than the cluster has: the team revises it, or staff choose another cluster.
STAFF_PROBLEMS = ("has not reported its partition", "reports no", "; this job asks for")


def _refused(cluster, problems):
    staff = any(marker in p for p in problems for marker in STAFF_PROBLEMS)
    return DispatchRefused(cluster, problems, "staff" if staff else "team")


def dispatch(*, run, cluster, actor):
    """Send an accepted job's run to a cluster; nothing is submitted when it cannot run there.
    A refusal is kept on the run (who must act and why) until a dispatch goes."""
    try:
        record = _dispatch(run=run, cluster=cluster, actor=actor)
    except DispatchRefused as refused:
        Run.objects.filter(pk=run.pk).update(
            dispatch_refusal={
                "cluster": cluster.name,
                "at": timezone.now().isoformat(),
                "reasons": refused.problems,
                "who": refused.who,
            }
        )
        raise
    return record


@transaction.atomic
def _dispatch(*, run, cluster, actor):
    run = Run.objects.select_for_update().select_related("revision", "job").get(pk=run.pk)
    existing = (
        Dispatch.objects.select_for_update().filter(run=run).select_related("cluster").first()
    )
    if run.state == RunState.FAILED and existing is not None:
        return _again(run, existing, cluster, actor)
    if run.is_final:
        raise DomainError("This run is over: nothing to dispatch.")
    if existing is not None:
        raise DomainError(f"This run was already dispatched to {existing.cluster}.")
    if run.events.exists():
        raise DomainError("This run already has lifecycle events: it is being run elsewhere.")
    exported, problems = plan(run, cluster)
    if problems:
        raise _refused(cluster, problems)
    record = Dispatch.objects.create(
        run=run,
        cluster=cluster,
        key=secrets.token_hex(6),
        scripts=[s.as_dict() for s in exported.scripts],
        notes=exported.notes,
        dispatched_by=actor,
    )
    if run.dispatch_refusal:
        Run.objects.filter(pk=run.pk).update(dispatch_refusal={})
    log.info("dispatched job %s to %s as %s", run.job_id, cluster, record.key)
    return record


def _again(run, record, cluster, actor):
    """A failed run dispatched again, to the same cluster or another: the run queues anew
    (a `redispatched` event, staff's move) and the dispatch takes new Slurm jobs under a new
    key; the earlier attempt is kept in `earlier`, its events and holds in the run's."""
    if record.state != DispatchState.FINISHED:
        raise DomainError(
            f"{record.cluster}'s agent has not finished with the failed attempt yet: "
            "dispatch it again once it has (it cancels what is left of it first)."
        )
    exported, problems = plan(run, cluster)
    if problems:
        raise _refused(cluster, problems)
    now = timezone.now()
    attempt = {
        "cluster": record.cluster.name,
        "key": record.key,
        "slurm_jobs": record.slurm_jobs,
        "dispatched_at": record.dispatched_at.isoformat(),
        "finished_at": record.finished_at.isoformat() if record.finished_at else None,
        "failure_reason": run.failure_reason,
    }
    services.record_event(
        run=run,
        kind="redispatched",
        occurred_at=now,
        idempotency_key=f"dispatch:{record.key}:redispatched",
        actor=actor,
        note=f"Dispatched again to {cluster} after it failed on {record.cluster} "
        f"({run.get_failure_reason_display().lower()}).",
    )
    record.earlier = [*record.earlier, attempt]
    record.cluster, record.key = cluster, secrets.token_hex(6)
    record.scripts, record.notes = [s.as_dict() for s in exported.scripts], exported.notes
    record.state, record.slurm_jobs = DispatchState.WAITING, {}
    record.dispatched_by, record.dispatched_at = actor, now
    record.submitted_at = record.finished_at = None
    record.cancel_requested_at, record.cancel_requested_by = None, None
    record.save()
    log.info("dispatched job %s again to %s as %s", run.job_id, cluster, record.key)
    return record


def ready_to_dispatch(limit=50):
    """Accepted runs no engine has touched yet (no dispatch, no event), oldest first."""
    return (
        Run.objects.filter(state=RunState.SUBMITTED, dispatch__isnull=True)
        .exclude(Exists(Event.objects.filter(run=OuterRef("pk"))))
        .select_related("job", "job__team", "revision")
        # What the list shows, not the job's nor the revision's description (JSON).
        .only("job__name", "job__number", "job__team__name", "revision__number", "created_at")
        .order_by("created_at", "pk")[:limit]
    )


def _ready_rows_query(limit):
    return (
        Run.objects.filter(state=RunState.SUBMITTED, dispatch__isnull=True)
        .exclude(Exists(Event.objects.filter(run=OuterRef("pk"))))
        .order_by("created_at", "pk")
        .values("pk", "job_id", "job__name", "job__number", "job__team__name", "revision__number")[
            :limit
        ]
    )


def ready_rows(limit=50):
    """ready_to_dispatch() as dicts of what the review queue shows of each (the pk, the
    job's id, name and team name, the revision's number), in one query."""
    return list(_ready_rows_query(limit))


def active(cluster):
    """What the agent must still submit or watch."""
    return (
        Dispatch.objects.filter(cluster=cluster)
        .exclude(state=DispatchState.FINISHED)
        .select_related("run", "cancel_requested_by")
        .order_by("dispatched_at", "pk")
    )


@transaction.atomic
def mark_submitted(*, dispatch, slurm_jobs):
    """The agent's Slurm job ids. Repeating them is harmless; other ids are refused, so a
    second agent cannot make the portal forget what the first one submitted."""
    record = Dispatch.objects.select_for_update().get(pk=dispatch.pk)
    phases = {s["phase"] for s in record.scripts}
    if set(slurm_jobs) != phases:
        raise DomainError(f"Give one Slurm job id for each of: {', '.join(sorted(phases))}.")
    if record.slurm_jobs and record.slurm_jobs != slurm_jobs:
        raise DomainError("This dispatch was submitted with other Slurm job ids.")
    if not record.slurm_jobs:
        record.slurm_jobs = slurm_jobs
        record.submitted_at = timezone.now()
        # Cancelled while the agent was submitting: it stays finished and the agent scancels.
        if record.state == DispatchState.WAITING:
            record.state = DispatchState.SUBMITTED
        record.save(update_fields=["slurm_jobs", "state", "submitted_at"])
    return record


@transaction.atomic
def mark_finished(*, dispatch):
    record = Dispatch.objects.select_for_update().get(pk=dispatch.pk)
    if record.state != DispatchState.FINISHED:
        record.state, record.finished_at = DispatchState.FINISHED, timezone.now()
        record.save(update_fields=["state", "finished_at"])
    return record


@transaction.atomic
def request_cancel(*, run, actor):
    """Partner or staff cancel a dispatched run. Submitted: the agent scancels it and Slurm's
    record ends the run. Not yet submitted: it ends here, and the agent never submits it."""
    run = Run.objects.select_for_update().get(pk=run.pk)
    record = Dispatch.objects.select_for_update().filter(run=run).first()
    if record is None:
        raise DomainError("Only a run dispatched to a cluster is cancelled here.")
    if run.is_final:
        raise DomainError("This run is over: nothing to cancel.")
    if record.cancel_requested_at is None:
        record.cancel_requested_at, record.cancel_requested_by = timezone.now(), actor
        record.save(update_fields=["cancel_requested_at", "cancel_requested_by"])
    if record.state == DispatchState.WAITING:
        services.record_event(
            run=run,
            kind="cancelled",
            occurred_at=record.cancel_requested_at,
            idempotency_key=f"dispatch:{record.key}:cancelled",
            actor=actor,
            note=f"Cancelled before {record.cluster}'s agent submitted it.",
        )
        record.state, record.finished_at = DispatchState.FINISHED, timezone.now()
        record.save(update_fields=["state", "finished_at"])
    return record
