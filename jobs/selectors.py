"""Team-scoped reads of jobs: outsiders get 404, never a hint that the job exists."""

from django.db.models import Exists, OuterRef, Subquery, Sum
from django.db.models.functions import Coalesce
from django.http import Http404
from django.shortcuts import get_object_or_404

from jobs.runs.models import Run
from portal.models import NoticeTopic, name_of
from portal.selectors import own_memberships, scoped, team_ids_for, unread_notice_count

from .models import (
    Comment,
    JobDescription,
    JobStatus,
    JobStatusCount,
    ReadMark,
    ReviewOutcome,
    Revision,
)


def jobs_for(user):
    return scoped(JobDescription.objects.all(), user)


def get_job_for_user(user, pk, *, for_update=False):
    queryset = jobs_for(user).select_related("team", "updated_by")
    if for_update:
        queryset = queryset.select_for_update(of=("self",))
    return get_object_or_404(queryset, pk=pk)


def get_run_for_user(user, pk):
    """(job, its run) for a job the user may see; 404 when it has not entered the lifecycle."""
    job = get_job_for_user(user, pk)
    run = Run.objects.filter(job=job).select_related("revision", "job", "dispatch__cluster").first()
    if run is None:
        raise Http404("This job has not entered the lifecycle.")
    return job, run


# A read mark with nothing new since it was read.
READ_UP_TO_DATE = {"unread": 0, "read_at__isnull": False}


# What the job page reads: of the job and its editor the columns it prints; the run and its
# revision whole; of the dispatch what the run section says (not its scripts, kilobytes of
# JSON a dispatch), with its cluster.
JOB_PAGE_FIELDS = (
    "team",
    "name",
    "number",
    "data",
    "status",
    "last_activity_at",
    "updated_by__full_name",
    "updated_by__email",
    *(
        f"run__{name}"
        for name in (
            "job",
            "revision",
            "state",
            "state_since",
            "restarts",
            "failure_reason",
            "cancelled_by",
            "dispatch_refusal",
            "simulated",
            "created_at",
        )
    ),
    *(
        f"run__dispatch__{name}"
        for name in (
            "run",
            "cluster",
            "state",
            "slurm_jobs",
            "dispatched_at",
            "cancel_requested_at",
            "cancel_requested_by",
            "earlier",
        )
    ),
)


def get_job_for_page(user, pk):
    """The job as its page shows it: with its editor and run (dispatch, cluster, revision)
    and whether the user's read mark is up to date, in the one query that checks the user
    may see it. A partner's team comes from the memberships the request has read already
    (portal.selectors.own_memberships, which scoped the query); staff read it with the job."""
    marks = ReadMark.objects.filter(job=OuterRef("pk"), user=user, **READ_UP_TO_DATE)
    teams = {m.team_id: m.team for m in own_memberships(user)}
    related = ["updated_by", "run__revision", "run__dispatch__cluster"]
    if user.is_staff:
        related.append("team")
    queryset = jobs_for(user).select_related(*related).only(*JOB_PAGE_FIELDS)
    job = get_object_or_404(queryset.annotate(read_up_to_date=Exists(marks)), pk=pk)
    if not user.is_staff:
        job.team = teams[job.team_id]
    return job


def get_revision_for_user(user, pk, number):
    return get_object_or_404(
        Revision.objects.select_related("job", "job__team", "submitted_by").filter(
            job__in=jobs_for(user)
        ),
        job_id=pk,
        number=number,
    )


def with_unread(queryset, user):
    """Annotate each job with the comments by others the user has not read (kept on the
    user's read mark when a comment is written: one indexed look-up per row)."""
    unread = ReadMark.objects.filter(job=OuterRef("pk"), user=user).values("unread")[:1]
    return queryset.annotate(unread=Coalesce(Subquery(unread), 0))


DASHBOARD_ORDER = ("-last_activity_at", "-pk")
# Only the columns the rows show: not the descriptions (kilobytes of JSON a row), nor a
# dispatch's scripts or a cluster's report, which cost more to load than the rest.
DASHBOARD_FIELDS = (
    "pk",
    "name",
    "number",
    "status",
    "last_activity_at",
    "team__name",
    "updated_by__email",
    "updated_by__full_name",
    "run__state",
    "run__simulated",
    "run__dispatch__cluster__name",
    "unread",
)


def dashboard(user, team=None, status=""):
    """The user's jobs, newest activity first (sorted and paged by the view in
    DASHBOARD_ORDER), each with its run and unread count in the same query, as dicts of
    DASHBOARD_FIELDS: a row is only shown (jobs/dashboard.py)."""
    queryset = jobs_for(user)
    if team is not None:
        queryset = queryset.filter(team=team)
    if status:
        queryset = queryset.filter(status=status)
    return with_unread(queryset, user).values(*DASHBOARD_FIELDS)


