from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from jobs import selectors
from jobs.models import Run, SchedulerClient
from portal.decorators import staff_required
from portal.errors import DomainError

from . import services
from .presenters import run_context
from .tasks import simulate_run


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
        services.move_by_hand(
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
    return redirect(reverse("job_detail", args=[job.pk]) + "#run")


@staff_required
@require_POST
def run_simulate(request, pk):
    job, run = _run_for(request.user, pk)
    if run.is_final:
        messages.error(request, "This run is over: nothing to simulate.")
    else:
        speed = 3600.0
        simulate_run.delay_on_commit(run.pk, speed)
        messages.success(
            request, "The simulator is playing this run (one hour of job time per second)."
        )
    return redirect(reverse("job_detail", args=[job.pk]) + "#run")


@staff_required
@require_http_methods(["GET", "POST"])
def scheduler_clients(request):
    """Scheduler clients and their tokens: a new token is shown once, then only its prefix."""
    token = None
    error = ""
    name = request.POST.get("name", "").strip() if request.method == "POST" else ""
    if request.method == "POST":
        if not name:
            error = "Give the client a name, e.g. the scheduler's host or region."
        elif SchedulerClient.objects.filter(name__iexact=name).exists():
            error = f"A client called {name} already exists."
        else:
            client, token = services.create_client(name=name, created_by=request.user)
            messages.success(
                request, f"Client {client} created. Copy its token now: it is not shown again."
            )
            name = ""
    clients = SchedulerClient.objects.select_related("created_by").order_by("revoked_at", "name")
    return render(
        request,
        "jobs/staff_scheduler_clients.html",
        {"clients": clients, "token": token, "error": error, "name": name},
        status=400 if error else 200,
    )


@staff_required
@require_POST
def scheduler_client_revoke(request, client_id):
    client = get_object_or_404(SchedulerClient, pk=client_id)
    services.revoke_client(client=client)
    messages.success(request, f"The token of {client} no longer works.")
    return redirect("scheduler_clients")
