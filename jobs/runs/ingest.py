"""Applying lifecycle events to runs: one event or a batch across many runs, in one
transaction, in time linear in the batch (plus a sort).

A run's state is the replay of its events in the order they happened
(`lifecycle.replay`). Replaying every event of the run for each new event made a batch
quadratic. Here only the part of a run from its earliest new event onwards is replayed,
starting from the state the stored verdicts give at that point: events that arrive in
order replay only themselves, a late one replays what follows it. Events and changed
verdicts are written in bulk, and the team hears once per run per call about the state
the run ends in, not about every event on the way."""

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from jobs.models import JobDescription
from jobs.runs.models import (
    FINAL_STATES,
    Event,
    EventKind,
    EventStatus,
    FailureReason,
    Run,
    RunState,
)
from portal import bulk
from portal.errors import DomainError
from portal.models import NoticeTopic
from portal.notify import Email, Telling, teams_people, tell_each
from portal.outbox import absolute_url

from . import observed as observed_mod
from .lifecycle import Replayed, order_key, replay

log = logging.getLogger(__name__)

NOTIFY_STATES = {
    RunState.RENTED: "Resources are held for {job}: data staging has started.",
    RunState.RUNNING: "{job} is running.",
    RunState.OUTPUT: "Output of {job} is being delivered.",
    RunState.RELEASED: "{job} is done: resources were released. Check the ledger.",
    RunState.FAILED: "{job} failed ({reason}).",
    RunState.CANCELLED: "{job} was cancelled.",
}
MAX_CLOCK_SKEW = timedelta(minutes=5)
# The simulator lays job time in the past; nothing real is older than this before acceptance.
MAX_BACKDATING = timedelta(days=3660)
NO_RUN = "no accepted job"
KEY_CONFLICT = (
    "This idempotency key was used for a different event: the earlier event is kept and "
    "this one was not applied (a different body needs a new key)."
)
VERDICT = ("status", "from_state", "to_state", "reject_reason")
# Runs with new events are read back in groups this size, one query each (a batch usually
# names one run; the benchmark's 50-run batches are one query).
TAIL_QUERY_RUNS = 100


class KeyConflict(DomainError):
    """An idempotency key already names a different event (or hold)."""


def check_time(run, value, name, simulated=False):
    """A simulated run lives in job time that starts at the job's acceptance (or later) and
    may run ahead of the clock as far as the simulator has played it (docs/runs.md,
    "Simulator"); a real scheduler's times are the clock's."""
    if simulated:
        if value < run.created_at:
            raise DomainError(
                f"{name} is before the job was accepted: a simulated run starts there or later."
            )
        return
    if value > timezone.now() + MAX_CLOCK_SKEW:
        raise DomainError(f"{name} is in the future.")
    if value < run.created_at - MAX_BACKDATING:
        raise DomainError(f"{name} is long before the job was accepted.")


@dataclass
class Incoming:
    """One event as a scheduler (or staff, or the simulator) sends it."""

    job_id: int
    kind: str
    occurred_at: datetime
    idempotency_key: str
    note: str = ""
    requeue_to: str = ""
    failure_reason: str = ""
    # What the scheduler measured (observed.OBSERVED_KEYS), all optional.
    observed: dict | None = None


@dataclass
class Outcome:
    incoming: Incoming
    event: Event | None = None
    created: bool = False
    error: str = ""
    conflict: bool = False
    run: Run | None = None


