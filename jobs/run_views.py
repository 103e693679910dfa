from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from portal.decorators import staff_required
from portal.errors import DomainError

from . import ledger as ledger_mod
from . import run_services, selectors, timeline
from .lifecycle import TRANSITIONS
from .models import EventKind, FailureReason, Run, RunState


def simulated_now(run, events):
    """A simulated run lives in job time laid in the past: its clock is its latest event plus
    the real time since that event was received. A real run's clock is the real one."""
    if not run.simulated or not events:
        return None
    latest = max(events, key=lambda e: e.occurred_at)
    return latest.occurred_at + (timezone.now() - latest.received_at)


def run_context(run):
    events = list(run.events.select_related("actor", "client"))
    holds = list(run.holds.all())
    ledger = ledger_mod.compute(run, holds=holds, now=simulated_now(run, events))
    now = simulated_now(run, events)
    segs = timeline.segments(run, events, now=now)
    return {
        "run": run,
        "events": events,
        "holds": holds,
        "ledger": ledger,
        "chart": ledger_mod.chart(ledger),
        "timeline": timeline.geometry(segs),
        "segments": segs,
        # Only the moves the table allows from the run's state: no illegal default.
        "event_kinds": [(k, EventKind(k).label) for k in TRANSITIONS[RunState(run.state)]],
        "failure_reasons": FailureReason.choices,
        "requeue_targets": [(RunState.SUBMITTED, "submitted"), (RunState.RENTED, "rented")],
    }


def _run_for(user, pk):
    job = selectors.get_job_for_user(user, pk)
    run = Run.objects.filter(job=job).select_related("revision", "job").first()
    if run is None:
        raise Http404("This job has not entered the lifecycle.")
    return job, run


@require_GET
def run_panel(request, pk):
    """The run section alone, polled by htmx while the run is active."""
    if not request.user.is_authenticated:
        raise Http404
    job, run = _run_for(request.user, pk)
    return render(request, "jobs/_run.html#run-live", {"job": job, **run_context(run)})


@staff_required
@require_POST
def run_move(request, pk):
    job, run = _run_for(request.user, pk)
    try:
        run_services.move_by_hand(
            run=run,
            kind=request.POST.get("kind", ""),
            actor=request.user,
            note=request.POST.get("note", ""),
            requeue_to=request.POST.get("requeue_to", ""),
            failure_reason=request.POST.get("failure_reason", ""),
        )
    except (DomainError, ValueError) as error:
        messages.error(request, f"Not moved: {error}")
    else:
        messages.success(request, "The run was moved and the event recorded.")
    return redirect(f"/jobs/{job.pk}/#run")


@staff_required
@require_POST
def run_simulate(request, pk):
    from .tasks import simulate_run

    job, run = _run_for(request.user, pk)
    if run.is_final:
        messages.error(request, "This run is over: nothing to simulate.")
    else:
        speed = 3600.0
        simulate_run.delay_on_commit(run.pk, speed)
        messages.success(
            request, "The simulator is playing this run (one hour of job time per second)."
        )
    return redirect(f"/jobs/{job.pk}/#run")
