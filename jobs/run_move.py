"""Staff move a run by hand. Here in jobs, not in jobs.runs: a refusal shows the whole job
page again, the refusal on the form with what was chosen and written (a message at the top
was out of sight above #run, and the choices were lost)."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from portal.decorators import staff_required
from portal.errors import DomainError

from . import selectors
from .presenters import detail_context
from .runs import services as run_services

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
    messages.success(request, "The run was moved and the event recorded.")
    return redirect(reverse("job_detail", args=[job.pk]) + "#run")
