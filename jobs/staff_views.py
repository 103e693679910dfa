from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from portal.decorators import staff_required
from portal.errors import DomainError

from . import selectors, services
from .forms import ReviewForm
from .steps import all_field_paths


def review_paths(revision):
    """Fields staff can name: every field of the format, with the list items present."""
    paths = [p for p in all_field_paths() if ".N." not in p]
    for path in _indexed_paths(revision.data):
        if path not in paths:
            paths.append(path)
    return sorted(paths)


def review_form(revision, data=None):
    return ReviewForm(data, field_choices=[(p, p) for p in review_paths(revision)])


def _indexed_paths(data, prefix=""):
    """Paths of list items actually present, e.g. data.inputs.0.size."""
    for key, value in (data or {}).items():
        if key == "source":
            continue
        if isinstance(value, dict):
            yield from _indexed_paths(value, f"{prefix}{key}.")
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            for i, item in enumerate(value):
                for sub in item:
                    yield f"{prefix}{key}.{i}.{sub}"


@staff_required
def review_queue(request):
    return render(request, "jobs/staff_reviews.html", {"revisions": selectors.review_queue()})


@staff_required
@require_POST
def revision_review(request, pk, number):
    revision = selectors.get_revision_for_user(request.user, pk, number)
    form = review_form(revision, request.POST)
    if form.is_valid():
        try:
            services.review(
                revision=revision,
                reviewer=request.user,
                outcome=form.cleaned_data["outcome"],
                note=form.cleaned_data["note"],
                fields=form.cleaned_data["fields"],
            )
        except DomainError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, "The review was recorded and the team notified.")
            return redirect("job_detail", pk=revision.job_id)
    else:
        messages.error(request, "Choose an outcome.")
    return redirect("job_detail", pk=revision.job_id)