def record(items, *, client=None, actor=None):
    """Apply events to their runs; one Outcome per item, in order. The caller holds the
    transaction (all or nothing). A missing job, a bad time or a reused key is an error on
    that item only; an event illegal at its place in time is kept, rejected."""
    runs = _lock_runs({item.job_id for item in items})
    outcomes = [Outcome(item, run=runs.get(item.job_id)) for item in items]
    for outcome in outcomes:
        if outcome.run is None:
            outcome.error = NO_RUN
    by_run = defaultdict(list)
    for outcome in outcomes:
        if outcome.run is not None:
            by_run[outcome.run.pk].append(outcome)
    if not by_run:
        return outcomes
    known = _known_events(by_run, outcomes)
    simulated = bool(client and client.simulated)
    now = timezone.now()
    fresh = {}  # run pk -> its new events, in arrival order
    for run_pk, run_outcomes in by_run.items():
        keys = known[run_pk]
        for outcome in run_outcomes:
            _resolve(outcome, keys, fresh.setdefault(run_pk, []), client, actor, simulated, now)
    fresh = {pk: events for pk, events in fresh.items() if events}
    if not fresh:
        return outcomes
    before = {pk: by_run[pk][0].run.state for pk in fresh}
    changed = _place([by_run[pk][0].run for pk in fresh], fresh)
    # One statement of column arrays: bulk_create sends each value of a JSON column as its own parameter.
    bulk.insert_objects([e for events in fresh.values() for e in events])
    bulk.update(Event, VERDICT, [(e.pk, *(getattr(e, f) for f in VERDICT)) for e in changed])
    moved = [by_run[pk][0].run for pk in fresh]
    _save_runs(moved)
    JobDescription.objects.filter(pk__in=[run.job_id for run in moved]).update(last_activity_at=now)
    for run in moved:
        if run.is_final or before[run.pk] in FINAL_STATES:
            observed_mod.record_outcome(run)  # declared next to observed, once it has ended
    said = {pk: observed_mod.reports(events, []) for pk, events in fresh.items()}
    notify_state(*[run for run in moved if run.state != before[run.pk]], reports=said)
    return outcomes


RUN_FIELDS = ("state", "state_since", "restarts", "failure_reason", "cancelled_by", "simulated")


def _save_runs(runs):
    bulk.update(Run, RUN_FIELDS, [(run.pk, *(getattr(run, f) for f in RUN_FIELDS)) for run in runs])


def _lock_runs(job_ids):
    # In primary-key order, so two batches naming the same runs cannot deadlock.
    runs = (
        Run.objects.select_for_update(of=("self",))
        .select_related("job", "job__team")
        .filter(job_id__in=job_ids)
        .order_by("pk")
    )
    return {run.job_id: run for run in runs}


def _known_events(by_run, outcomes):
    pairs = list({(o.run.pk, o.incoming.idempotency_key) for o in outcomes if o.run is not None})
    known = {pk: {} for pk in by_run}
    # "These runs, these keys": read through the (run, key) constraint's index. A batch
    # names one run in the common case, so the pairs and the product are the same rows.
    keys = list({key for _, key in pairs})
    events = Event.objects.filter(run_id__in=list(by_run), idempotency_key__in=keys)
    for event in events:
        known[event.run_id][event.idempotency_key] = event
    return known


def _same(event, item, observed):
    return (
        event.kind == item.kind
        and event.occurred_at == item.occurred_at
        and event.requeue_to == (item.requeue_to or "")
        and event.failure_reason == (item.failure_reason or "")
        and event.observed == observed
    )


def _resolve(outcome, keys, fresh, client, actor, simulated, now):
    item, run = outcome.incoming, outcome.run
    try:
        observed = observed_mod.clean_observed(item.observed)
    except DomainError as error:
        outcome.error = str(error)
        return
    prior = keys.get(item.idempotency_key)
    if prior is not None:
        if _same(prior, item, observed):
            outcome.event = prior
        else:
            outcome.error, outcome.conflict = KEY_CONFLICT, True
        return
    try:
        kind = EventKind(item.kind)
        check_time(run, item.occurred_at, "occurred_at", simulated)
        if item.failure_reason and item.failure_reason not in FailureReason.values:
            raise DomainError(f"failure_reason is one of {', '.join(FailureReason.values)}.")
    except (DomainError, ValueError) as error:
        outcome.error = str(error)
        return
    event = Event(
        run=run,
        kind=kind,
        occurred_at=item.occurred_at,
        received_at=now,
        idempotency_key=item.idempotency_key[:200],
        actor=actor,
        client=client,
        note=(item.note or "")[:2000],
        requeue_to=item.requeue_to or "",
        failure_reason=item.failure_reason or "",
        simulated=simulated,
        observed=observed,
    )
    keys[item.idempotency_key] = event
    outcome.event, outcome.created = event, True
    fresh.append(event)


