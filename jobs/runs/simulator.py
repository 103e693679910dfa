"""Plays the network for accepted jobs, through the same service path as a real
scheduler (record_event / record_hold), so demos and tests exercise the real code.

Durations come from the job's own description: staging from the data size over a
bandwidth, the run from its estimate, output from its size; preemption happens
now and then. Everything it writes is marked simulated.

Its job time starts when the run is simulated (or at a time staff choose), never before the
job's acceptance, and runs forward: every event and hold is dated at or after acceptance."""

import random
from dataclasses import dataclass
from datetime import UTC, timedelta

from django.utils import dateformat, timezone

from jobs.runs.models import EventKind, Phase, Run, SchedulerClient

from . import services

SIMULATOR_NAME = "E31 simulator"
DEFAULT_BANDWIDTH = 1.25e9  # bytes per second: a 10 Gbit/s link
DEFAULT_PREEMPTION = 0.3


@dataclass
class Step:
    offset: float  # seconds of job time after the run's virtual start
    kind: str  # "event" or "hold"
    data: dict


def simulator_client():
    client = SchedulerClient.objects.filter(name=SIMULATOR_NAME).first()
    if client is None:
        client, _ = services.create_client(name=SIMULATOR_NAME, simulated=True)
    return client


def plan(run, *, bandwidth=DEFAULT_BANDWIDTH, preemption=DEFAULT_PREEMPTION):
    """The run's steps in job time, deterministic for a run (seeded by its id).

    The network here is as imperfect as a real one: the link is slower or faster than the
    reference, the job runs longer or shorter than its estimate, more data turns up than
    declared, fewer nodes are granted to a job that said it could live with fewer. It reports
    what it measured (bytes staged and delivered, nodes granted, exit reason) as a scheduler does."""
    rng = random.Random(run.pk)  # noqa: S311 - a simulation, not security
    d = run.revision.as_description()
    first = (d.request.accelerators or [None])[0]
    acc_type = first.type if first and first.type else "accelerator"
    per_node = first.count if first and first.count else 1
    if d.request.no_accelerators and not d.request.accelerators:
        acc_type, per_node = "CPU node", 1  # a CPU-only job holds nodes
    asked = d.request.nodes or 1
    data_bytes = sum(i.size.bytes for i in d.data.inputs or [] if i.size and i.size.exact)
    out_bytes = sum(a.size.bytes for a in d.output.artifacts or [] if a.size and a.size.exact)
    estimate = (
        d.request.estimate.seconds if d.request.estimate and d.request.estimate.exact else 3600
    )
    link = bandwidth * rng.uniform(0.3, 1.1)
    staged_bytes = int(data_bytes * rng.choice((1.0, 1.0, 1.05, 1.2, 1.7)))
    delivered_bytes = int(out_bytes * rng.uniform(0.7, 1.3))
    granted = asked
    less = d.request.less_compute.value if d.request.less_compute else None
    if less in ("fewer_nodes", "run_longer") and asked > 1 and rng.random() < 0.5:
        granted = rng.randint(d.request.min_nodes or 1, asked - 1) if asked > 1 else asked
        granted = max(1, min(granted, asked))
    pace = rng.uniform(0.85, 1.5)
    if less == "run_longer":
        pace *= asked / granted  # the same work on fewer nodes takes longer
    estimate = int(estimate * pace)
    count = per_node * granted
    staging = max(60, int(staged_bytes / link))
    output = max(60, int(delivered_bytes / bandwidth))
    steps = []
    t = float(rng.randint(60, 900))  # queued before rent

    def hold(phase, start, seconds, n=count, observed=None):
        steps.append(Step(start + seconds, "hold", {"phase": phase, "accelerator_type": acc_type, "count": n,
                                                     "start": start, "seconds": seconds,
                                                     "observed": observed or {}}))  # fmt: skip

    steps.append(Step(t, "event", {"kind": EventKind.RENTED}))
    hold(Phase.STAGING, t, staging, observed={"bytes_staged": staged_bytes} if data_bytes else None)
    t += staging
    wait = rng.randint(60, 600)
    hold(Phase.WAITING, t, wait)
    t += wait
    steps.append(
        Step(t, "event", {"kind": EventKind.RUNNING, "observed": {"nodes_granted": granted}})
    )
    remaining = estimate
    if d.request.preemptible and rng.random() < preemption:
        ran = int(estimate * rng.uniform(0.2, 0.7))
        hold(Phase.RUNNING, t, ran)
        t += ran
        steps.append(Step(t, "event", {"kind": EventKind.PREEMPTED, "requeue_to": "rented",
                                       "note": "Preempted by a higher-priority job; requeued with its nodes."}))  # fmt: skip
        wait = rng.randint(300, 1800)
        hold(Phase.WAITING, t, wait)
        t += wait
        steps.append(
            Step(
                t,
                "event",
                {
                    "kind": EventKind.RUNNING,
                    "note": "Restarted from the last checkpoint.",
                    "observed": {"nodes_granted": granted},
                },
            )
        )
        interval = (
            d.request.checkpoint_interval.seconds
            if d.request.checkpoint_interval and d.request.checkpoint_interval.exact
            else 1800
        )
        remaining = (
            estimate - ran + rng.randint(0, interval)
        )  # work since the last checkpoint is redone
    hold(Phase.RUNNING, t, remaining)
    t += remaining
    steps.append(Step(t, "event", {"kind": EventKind.OUTPUT}))
    hold(
        Phase.OUTPUT,
        t,
        output,
        observed={"bytes_delivered": delivered_bytes} if out_bytes else None,
    )
    t += output
    tail = rng.randint(60, 600)
    hold(Phase.IDLE_TAIL, t, tail)
    t += tail
    steps.append(
        Step(t, "event", {"kind": EventKind.RELEASED, "observed": {"exit_reason": "completed"}})
    )
    steps.sort(key=lambda s: s.offset)
    return steps


