from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from portal.decorators import staff_required
from portal.errors import DomainError

from . import selectors, services
from .models import SchedulerClient
from .reviewing import review_form
from .run_services import create_client, revoke_client
from .views import detail_context


@staff_required
def review_queue(request):
    return render(request, "jobs/staff_reviews.html", {"revisions": selectors.review_queue()})


@staff_required
@require_POST
def revision_review(request, pk, number):
    revision = selectors.get_revision_for_user(request.user, pk, number)
    form = review_form(revision, request.POST)
    error = "Choose an outcome."
    if form.is_valid():
        try:
            services.review(
                revision=revision,
                reviewer=request.user,
                outcome=form.cleaned_data["outcome"],
                note=form.cleaned_data["note"],
                fields=form.cleaned_data["fields"],
            )
        except DomainError as refusal:
            error = str(refusal)
        else:
            messages.success(request, "The review was recorded and the team notified.")
            return redirect("job_detail", pk=revision.job_id)
    # Re-show the page with what the reviewer chose and wrote, so nothing is lost.
    values = {
        "outcome": request.POST.get("outcome", ""),
        "fields": request.POST.getlist("fields"),
        "note": request.POST.get("note", ""),
        "error": error,
    }
    context = detail_context(request, revision.job, review_values=values)
    return render(request, "jobs/detail.html", context, status=400)


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
            client, token = create_client(name=name, created_by=request.user)
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
    revoke_client(client=client)
    messages.success(request, f"The token of {client} no longer works.")
    return redirect("scheduler_clients")
