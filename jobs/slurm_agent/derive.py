"""Slurm's records of a dispatch -> the lifecycle events and holds to post.

A pure function of what Slurm recorded: the same records always give the same posts with
the same idempotency keys (`slurm:<cluster>:<Slurm job id>:<attempt>:<state>`), so an agent
that restarts, or posts twice, or whose posts arrive out of order, changes nothing.

The chain is staging (its own job when the data is staged before rent), the run (one job,
or an array of shards) and output delivery; each starts after the one before succeeded.
  rented   the first job of the chain starts (again after a requeue)
  running  the run's allocation starts; a requeued attempt ends in `preempted`
  output   the run completed
  released the output job completed (or the run, when there is no output job)
  failed / cancelled   the first job of the chain that did not complete
Held accelerators are the run's allocated GPUs × its elapsed time, per attempt, from sacct.
What the run used (peak memory, CPU time against CPUs held, elapsed against the time limit)
rides as observed values on the event that ends each attempt of the run job (`usage`).
Records read from the controller on a cluster without accounting are `estimated`: so are
the holds and the figures derived from them, and what only accounting measures (peak
memory, CPU time) is left out, never zero."""

from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import pairwise

from .slurm import VANISHED, host_count, parse_bytes, parse_limit, tres_value

STAGING, RUN, OUTPUT = "staging", "run", "output"
STAGE_STEP = "e31-stage"  # the in-allocation staging step, as slurm_export.py names it
ORDER = (STAGING, RUN, OUTPUT)
REQUEUED = {"REQUEUED", "REQUEUE_FED", "REQUEUE_HOLD"}
# Ends of an attempt after which Slurm requeues a job submitted with --requeue (a node lost
# under a gang, a preemption with PreemptMode=REQUEUE): sacct keeps the state, not REQUEUED.
REQUEUED_AFTER = {"PREEMPTED", "NODE_FAIL"}
FAILURE = {
    "NODE_FAIL": "node_failure",
    "BOOT_FAIL": "node_failure",
    "OUT_OF_MEMORY": "out_of_memory",
    "DEADLINE": "deadline_missed",
    "TIMEOUT": "time_limit",
    "PREEMPTED": "preempted",
    "FAILED": "exit_code",
}
SIGKILL = 9


@dataclass
class Post:
    what: str  # "event" or "hold"
    body: dict

    @property
    def key(self):
        return self.body["idempotency_key"]

    def fingerprint(self):
        return tuple(sorted((k, str(v)) for k, v in self.body.items()))


@dataclass
class Derived:
    posts: list = field(default_factory=list)
    ended: bool = False  # a final event (released, failed, cancelled) was derived
    unfinished: list = field(default_factory=list)  # Slurm job ids not in a final state


def _iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


class _Builder:
    def __init__(self, cluster, out):
        self.cluster, self.out = cluster, out

    def key(self, record, attempt, what):
        job = f"{record.job_id}_{record.task}" if record.task else record.job_id
        return f"slurm:{self.cluster}:{job}:{attempt}:{what}"

    def event(self, kind, at, key, note, **extra):
        body = {"kind": kind, "occurred_at": _iso(at), "idempotency_key": key, "note": note[:2000]}
        self.out.posts.append(Post("event", {**body, **extra}))

    def hold(self, record, attempt, phase, start=None, end=None):
        """Accelerators held by an allocation from `start` (its start) to `end` (its end)."""
        start = start or record.start
        if not record.gpus or start is None:
            return  # no accelerators allocated (a staging or delivery job): nothing held
        body = {
            "accelerator_type": record.gres or "gpu",
            "count": record.gpus,
            "phase": phase,
            "started_at": _iso(start),
            "idempotency_key": self.key(record, attempt, "hold" if phase == "running" else phase),
        }
        ended = record.end is not None and record.state not in (
            "RUNNING",
            "COMPLETING",
            "SUSPENDED",
        )
        if end is not None or ended:
            body["ended_at"] = _iso(max(end or record.end, start))
        if record.estimated:
            body["estimated"] = True
        self.out.posts.append(Post("hold", body))