def status_counts(user, team=None):
    """How many of the user's jobs are in each status (of `team`, a team of the user's, if
    given), read from the counts kept on write (jobs/counts.py): a few rows a team, one
    query, whatever the number of jobs."""
    ids = [team.pk] if team is not None else team_ids_for(user)
    if ids == []:  # a partner of no team: nothing to count (and no SQL for "IN ()")
        return [(status, "0") for status in JobStatus]
    rows = JobStatusCount.objects.all()
    if ids is not None:  # as scoped(): the user's teams
        rows = rows.filter(team_id__in=ids)
    found = dict(rows.order_by().values_list("status").annotate(n=Sum("count")))
    return [(status, f"{found.get(status, 0) or 0:,}") for status in JobStatus]


def unread_recounted(user):
    """What the badge should say, counted the slow way from every comment and notice the
    user can see. The badge itself is kept on write (portal/badges.py); this is the truth it
    is checked against in tests and by `manage.py recount_badges`."""
    if not user.is_authenticated:
        return 0
    read = ReadMark.objects.filter(
        job=OuterRef("job"), user=user, read_at__gte=OuterRef("created_at")
    )
    comments = (
        Comment.objects.filter(job__in=jobs_for(user))
        .exclude(author=user)
        .exclude(Exists(read))
        .count()
    )
    return comments + unread_notice_count(user, NoticeTopic.JOB)


REVIEW_ORDER = ("submitted_at", "pk")


def review_queue():
    """Submitted revisions waiting for staff, oldest first: the latest revision of each job
    in review, flagged on write (jobs/awaiting.py) and read through a partial index of just
    those (revision_awaiting_idx)."""
    return (
        Revision.objects.filter(awaiting_review=True)
        # Only what a row shows, as values (a row is only shown: jobs/review/presenters.py),
        # not the descriptions themselves (kilobytes of JSON a row).
        .values(
            "pk",
            "job_id",
            "job__name",
            "job__number",
            "job__team__name",
            "number",
            "submitted_at",
            "warnings_acknowledged",
            "submitted_by__full_name",
            "submitted_by__email",
        )
        .order_by(*REVIEW_ORDER)
    )


def revisions_with_reviews(job):
    """The job's revisions as its page lists them, newest first, each a dict with its
    reviews (newest first) and the names the page prints: one query, the revisions joined
    to their reviews, and only the columns shown (not the descriptions)."""
    rows = job.revisions.order_by("-number", "-reviews__created_at", "-reviews__pk").values(
        "number",
        "submitted_at",
        "reviews__pk",
        "reviews__outcome",
        "reviews__note",
        "reviews__fields",
        "reviews__created_at",
        submitter=name_of("submitted_by"),
        reviewer=name_of("reviews__reviewer"),
    )
    revisions = {}
    for row in rows:
        revision = revisions.setdefault(
            row["number"],
            {
                "number": row["number"],
                "submitted_at": row["submitted_at"],
                "submitted_by": row["submitter"],
                "reviews": [],
            },
        )
        if row["reviews__pk"] is not None:
            revision["reviews"].append(
                {
                    "outcome": row["reviews__outcome"],
                    "outcome_label": ReviewOutcome(row["reviews__outcome"]).label,
                    "note": row["reviews__note"],
                    "fields": row["reviews__fields"],
                    "created_at": row["reviews__created_at"],
                    "reviewer": row["reviewer"],
                }
            )
    return list(revisions.values())


def status_history(job):
    """The job's moves of status, oldest first, as dicts of what the page prints (a move
    is only shown): the labels of both statuses and the actor's name read with the row."""
    labels = dict(JobStatus.choices)
    rows = job.changes.values(
        "from_status", "to_status", "note", "created_at", actor_name=name_of("actor")
    )
    return [
        {
            **row,
            "from_label": labels.get(row["from_status"], row["from_status"]),
            "to_label": labels.get(row["to_status"], row["to_status"]),
        }
        for row in rows
    ]


def discussion(job):
    """Top-level comments with their replies, authors loaded in the same queries."""
    comments = list(job.comments.select_related("author").order_by("created_at"))
    by_parent = {}
    for comment in comments:
        by_parent.setdefault(comment.parent_id, []).append(comment)
    for comment in comments:
        comment.thread = by_parent.get(comment.pk, [])
    return by_parent.get(None, []), comments


def comments_by_anchor(comments):
    anchored = {}
    for comment in comments:
        if comment.anchor:
            anchored.setdefault(comment.anchor, []).append(comment)
    return anchored
