"""Staff move a run by hand, or start the simulator on it. Here in jobs, not in jobs.runs: a
refusal shows the whole job page again, the refusal on the form with what was chosen and
written (a message at the top was out of sight above #run, and the choices were lost)."""

from datetime import UTC, datetime

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from portal.decorators import staff_required
from portal.errors import DomainError
from portal.outbox import enqueue

from . import selectors
from .presenters import RUN_MESSAGES, SIMULATE_MESSAGES, detail_context
from .runs import services as run_services
from .runs import simulator
from .runs.tasks import simulate_run

MOVE_CHOICES = ("kind", "requeue_to", "failure_reason")


@staff_required
@require_POST
def run_move(request, pk):
    job, run = selectors.get_run_for_user(request.user, pk)
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
        values = {k: request.POST.get(k, "") for k in MOVE_CHOICES}
        context = detail_context(request, job)
        context["move_values"] = {**values, "note": request.POST.get("note", ""), "error": error}
        return render(request, "jobs/detail.html", context, status=400)
    messages.success(request, "The run was moved and the event recorded.", extra_tags=RUN_MESSAGES)
    return redirect(reverse("job_detail", args=[job.pk]) + "#run-section")


@staff_required
@require_POST
def run_simulate(request, pk):
    job, run = selectors.get_run_for_user(request.user, pk)
    typed = request.POST.get("start", "")
    if run.is_final:
        # It ended since the page was read: the form is gone, the run's section says why.
        messages.error(request, "This run is over: nothing to simulate.", extra_tags=RUN_MESSAGES)
        return redirect(reverse("job_detail", args=[job.pk]) + "#run-section")
    start = _simulation_start(typed)
    if start is False:
        problem = "give the start as a date and time (UTC), or leave it empty for now."
        return _simulation_refused(request, job, typed, start_error=problem, status=400)
    # Nothing is written here: no commit to wait for, and nothing to keep if it fails.
    # Job time starts now or at the staff's time, never before acceptance (simulator.py).
    if not enqueue(simulate_run, run.pk, 3600.0, start.isoformat() if start else None):
        problem = "the task queue is down. Try again once it is back."
        return _simulation_refused(request, job, typed, error=problem, status=503)
    messages.success(
        request,
        "The simulator is playing this run (one hour of job time per second)."
        + simulator.moved_start(run, start),
        extra_tags=SIMULATE_MESSAGES,
    )
    # To the form, where the message is; once the run is over (a fast simulation) the form
    # and the anchor are gone, and the message is at the top where the page opens.
    return redirect(reverse("job_detail", args=[job.pk]) + "#simulate-h")


def _simulation_refused(request, job, typed, *, status, error="", start_error=""):
    context = detail_context(request, job)
    context["simulate_values"] = {"start": typed, "error": error, "start_error": start_error}
    return render(request, "jobs/detail.html", context, status=status)


def _simulation_start(text):
    """The start staff chose (a datetime-local field, read as UTC): None if empty, False if
    it is not a time."""
    text = text.strip()
    if not text:
        return None
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        return False
    return value if value.tzinfo else value.replace(tzinfo=UTC)
