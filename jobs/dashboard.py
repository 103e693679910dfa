"""What the jobs list (/jobs/) shows of each row (dicts of selectors.dashboard) and what
waits on the person; jobs/list.html writes them."""

from django.urls import reverse

from .models import JobStatus, untitled

STATUS_LABELS = dict(JobStatus.choices)
ACTION_ORDER = {"clarify": 0, "review": 1, "declined": 2, "unread": 3, "draft": 4}


def job_name(job):
    """str(JobDescription) from a row's values."""
    return job["name"] or untitled(job["number"], job["pk"])


def row(job):
    """A row of the list as the template shows it."""
    pk, status = job["pk"], job["status"]
    detail = reverse("job_detail", args=[pk])
    return {
        # A draft opens at its first step; any other job at its page.
        "link": reverse("job_step", args=[pk, "work"]) if status == JobStatus.DRAFT else detail,
        "detail": detail,
        "name": job_name(job),
        "status": STATUS_LABELS.get(status, status),
        "team": job["team__name"],
        "when": job["last_activity_at"],
        # str(User) of the last editor, or nobody.
        "by": job["updated_by__full_name"] or job["updated_by__email"],
        "unread": job["unread"],
        "run_state": job["run__state"],
        "simulated": job["run__simulated"],
        "cluster": job["run__dispatch__cluster__name"],
    }


def _actions_for(job, user):
    """What this row asks of the person: (what, link, kind) each."""
    pk, status = job["pk"], job["status"]
    detail = reverse("job_detail", args=[pk])
    if user.is_staff and status == JobStatus.IN_REVIEW:
        yield ("waits for your review", detail + "#reviews", "review")
    if not user.is_staff:
        if status == JobStatus.NEEDS_CLARIFICATION:
            link = reverse("job_step", args=[pk, "work"])
            yield ("staff asked you to clarify fields", link, "clarify")
        elif status == JobStatus.DECLINED:
            yield (
                "declined as not a network job: revise the batch part",
                detail + "#reviews",
                "declined",
            )
        elif status == JobStatus.DRAFT:
            yield ("draft: finish it and submit", reverse("job_step", args=[pk, "review"]), "draft")
    if job["unread"]:
        n = job["unread"]
        yield (f"{n} new comment{'s' if n != 1 else ''} to read", detail + "#discussion", "unread")


def actions(jobs, user):
    """Of the jobs listed, those waiting on this person, most pressing first, as
    {"name", "what", "link", "kind"} each."""
    found = [(job, *action) for job in jobs for action in _actions_for(job, user)]
    found.sort(key=lambda item: ACTION_ORDER[item[3]])
    return [
        {"name": job_name(job), "what": what, "link": link, "kind": kind}
        for job, what, link, kind in found
    ]


def dashboard_rows(page, user):
    """The page's rows and its "needs your action" items."""
    return [row(job) for job in page], actions(page, user)