def total_seconds(steps):
    return max((s.offset for s in steps), default=0)


def base_time(steps, now=None, run=None, start=None):
    """When the run's job time starts: now, or at `start` if staff chose one, never before the
    job's acceptance (the run's creation) nor before the run's latest event (simulating the rest
    of a run moved by hand). Job time then runs forward from there, ahead of the clock as far
    as the simulator has played it, so no event is dated before the job was accepted.
    A run already (partly) simulated keeps its base, so playing it again changes nothing."""
    if run is not None and steps and steps[0].kind == "event":
        first = run.events.filter(idempotency_key=f"sim:{run.pk}:0").first()
        if first is not None:
            return first.occurred_at - timedelta(seconds=steps[0].offset)
    floor = [start or now or timezone.now()]
    if run is not None:
        floor.append(run.created_at)
        latest = run.events.order_by("-occurred_at").values_list("occurred_at", flat=True).first()
        if latest is not None:
            floor.append(latest)
    return max(floor)


def moved_start(run, start):
    """What the simulator does with a start it cannot use, as a sentence to put after a
    confirmation (the page's message or the command's line); "" when it keeps the start."""
    if start is None:
        return ""
    base = base_time(plan(run), run=run, start=start)
    if base == start:
        return ""
    if base < start:
        why = "this run was already simulated from an earlier start, which it keeps"
    elif base == run.created_at:
        why = "that is before the job's acceptance"
    else:
        why = "that is before what this run has already recorded"
    return f" It starts at {_utc(base)}, not at the start you gave ({_utc(start)}): {why}."


def _utc(value):
    return dateformat.format(value.astimezone(UTC), "j M Y H:i") + " UTC"


def apply_step(run, steps, index, base, client=None):
    """Post one step through the scheduler's service path. Idempotent (keyed by step)."""
    client = client or simulator_client()
    step = steps[index]
    key = f"sim:{run.pk}:{index}"
    if step.kind == "event":
        data = dict(step.data)
        return services.record_event(
            run=run,
            kind=data.pop("kind"),
            occurred_at=base + timedelta(seconds=step.offset),
            idempotency_key=key,
            client=client,
            note=data.pop("note", "") or "Simulated by the E31 simulator.",
            **data,
        )
    data = step.data
    start = base + timedelta(seconds=data["start"])
    return services.record_hold(
        run=run,
        accelerator_type=data["accelerator_type"],
        count=data["count"],
        phase=data["phase"],
        started_at=start,
        ended_at=start + timedelta(seconds=data["seconds"]),
        idempotency_key=key,
        client=client,
        observed=data.get("observed"),
    )


def play_now(run, start=None, **options):
    """Play a whole run at once (command line, demo data, tests), from `start` (default now;
    never before the job's acceptance): the simulation then has reached the run's end."""
    steps = plan(run, **options)
    base = base_time(steps, run=run, start=start)
    client = simulator_client()
    for index in range(len(steps)):
        apply_step(run, steps, index, base, client)
    return Run.objects.get(pk=run.pk)


def play_half_way(run):
    """Play a run up to its start of running, the running hold left open (the demo's run in
    progress): the timeline and the ledger grow while you watch, and simulating the rest closes
    that same hold."""
    steps = plan(run)
    base = base_time(steps, run=run)
    client = simulator_client()
    first_running = next(
        i for i, s in enumerate(steps) if s.kind == "event" and s.data["kind"] == "running"
    )
    for index, step in enumerate(steps[: first_running + 1]):
        if not (step.kind == "hold" and step.data["phase"] == Phase.RUNNING):
            apply_step(run, steps, index, base, client)
    index, hold = next(
        (i, s) for i, s in enumerate(steps) if s.kind == "hold" and s.data["phase"] == Phase.RUNNING
    )
    services.record_hold(
        run=run,
        accelerator_type=hold.data["accelerator_type"],
        count=hold.data["count"],
        phase=Phase.RUNNING,
        started_at=base + timedelta(seconds=hold.data["start"]),
        ended_at=None,
        idempotency_key=f"sim:{run.pk}:{index}",
        client=client,
    )
    return Run.objects.select_related("revision", "job").get(pk=run.pk)
