"""Team-scoped reads of jobs: outsiders get 404, never a hint that the job exists."""

from django.db.models import Count, Exists, F, OuterRef, Q, Subquery
from django.shortcuts import get_object_or_404

from portal.models import NoticeTopic
from portal.selectors import teams_for, unread_notice_count

from .models import Comment, JobDescription, JobStatus, ReadMark, Revision


def jobs_for(user):
    return JobDescription.objects.filter(team__in=teams_for(user))


def get_job_for_user(user, pk, *, for_update=False):
    queryset = jobs_for(user).select_related("team")
    if for_update:
        queryset = queryset.select_for_update(of=("self",))
    return get_object_or_404(queryset, pk=pk)


def get_revision_for_user(user, pk, number):
    return get_object_or_404(
        Revision.objects.select_related("job", "job__team", "submitted_by").filter(
            job__in=jobs_for(user)
        ),
        job_id=pk,
        number=number,
    )


def with_unread(queryset, user):
    """Annotate each job with the number of comments by others since the user last read."""
    last_read = ReadMark.objects.filter(job=OuterRef("pk"), user=user).values("read_at")[:1]
    return queryset.annotate(
        last_read=Subquery(last_read),
    ).annotate(
        unread=Count(
            "comments",
            filter=~Q(comments__author=user)
            & (Q(last_read__isnull=True) | Q(comments__created_at__gt=F("last_read"))),
        )
    )


def dashboard(user, team=None):
    """The user's jobs grouped by status, newest activity first (a fixed number of queries)."""
    queryset = jobs_for(user).select_related("team", "updated_by", "run")
    if team is not None:
        queryset = queryset.filter(team=team)
    jobs = list(with_unread(queryset, user).order_by("-last_activity_at"))
    groups = {status: [] for status in JobStatus}
    for job in jobs:
        groups[JobStatus(job.status)].append(job)
    return [(status, groups[status]) for status in JobStatus]


def unread_total(user):
    """Unread comments plus unread lifecycle notices, for the badge in the navigation:
    counted in the database (a comment is unread unless the user's read mark is newer)."""
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


def review_queue():
    """Submitted revisions waiting for staff, oldest first."""
    latest = Revision.objects.filter(job=OuterRef("job")).order_by("-number").values("number")[:1]
    return (
        Revision.objects.filter(job__status=JobStatus.IN_REVIEW, number=Subquery(latest))
        .select_related("job", "job__team", "submitted_by")
        .order_by("submitted_at")
    )


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