def _place(runs, fresh):
    """Replay each run from its earliest new event; returns the stored events whose
    verdict changed. Sets the runs' state fields (not saved)."""
    first = {run.pk: min(e.occurred_at for e in fresh[run.pk]) for run in runs}
    tails = _tails(first)
    changed = []
    for run in runs:
        tail = tails.get(run.pk, [])
        old = {e.pk: tuple(getattr(e, f) for f in VERDICT) for e in tail}
        result = replay(run, tail + fresh[run.pk], start=_start(run, first[run.pk], tail))
        changed += [e for e in tail if tuple(getattr(e, f) for f in VERDICT) != old[e.pk]]
        run.state, run.state_since, run.restarts = result.state, result.state_since, result.restarts
        run.failure_reason = result.failure_reason
        run.cancelled_by = result.cancelled_by
        run.simulated = run.simulated or any(e.simulated for e in fresh[run.pk])
    return changed


def _tails(first):
    """The stored events of each run at or after its earliest new event (usually none)."""
    tails = defaultdict(list)
    # Each run from its own time on, read from the (run, time) index, OR'd in groups.
    pks = list(first)
    for i in range(0, len(pks), TAIL_QUERY_RUNS):
        where = Q()
        for pk in pks[i : i + TAIL_QUERY_RUNS]:
            where |= Q(run_id=pk, occurred_at__gte=first[pk])
        for event in Event.objects.filter(where):
            tails[event.run_id].append(event)
    return tails


def _start(run, at, tail):
    """The run's state just before `at`, from the verdicts already stored."""
    if not tail:
        return Replayed(run.state, run.state_since, run.restarts, run.failure_reason)
    before = run.events.filter(occurred_at__lt=at, status=EventStatus.APPLIED)
    latest = before.order_by("-occurred_at").values_list("occurred_at", flat=True).first()
    if latest is None:
        return Replayed(RunState.SUBMITTED, run.created_at, 0, "")
    # Several events may share that moment: the last in the replay's own order counts.
    last = max(before.filter(occurred_at=latest), key=order_key)
    restarts = before.filter(kind=EventKind.PREEMPTED).count()
    failure = (last.failure_reason or "other") if last.to_state == RunState.FAILED else ""
    return Replayed(RunState(last.to_state), last.occurred_at, restarts, failure, run.cancelled_by)


def notify_state(*runs, reports=None):
    """Tell each run's team the state the run is now in, when it is news to them (once
    per state and restart), in a few queries for any number of runs. A run that ended is
    said by its cause, from what the ending event reported (`reports`, by run pk)."""
    runs = [run for run in runs if run.state in NOTIFY_STATES]
    people = teams_people({run.job.team_id for run in runs})
    tellings = []
    for run in runs:
        job = run.job
        reason = run.get_failure_reason_display() if run.failure_reason else ""
        message = NOTIFY_STATES[RunState(run.state)].format(job=job, reason=reason)
        if run.state in (RunState.FAILED, RunState.CANCELLED):
            got = (reports or {}).get(run.pk) or observed_mod.Reports()
            message = observed_mod.end_sentence(run, got) or message
        if run.simulated:
            message = f"[simulated] {message}"
        path = reverse("job_detail", args=[job.pk]) + "#run"
        tellings.append(
            Telling(
                people[job.team_id],
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
        )
    tell_each(tellings)
