from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from jobs import selectors
from jobs.runs.models import Cluster, SchedulerClient
from portal import submissions
from portal.converters import MAX_ID
from portal.decorators import staff_required
from portal.errors import DomainError
from portal.validators import has_line_break, is_number

from . import dispatch as dispatch_mod
from . import services
from .presenters import RUN_MESSAGES, run_context


def _back_to_run(request, job):
    # The review queue dispatches too; it sends people back there.
    if request.POST.get("next") == "review_queue":
        return redirect("review_queue")
    return redirect(reverse("job_detail", args=[job.pk]) + "#run-section")


@require_safe
def run_panel(request, pk):
    """The run section alone, polled by htmx while the run is active."""
    if not request.user.is_authenticated:
        raise Http404
    job, run = selectors.get_run_for_user(request.user, pk)
    context = run_context(run, staff=request.user.is_staff)
    return render(request, "jobs/_run.html#run-live", {"job": job, **context})


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def scheduler_clients(request):
    """Scheduler clients and their tokens: a new token is shown once, then only its prefix."""
    token = None
    error = ""
    name = request.POST.get("name", "").strip() if request.method == "POST" else ""
    if request.method == "POST":
        if not name:
            error = "Give the client a name, e.g. the scheduler's host or region."
        elif has_line_break(name):
            error = "Keep the name on one line (no line breaks)."
        else:
            try:
                client, token = services.create_client(
                    name=name,
                    created_by=request.user,
                    submission_token=submissions.token_from(request.POST),
                )
            except DomainError as refused:
                error = str(refused)
            else:
                if token is None:  # the same form sent twice
                    messages.info(
                        request,
                        f"Client {client} was already created by this form; its token was "
                        "shown once, on the first answer. If you did not copy it, revoke the "
                        "client and create another.",
                    )
                    return redirect("scheduler_clients")
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


@staff_required
@require_POST
def run_dispatch(request, pk):
    """Send the run to a cluster; refused, with the reasons, when the cluster cannot run it."""
    job, run = selectors.get_run_for_user(request.user, pk)
    cluster_id = request.POST.get("cluster", "")
    cluster = Cluster.objects.filter(pk=cluster_id).first() if is_number(cluster_id) else None
    if cluster is None:
        messages.error(request, "Not dispatched: choose a cluster.", extra_tags=RUN_MESSAGES)
        return _back_to_run(request, job)
    try:
        dispatch_mod.dispatch(run=run, cluster=cluster, actor=request.user)
    except DomainError as error:
        messages.error(
            request, f"Not dispatched: {error} Nothing was submitted.", extra_tags=RUN_MESSAGES
        )
    else:
        messages.success(
            request,
            f"{job} was dispatched to {cluster}: its agent submits it at its next poll.",
            extra_tags=RUN_MESSAGES,
        )
    return _back_to_run(request, job)


@login_required
@require_POST
def run_cancel(request, pk):
    """Partner members and staff cancel a dispatched run (the agent scancels it)."""
    job, run = selectors.get_run_for_user(request.user, pk)
    try:
        record = dispatch_mod.request_cancel(run=run, actor=request.user)
    except DomainError as error:
        messages.error(request, f"Not cancelled: {error}", extra_tags=RUN_MESSAGES)
    else:
        if record.state == "finished":
            messages.success(
                request,
                "Cancelled: nothing had been submitted to Slurm yet.",
                extra_tags=RUN_MESSAGES,
            )
        else:
            messages.success(
                request,
                f"Cancelling: {record.cluster}'s agent cancels the Slurm jobs at its next poll; "
                "the run ends with the hours held until then.",
                extra_tags=RUN_MESSAGES,
            )
    return _back_to_run(request, job)


# An agent that has not called the portal for this long is shown as silent (it polls every
# few seconds; the portal notes a call at most once a minute; cron --once every few minutes).
AGENT_SILENT_AFTER = timedelta(minutes=10)


def agent_commands(token, workdir="~/e31-agent"):
    """What to paste on the cluster's login node: the agent as a service, and from cron."""
    base = (
        f"python3 e31-slurm-agent.pyz --url {settings.SITE_URL} --token {token} --workdir {workdir}"
    )
    cron = base.replace("python3 e31-slurm-agent.pyz", "python3 $HOME/e31-slurm-agent.pyz")
    return {"run": base, "cron": f"*/5 * * * * {cron} --once"}


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def clusters(request):
    """Slurm clusters: register one or replace its agent's token (shown once, with the command
    to paste on the login node) and see what its agent reported."""
    token, token_for, errors = None, None, {}
    form = {k: request.POST.get(k, "").strip() for k in
            ("name", "partition", "account", "qos", "accelerator_map", "stage_command",
             "deliver_command")}  # fmt: skip
    if request.method == "POST" and request.POST.get("action") == "replace_token":
        posted = request.POST.get("cluster", "").strip()
        # Digits that fit an id, or no cluster: "abc" or "²" would make the query raise.
        if not is_number(posted) or int(posted) > MAX_ID:
            raise Http404("No cluster has that id.")
        cluster = get_object_or_404(Cluster, pk=int(posted))
        token, token_for, form = dispatch_mod.replace_token(cluster), cluster, {}
        messages.success(
            request,
            f"A new token for {cluster}: the old one no longer works. Copy it now: it is not shown again.",
        )
    elif request.method == "POST":
        try:
            mapping = dispatch_mod.parse_accelerator_map(form["accelerator_map"])
        except DomainError as error:
            errors["accelerator_map"] = str(error)
        if not errors:
            try:
                cluster, token = dispatch_mod.create_cluster(
                    name=form["name"],
                    partition=form["partition"],
                    account=form["account"],
                    qos=form["qos"],
                    accelerator_map=mapping,
                    stage_command=form["stage_command"],
                    deliver_command=form["deliver_command"],
                    created_by=request.user,
                )
            except DomainError as error:
                said = str(error)
                words = (("Slurm account", "account"), ("QOS", "qos"), ("partition", "partition"))
                errors[next((f for w, f in words if w in said), "name")] = said
            else:
                token_for = cluster
                messages.success(
                    request,
                    f"Cluster {cluster} registered. Copy its agent's token now: it is not shown again.",
                )
                form = {}
    now = timezone.now()
    rows = list(Cluster.objects.select_related("client").order_by("name"))
    for c in rows:
        seen = c.client.last_used_at
        c.agent_seen_at = seen
        c.agent_alive = bool(seen and now - seen <= AGENT_SILENT_AFTER and not c.client.revoked_at)
    return render(
        request,
        "jobs/staff_clusters.html",
        {
            "clusters": rows,
            "token": token,
            "token_for": token_for,
            "commands": agent_commands(token) if token else None,
            "form": form,
            "errors": errors,
        },
        status=400 if errors else 200,
    )
