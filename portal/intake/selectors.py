"""Reads for the intake pages. Staff lists are built with select_related and one
annotated query each, so their query count does not grow with the rows."""

from django.db.models import OuterRef, Q
from django.http import Http404
from django.shortcuts import get_object_or_404

from portal.intake.models import IntakeApplication, IntakeWindow
from portal.models import OutboundEmail
from portal.pagination import BoundedCount, bounded_counts, shown_count

from . import rules


def windows_for_staff():
    return rules.with_accepted_count(IntakeWindow.objects.select_related("closed_by"))


def get_window(window_id):
    return get_object_or_404(windows_for_staff(), pk=window_id)


REVIEW_ORDER = ("submitted_at", "pk")
# What a row of a window's applications shows, read as values (a row is only shown:
# portal/intake/presenters.py writes it), not the long answers (job, contacts, reasons).
APPLICATION_ROW_FIELDS = (
    "pk",
    "status",
    "submitted_at",
    "team_name",
    "organisation",
    "cpu_only",
    "accelerator_type",
    "accelerator_count",
    "data_size_text",
    "duration_text",
    "deadline",
    "typical_accelerators",
    "peak_accelerators",
    "spike_interval_text",
    "next_spike",
    "has_real_time",
    "team__name",
    "team__slug",
    "staged_decision",
    "staged_by__full_name",
    "staged_by__email",
)


def applications_for_review(*, window, status="", real_time=""):
    applications = IntakeApplication.objects.filter(window=window)
    if status:
        applications = applications.filter(status=status)
    if real_time in ("yes", "no"):
        applications = applications.filter(has_real_time=real_time == "yes")
    return applications.order_by(*REVIEW_ORDER).values(*APPLICATION_ROW_FIELDS)


def _staged(window):
    return IntakeApplication.objects.filter(window=window).exclude(staged_decision="")


def get_window_with_staged_counts(window_id):
    """The window as the list of its applications shows it: its accepted count and its
    staged counts (bounded) read in its own row, so the list pays no query for them.
    Not who closed it (the list does not say)."""
    staged = _staged(OuterRef("pk"))
    windows = rules.with_accepted_count(IntakeWindow.objects.all()).annotate(
        staged_total=BoundedCount(staged),
        staged_accepts=BoundedCount(staged.filter(staged_decision="accepted")),
    )
    return get_object_or_404(windows, pk=window_id)


def staged_counts(window):
    """How many decisions are staged (counting no further than the bound: a page never
    counts every application of a window): read with the window if it was
    (get_window_with_staged_counts), else in one query."""
    if hasattr(window, "staged_total"):
        total, accepts = window.staged_total, window.staged_accepts
    else:
        staged = _staged(window)
        total, accepts = bounded_counts([staged, staged.filter(staged_decision="accepted")])
    return {"total": total, "shown": shown_count(total), "accepts": shown_count(accepts)}


def get_application(application_id):
    return get_object_or_404(
        IntakeApplication.objects.select_related("window", "staged_by", "team"),
        pk=application_id,
    )


def decisions_of(application):
    return application.decisions.select_related("decided_by", "released_by")


def emails_of(application):
    """The e-mails sent to the applicant about this application (their keys name it)."""
    return OutboundEmail.objects.filter(
        Q(dedupe_key=f"intake-received:{application.pk}")
        | Q(dedupe_key__startswith=f"intake-decision:{application.pk}:")
    ).order_by("created_at", "pk")


def get_application_by_status_token(token):
    if not token or len(token) > 200:
        raise Http404("No such application.")
    application = (
        IntakeApplication.objects.select_related("window", "team")
        .filter(status_token_hash=rules.hash_status_token(token))
        .first()
    )
    if application is None:
        raise Http404("No such application.")
    return application
