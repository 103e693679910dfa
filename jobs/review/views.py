from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from jobs import selectors, services
from jobs.presenters import detail_context
from jobs.runs import dispatch
from jobs.runs.models import Cluster
from portal.decorators import staff_required
from portal.errors import DomainError
from portal.pagination import keyset_page

from .presenters import queue_rows, ready_rows, review_form


@staff_required
def review_queue(request):
    revisions = keyset_page(selectors.review_queue(), order=selectors.REVIEW_ORDER, request=request)
    ready = dispatch.ready_rows()
    clusters = list(Cluster.objects.order_by("name").values_list("pk", "name"))
    return render(
        request,
        "jobs/staff_reviews.html",
        {
            "revisions": revisions,
            "rows": queue_rows(revisions),
            "ready": ready,
            "ready_rows": ready_rows(ready),
            "clusters": clusters,
        },
    )


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
