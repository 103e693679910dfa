from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from findings.models import Finding, FindingStatus
from jobs.models import JobDescription, JobStatus
from jobs.runs.models import FINAL_STATES, Run
from portal.intake.models import ApplicationStatus, IntakeApplication
from portal.pagination import bounded_counts, shown_count

from . import badges, selectors


def navigation(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"nav_memberships": []}
    # Lazy: loaded only if a template shows them, and the same list the view's team-scoped
    # reads used (selectors.own_memberships): one query for the menu, the badge and scoping.
    context = {
        "nav_memberships": lambda: selectors.own_memberships(user),
        "nav_unread": lambda: badges.badge(user, selectors.own_memberships(user)),
    }
    if user.is_staff:
        context["staff_glance"] = staff_glance  # called only by the home page
    return context


def staff_glance():
    """The program at a glance for the staff home: what waits, as numbers with links
    (computed only when the home page shows them): six counts, each through an index and
    stopping at the bound ("1,000+"), so none reads more than a thousand index entries."""
    counts = _glance_counts()
    queue = reverse("staff_finding_queue")
    # (singular, plural, link): "1 description waiting", not "1 descriptions waiting".
    links = [
        ("application waiting", "applications waiting", reverse("staff_intake")),
        (
            "description waiting for review",
            "descriptions waiting for review",
            reverse("review_queue"),
        ),
        # Each count is what its link lists: the queue's age filter means "older than".
        ("finding untriaged", "findings untriaged", f"{queue}?status=new"),
        (
            "finding untriaged for over a day",
            "findings untriaged for over a day",
            f"{queue}?status=new&age=1",
        ),
        (
            "finding untriaged for over a week",
            "findings untriaged for over a week",
            f"{queue}?status=new&age=7",
        ),
        ("run active", "runs active", reverse("job_list")),
    ]
    return [
        (shown_count(n), one if n == 1 else many, link)
        for n, (one, many, link) in zip(counts, links, strict=True)
    ]


def _glance_counts():
    now = timezone.now()
    day, week = now - timedelta(days=1), now - timedelta(days=7)
    untriaged = Finding.objects.filter(status=FindingStatus.NEW)
    return bounded_counts(
        [
            IntakeApplication.objects.filter(
                status__in=[ApplicationStatus.RECEIVED, ApplicationStatus.UNDER_REVIEW]
            ),
            JobDescription.objects.filter(status=JobStatus.IN_REVIEW),
            untriaged,
            untriaged.filter(created_at__lte=day),
            untriaged.filter(created_at__lte=week),
            Run.objects.exclude(state__in=FINAL_STATES),
        ]
    )