def _where(record):
    nodes = f"{record.nodes} node{'s' if record.nodes != 1 else ''}"
    gpus = f", {record.gpus} × {record.gres}" if record.gpus else ""
    return f"{record.nodelist or 'no node yet'} ({nodes}{gpus})"


def _label(phase, record):
    job = f"{record.job_id}_{record.task}" if record.task else record.job_id
    return f"Slurm job {job} ({phase})"


def _staged(b, record, attempt):
    """The in-allocation staging of one attempt: its hold, and when the run proper began
    (the end of the last e31-stage step), or None while it is still staging."""
    ended = record.end is not None and record.state not in ("RUNNING", "COMPLETING", "SUSPENDED")
    steps = [s for s in b.stage_steps if s.job_id == record.job_id and s.start and
             s.start >= record.start and (not ended or s.start <= record.end)]  # fmt: skip
    done = steps and all(s.final for s in steps)
    if done and all(s.state == "COMPLETED" for s in steps):
        staged = max(s.end for s in steps)
        b.hold(record, attempt, "staging", end=staged)
        return staged
    b.hold(record, attempt, "staging", end=max(s.end for s in steps) if done else None)
    return None


def usage(b, record):
    """What one attempt of the run job (or one array task) used, as sacct measured it: the
    observed values on the event that ends it. Steps carry MaxRSS; the allocation's line
    carries TotalCPU (its steps' sum), AllocCPUS, ReqMem and the time limit."""
    steps = [s for s in b.steps if s.job_id == record.job_id and s.task == record.task
             and s.start and record.start and s.start >= record.start
             and (record.end is None or s.start <= record.end)]  # fmt: skip
    # Just after the end, sacct may not have ReqMem and Timelimit yet: the memory allocated
    # (AllocTRES mem, all nodes) and the script's own --time say the same.
    allocated = parse_bytes(tres_value(record.alloc_tres, "mem"))
    values = {
        "elapsed_seconds": record.elapsed,
        "time_limit_seconds": record.time_limit or b.time_limit,
        "memory_requested_bytes": record.req_mem
        or (allocated // max(record.nodes, 1) if allocated else None),
        # (without accounting, the size slurmstepd gave when it killed the job past its memory)
        "peak_memory_bytes": max((s.max_rss for s in steps if s.max_rss), default=None)
        or record.max_rss,
        "cpus_allocated": record.cpus or None,
        "exit_code": record.exit_code,
        "signal": record.signal,
        "tres_allocated": record.alloc_tres[:200] or None,
    }
    if record.estimated:
        # The controller knows the allocation, not what ran in it: no CPU time, and a peak
        # only from a kill past the memory (slurm._with_memory_kill).
        values["estimated"] = True
        return {k: v for k, v in values.items() if v is not None}
    cpu = record.total_cpu if record.total_cpu else sum(s.total_cpu or 0 for s in steps)
    if record.cpus and record.elapsed:
        values["cpu_seconds"] = round(cpu, 3)
        values["cpu_held_seconds"] = record.cpus * record.elapsed
    gpu_memory = max((s.gpu_memory for s in steps if s.gpu_memory is not None), default=None)
    gpu_util = max((s.gpu_util for s in steps if s.gpu_util is not None), default=None)
    if gpu_memory is not None:
        values["gpu_memory_bytes"] = gpu_memory
    if gpu_util is not None:
        values["gpu_utilization_percent"] = round(gpu_util, 1)
    return {k: v for k, v in values.items() if v is not None}


STEPS_GRACE = 60  # seconds after an allocation ended that its steps' records may lag


def _steps_pending(b, record):
    """slurmdbd records an allocation's end before its batch step's (whose MaxRSS says how
    much memory it used, and whether it was killed past it): derive the end once the step is
    in (with its peak, for a step killed by signal 9), or STEPS_GRACE seconds after. `now` None: whatever is there (tests)."""
    if b.now is None or record.end is None or not record.nodelist or record.estimated:
        return False  # without accounting there are no step records to wait for
    if (b.now - record.end).total_seconds() > STEPS_GRACE:
        return False
    batch = [s for s in b.steps if s.step == "batch" and s.final and s.job_id == record.job_id
             and s.task == record.task and s.start and record.start and s.start >= record.start]  # fmt: skip
    # Killed (signal 9): the peak that says whether memory was why may come after the state.
    return not batch or (record.signal == SIGKILL and not any(s.max_rss for s in batch))


def _nodes_pending(b, record):
    """slurmdbd may hold a gang's first node alone as its NodeList for a few seconds after
    the start (and even after the end), while NNodes is already right: wait for the whole
    list that the notes name, at most STEPS_GRACE seconds after the end."""
    if not 0 < host_count(record.nodelist) < record.nodes:
        return False
    if not record.final:
        return True
    return (
        b.now is not None
        and record.end is not None
        and ((b.now - record.end).total_seconds() <= STEPS_GRACE)
    )


def out_of_memory(record, used):
    """OUT_OF_MEMORY (the kernel's OOM killer in a cgroup), or a step killed (signal 9) by
    jobacct_gather's OverMemoryKill: sacct then says FAILED 0:9 with a peak past ReqMem."""
    if record.state == "OUT_OF_MEMORY":
        return True
    peak, asked = used.get("peak_memory_bytes"), used.get("memory_requested_bytes")
    return record.signal == SIGKILL and bool(peak and asked) and peak > asked


def _end(b, phase, record, attempt, where=None):
    """The first job of the chain that did not complete ends the run."""
    at = record.end or record.start or record.submit or b.now
    label = _label(phase, record)
    if record.state == VANISHED:
        _vanished(b, record, attempt, at, label)
        return
    used = usage(b, record) if phase == RUN else {}
    if record.state == "CANCELLED":
        reason = f", {record.reason}" if record.reason else ""
        by = b.cancel_by or "cluster"
        uid = f" by uid {record.cancelled_by}" if record.cancelled_by else ""
        b.event("cancelled", at, b.key(record, attempt, "cancelled"),
                f"{label} CANCELLED{uid}{reason}.", cancelled_by=by, **used)  # fmt: skip
        return
    reason = FAILURE.get(record.state) or {STAGING: "data"}.get(where or phase, "other")
    if (where or phase) == STAGING and reason == "exit_code":
        reason = "data"
    if out_of_memory(record, used):
        reason = "out_of_memory"
    if record.state == "TIMEOUT":
        # Slurm kills the job at its time limit and records exit code 0: not a success.
        detail = f"killed at its time limit after {record.elapsed} s"
    elif reason == "out_of_memory":
        peak = used.get("peak_memory_bytes") or 0
        detail = f"killed past its memory, peak {peak / 2**20:,.0f} MiB"
    else:
        detail = f"exit code {record.exit_code}" + (
            f", signal {record.signal}" if record.signal else ""
        )
    b.event(
        "failed",
        at,
        b.key(record, attempt, record.state.lower()),
        f"{label} {record.state} ({detail}) on {record.nodelist or 'no node'}.",
        failure_reason=reason,
        exit_reason=f"{record.state} ({detail})",
        **used,
    )


def _vanished(b, record, attempt, at, label):
    """The controller forgot the job before this agent saw it end (the agent was away longer
    than MinJobAge) and no accounting keeps it: the run ended, how is unknown, and it says so."""
    seen = f", last seen going at {_iso(record.end)}" if record.end else ""
    b.event(
        "failed",
        at,
        b.key(record, attempt, "vanished"),
        f"{label} ended while the agent was not watching{seen}; how it ended is unknown: "
        "Slurm no longer holds the job and this cluster keeps no accounting.",
        failure_reason="other",
        exit_reason="unknown: ended unseen, no accounting on this cluster",
        estimated=True,
    )


def attempts(records):
    """Records of one job (or array task) in the order they ran."""
    epoch = min((r.submit for r in records if r.submit), default=None)
    return sorted(records, key=lambda r: (r.start or r.end or r.submit or epoch, r.raw_id))


def derive(
    cluster,
    slurm_jobs,
    records,
    requeueable=False,
    staged_inside=False,
    cancel_by="",
    now=None,
    time_limit=None,
):
    """slurm_jobs: {phase: job id}; records: sacct records of those jobs (all attempts, and
    their steps). requeueable: the run was submitted with --requeue, so a PREEMPTED or
    NODE_FAIL attempt comes back. staged_inside: the run job copies its inputs first, as a
    step named e31-stage, while it holds the accelerators: that span is the ledger's staging
    phase.
    cancel_by: who asked the portal to cancel (partner or staff); a cancellation nobody
    asked the portal for is the cluster's."""
    out = Derived()
    b = _Builder(cluster, out)
    b.cancel_by, b.now, b.time_limit = cancel_by, now, time_limit
    b.steps = [r for r in records if r.step]
    b.stage_steps = [r for r in b.steps if r.name == STAGE_STEP]
    b.staged_inside = staged_inside
    records = [r for r in records if not r.step]
    by_phase = {}
    for phase, job_id in slurm_jobs.items():
        mine = [r for r in records if r.job_id == job_id]
        by_phase[phase] = mine
        tasks = {}
        for r in mine:
            tasks.setdefault(r.task, []).append(r)
        if not mine or any(not attempts(rs)[-1].final for rs in tasks.values()):
            out.unfinished.append(job_id)
    chain = [p for p in ORDER if p in slurm_jobs]
    rented = False
    for phase in chain:
        mine = by_phase[phase]
        if not mine:
            return out  # not in Slurm's accounting yet
        tasks = {}
        for r in mine:
            tasks.setdefault(r.task, []).append(r)
        if phase == RUN and any(tasks):  # an array: sacct names each task 123_4
            done = _array(b, phase, tasks, rented)
        else:
            done = _single(b, phase, attempts(mine), rented, chain, requeueable)
        if done != "completed":
            if done == "ended":
                out.ended = True
            return out
        rented = True
        if phase == RUN:
            last = attempts(mine)[-1] if not any(tasks) else max(mine, key=lambda r: r.end)
            used = usage(b, last) if not any(tasks) else _array_usage(b, mine)
            b.event("output", last.end, b.key(last, "", "output"),
                    f"{_label(phase, last)} COMPLETED after {last.elapsed} s.",
                    exit_reason="COMPLETED", **used)  # fmt: skip
        if phase == chain[-1]:
            last = max(mine, key=lambda r: r.end)
            b.event("released", last.end, b.key(last, "", "released"),
                    f"{_label(phase, last)} COMPLETED: everything released.")  # fmt: skip
            out.ended = True
    return out


def _single(b, phase, tries, rented, chain, requeueable):
    """Events and holds of one job's attempts; 'completed', 'ended' or 'going'."""
    for attempt, record in enumerate(tries):
        last = attempt == len(tries) - 1
        comes_back = record.state in REQUEUED or (
            record.state in REQUEUED_AFTER and (requeueable or not last)
        )
        if record.start is None or (record.final and not record.nodelist and not record.elapsed):
            if record.final:  # cancelled (or refused) before it ever got a node
                _end(b, phase, record, attempt)
                return "ended"
            return "going"
        if not record.nodes and not record.final:
            return "going"  # sacct has the start but not yet the allocation: next poll
        if _nodes_pending(b, record):
            return "going"
        if phase == chain[0] or (phase == RUN and (attempt > 0 or not rented)):
            b.event("rented", record.start, b.key(record, attempt, "rented"),
                    f"{_label(phase, record)} started on {_where(record)}.")  # fmt: skip
        if phase == RUN:
            started = record.start
            if b.staged_inside and not record.estimated:  # no step records without accounting
                started = _staged(b, record, attempt)
                if started is None:  # still staging (or the step is not in sacct yet)
                    if record.final and not comes_back:
                        _end(b, phase, record, attempt, STAGING)
                        return "ended"
                    if not comes_back:
                        return "going"
            if started is not None:
                b.event("running", started, b.key(record, attempt, "running"),
                        f"{_label(phase, record)} running on {_where(record)}.",
                        **({"nodes_granted": record.nodes} if record.nodes else {}))  # fmt: skip
                b.hold(record, attempt, "running", start=started)
        if comes_back:
            b.event(
                "preempted",
                record.end or record.start,
                b.key(record, attempt, "requeued"),
                f"{_label(phase, record)} {record.state} after {record.elapsed} s: requeued.",
                requeue_to="submitted",
                exit_reason=record.state,
                **(usage(b, record) if phase == RUN else {}),
            )
            continue
        if not record.final:
            return "going"
        if phase == RUN and _steps_pending(b, record):
            return "going"  # the allocation's end is in, its batch step's figures not yet
        if record.state == "COMPLETED":
            return "completed"
        _end(b, phase, record, attempt)
        return "ended"
    return "going"


def _array_usage(b, records):
    """The shards together: peak of any, CPU time and CPUs held summed, longest elapsed."""
    each = [usage(b, r) for r in records if r.start]
    if not each:
        return {}
    out = dict(max(each, key=lambda u: u.get("elapsed_seconds", 0)))
    peaks = [u["peak_memory_bytes"] for u in each if "peak_memory_bytes" in u]
    out["peak_memory_bytes"] = max(peaks) if peaks else None
    for key in ("cpu_seconds", "cpu_held_seconds"):
        if all(key in u for u in each):
            out[key] = round(sum(u[key] for u in each), 3)
    return {k: v for k, v in out.items() if v is not None}


def _array(b, phase, tasks, rented):
    """Shards: running when the first starts, completed when all did; held per task."""
    started = [r for rs in tasks.values() for r in rs if r.start]
    if started:
        first = min(started, key=lambda r: r.start)
        key = f"slurm:{b.cluster}:{first.job_id}:0"
        if not rented:
            b.event("rented", first.start, f"{key}:rented", f"{_label(phase, first)} started.")
        b.event("running", first.start, f"{key}:running",
                f"Slurm array {first.job_id}: the first shard started on {first.nodelist}.")  # fmt: skip
    for rs in tasks.values():
        for attempt, record in enumerate(attempts(rs)):
            b.hold(record, attempt, "running")
    lasts = [attempts(rs)[-1] for rs in tasks.values()]
    if any(not r.final for r in lasts) or any(t.startswith("[") for t in tasks):
        return "going"  # a pending range (123_[5-9]) is one record until its tasks start
    # A preempted shard that comes back counts a restart, as a preempted whole job does.
    for rs in tasks.values():
        tries = attempts(rs)
        for attempt, (record, again) in enumerate(pairwise(tries)):
            if record.state in REQUEUED or record.state in REQUEUED_AFTER:
                b.event("preempted", record.end or record.start,
                        b.key(record, attempt, "requeued"),
                        f"{_label(phase, record)} {record.state} after {record.elapsed} s: "
                        "requeued.", requeue_to="rented", exit_reason=record.state,
                        **usage(b, record))  # fmt: skip
                if again.start:
                    b.event("running", again.start, b.key(again, attempt + 1, "running"),
                            f"{_label(phase, again)} running again on {again.nodelist}.")  # fmt: skip
    failed = [r for r in lasts if r.state != "COMPLETED"]
    if failed:
        _end(b, phase, failed[0], len(tasks[failed[0].task]) - 1)
        return "ended"
    return "completed"


def derive_dispatch(cluster, dispatch, records, now=None):
    """derive() for a dispatch as the portal lists it: its scripts say whether the run is
    requeued on preemption and whether it stages its inputs inside its allocation."""
    run_script = next((s["text"] for s in dispatch["scripts"] if s["phase"] == RUN), "")
    jobs = dispatch["slurm_jobs"]
    return derive(
        cluster,
        jobs,
        [r for r in records if r.job_id in jobs.values()],
        requeueable="\n#SBATCH --requeue\n" in run_script,
        staged_inside=f"--job-name={STAGE_STEP}" in run_script,
        cancel_by=dispatch.get("cancel_by") or "",
        now=now or datetime.now(UTC),
        time_limit=parse_limit(_directive(run_script, "time")),
    )


def _directive(script, option):
    """The value of `#SBATCH --option=value` in a script, or ""."""
    for line in script.splitlines():
        if line.startswith(f"#SBATCH --{option}="):
            return line.split("=", 1)[1].strip()
    return ""
