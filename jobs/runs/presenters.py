"""What the run section of a job page shows: the timeline, the ledger and the moves staff may make."""

from datetime import datetime

from django.utils import timezone

from jobs.runs.models import Cluster, Dispatch, FailureReason, Run, RunState

from . import ledger as ledger_mod
from . import observed as observed_mod
from . import timeline
from .lifecycle import kinds_from

# Where a message about the run is shown: the redirect after a move, a dispatch or a cancel
# opens the page at the run's section, so its messages are there, not at the top out of
# sight; the simulator's are beside its form (jobs/_run.html) while the form is shown.
RUN_MESSAGES = "run"
SIMULATE_MESSAGES = "simulate"


def simulated_now(run, events, clock=None):
    """A simulated run lives in job time laid in the past: its clock is its latest event plus
    the real time since that event was received. A real run's clock is the real one."""
    if not run.simulated or not events:
        return None
    latest = max(events, key=lambda e: e.occurred_at)
    return latest.occurred_at + ((clock or timezone.now()) - latest.received_at)


def page_clock():
    """The real time to the whole second, as a page that moves with the clock reads it: it
    prints durations to the second (one reading for the timeline, the ledger and the figures)."""
    return timezone.now().replace(microsecond=0)


def _dispatch(run):
    """The run's dispatch with its cluster: loaded with the run when the caller asked for
    it (select_related("dispatch__cluster")), else read here."""
    relation = Run._meta.get_field("dispatch")
    if relation.is_cached(run):
        return relation.get_cached_value(run)
    return Dispatch.objects.filter(run=run).select_related("cluster").first()


def run_context(run, clock=None, *, staff=False):
    """`clock`: the real time to show the run at (one reading for the timeline, the ledger
    and the figures); by default the time now. `staff`: the viewer is staff, who may dispatch
    a failed run again (the clusters are read for them alone). The staff box below an active
    run is the page's, not the polled section's: staff_moves, asked by the page."""
    events = list(run.events.with_senders())
    holds = list(run.holds.all())
    clock = clock or timezone.now()
    now = simulated_now(run, events, clock) or clock
    # Read once, for the ledger and the declared figures.
    description = run.revision.as_description()
    ledger = ledger_mod.compute(run, holds=holds, now=now, description=description)
    segs = timeline.segments(run, events, now=now)
    dispatch = _dispatch(run)
    observed = observed_mod.compute(
        run,
        events=events,
        holds=holds,
        ledger=ledger,
        segments=segs,
        now=now,
        description=description,
    )
    return {
        "run": run,
        "dispatch": dispatch,
        **ending(run, dispatch, events, holds, staff=staff),
        "observed": observed,
        "observed_chart": observed_mod.chart(observed),
        "gap_ratio": observed_mod.GAP_RATIO,
        "slurm_jobs": sorted(dispatch.slurm_jobs.items(), key=lambda kv: kv[1]) if dispatch else [],
        "events": events,
        "holds": holds,
        "ledger": ledger,
        "chart": ledger_mod.chart(ledger),
        "timeline": timeline.geometry(segs),
        "segments": segs,
    }


def ending(run, dispatch, events, holds, *, staff=False):
    """How the run ended, said by its cause; the earlier attempts of a run dispatched again;
    for staff, the clusters they may dispatch a failed run to again (jobs/_run_outcome.html)."""
    again = (
        staff
        and run.state == RunState.FAILED
        and dispatch is not None
        and dispatch.state == "finished"
    )
    return {
        "end_sentence": observed_mod.end_sentence(run, observed_mod.reports(events, holds)),
        "earlier_attempts": [_attempt(a) for a in (dispatch.earlier if dispatch else [])],
        "redispatch_clusters": list(Cluster.objects.order_by("name")) if again else [],
        "refusal": _refusal(run, dispatch),
    }


def _refusal(run, dispatch):
    """The portal refused to dispatch it and nothing went since: who must act and why."""
    refusal = run.dispatch_refusal
    if not refusal or dispatch is not None or run.state != RunState.SUBMITTED:
        return None
    return {**refusal, "at": datetime.fromisoformat(refusal["at"])}


def _attempt(stored):
    reason = stored.get("failure_reason") or ""
    return {
        "cluster": stored.get("cluster", ""),
        "slurm_jobs": ", ".join(sorted((stored.get("slurm_jobs") or {}).values())),
        "dispatched_at": datetime.fromisoformat(stored["dispatched_at"]),
        "failure": FailureReason(reason).label if reason in FailureReason.values else "",
    }


def staff_moves(run, dispatch, *, has_events):
    """What the staff's box below an active run's section offers (jobs/_run.html), for the
    page to add when the viewer is staff and the run is active (no one else sees the box, so
    no one else pays for its clusters): the clusters to dispatch it to, the moves by hand.
    `has_events`: whether the run has any (run_context read them)."""
    return {
        # Staff may dispatch a run no engine has touched yet.
        "clusters": (
            list(Cluster.objects.order_by("name"))
            if dispatch is None and not has_events and not run.is_final
            else []
        ),
        # Only the moves the table allows from the run's state: no illegal default.
        "event_kinds": [(k, k.label) for k in kinds_from(run.state)],
        "failure_reasons": FailureReason.choices,
        "requeue_targets": [(RunState.SUBMITTED, "submitted"), (RunState.RENTED, "rented")],
    }
