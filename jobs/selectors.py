"""Team-scoped reads of jobs: outsiders get 404, never a hint that the job exists."""

import hashlib
from functools import lru_cache

from django.db import connection, connections
from django.db.models import Exists, OuterRef, Subquery, Sum
from django.db.models.functions import Coalesce
from django.http import Http404
from django.shortcuts import get_object_or_404

from jobs.runs.models import Cluster, Dispatch, Run
from portal.kept import columns_sql, fetch_prepared, instance_of
from portal.models import NoticeTopic, Team, User
from portal.selectors import scoped, team_ids_for, unread_notice_count

from .models import Comment, JobDescription, JobStatus, JobStatusCount, ReadMark, Revision


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


def get_job_for_page(user, pk, also=None):
    """The job as its page shows it: with its team, editor and run (dispatch, cluster,
    revision) and whether the user's read mark is up to date, in the one query that checks
    the user may see it. `also`: {name: SQL expression over the job (alias j) and its run
    (alias r)}, read in the same statement, their values in `job.also` (PostgreSQL; on other
    databases the job is read by the ORM and `job.also` is empty)."""
    also = also or {}
    if connection.vendor != "postgresql":
        marks = ReadMark.objects.filter(job=OuterRef("pk"), user=user, **READ_UP_TO_DATE)
        queryset = jobs_for(user).select_related(
            "team", "updated_by", "run__revision", "run__dispatch__cluster"
        )
        job = get_object_or_404(queryset.annotate(read_up_to_date=Exists(marks)), pk=pk)
        job.also = {}
        return job
    # A statement prepared once per connection: PostgreSQL took longer to plan the six
    # joins (~0.9 ms) than to run them, and the ORM as long again to compile them.
    name, sql = _page_sql(tuple(also.items()))
    team_ids = team_ids_for(user)  # None for staff: every team
    row = fetch_prepared(name, sql, [pk, team_ids, user.pk])
    if row is None:
        raise Http404("No such job.")
    return _job_from_row(row, list(also))


# What the page's statement reads, in the order of its select list: (model, alias).
_PAGE_MODELS = (
    (JobDescription, "j"),
    (Team, "t"),
    (User, "u"),
    (Run, "r"),
    (Revision, "v"),
    (Dispatch, "d"),
    (Cluster, "c"),
)


@lru_cache(maxsize=16)
def _page_sql(also):
    t = {model: connection.ops.quote_name(model._meta.db_table) for model, _ in _PAGE_MODELS}
    mark = connection.ops.quote_name(ReadMark._meta.db_table)
    columns = ", ".join(columns_sql(model, alias) for model, alias in _PAGE_MODELS)
    extra = "".join(f", {expression}" for _, expression in also)
    # Table and column names from the models' metadata, `also` the caller's own SQL; the
    # values are parameters: $1 the job, $2 the user's team ids (NULL: staff, every team),
    # $3 the user (READ_UP_TO_DATE: nothing unread, read at least once).
    sql = f"""
    SELECT {columns},
      EXISTS (SELECT 1 FROM {mark} m WHERE m.job_id = j.id AND m.user_id = $3
              AND m.unread = 0 AND m.read_at IS NOT NULL){extra}
    FROM {t[JobDescription]} j
    JOIN {t[Team]} t ON t.id = j.team_id
    LEFT JOIN {t[User]} u ON u.id = j.updated_by_id
    LEFT JOIN {t[Run]} r ON r.job_id = j.id
    LEFT JOIN {t[Revision]} v ON v.id = r.revision_id
    LEFT JOIN {t[Dispatch]} d ON d.run_id = r.id
    LEFT JOIN {t[Cluster]} c ON c.id = d.cluster_id
    WHERE j.id = $1 AND ($2::bigint[] IS NULL OR j.team_id = ANY($2::bigint[]))
    """  # noqa: S608
    digest = hashlib.md5(sql.encode(), usedforsecurity=False).hexdigest()[:12]
    return f"job_page_{digest}", sql


def _job_from_row(row, also_names):
    """The job with its relations cached on it as select_related() would leave them (a
    missing run, dispatch or editor cached as None)."""
    objects, offset = {}, 0
    for model, alias in _PAGE_MODELS:
        objects[alias] = instance_of(model, row, offset)
        offset += len(model._meta.concrete_fields)
    job, run, dispatch = objects["j"], objects["r"], objects["d"]
    _cache(JobDescription, "team", job, objects["t"])
    _cache(JobDescription, "updated_by", job, objects["u"])
    JobDescription._meta.get_field("run").set_cached_value(job, run)
    if run is not None:
        _cache(Run, "job", run, job)
        _cache(Run, "revision", run, objects["v"])
        Run._meta.get_field("dispatch").set_cached_value(run, dispatch)
        if dispatch is not None:
            _cache(Dispatch, "run", dispatch, run)
            _cache(Dispatch, "cluster", dispatch, objects["c"])
    job.read_up_to_date = row[offset]
    job.also = dict(zip(also_names, row[offset + 1 :], strict=True))
    return job


def _cache(model, name, instance, value):
    model._meta.get_field(name).set_cached_value(instance, value)


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
    sql, params = _status_counts_sql(None if ids is None else tuple(ids))
    with connections[JobStatusCount.objects.db].cursor() as cursor:
        cursor.execute(sql, params)
        found = dict(cursor.fetchall())
    return [(status, f"{found.get(status, 0) or 0:,}") for status in JobStatus]


@lru_cache(maxsize=1024)
def _status_counts_sql(team_ids):
    """The counts' SQL for these teams (None: every team), compiled once: the queryset
    compiled on every visit cost twice what the database took. Only SQL is kept, no data."""
    rows = JobStatusCount.objects.all()
    if team_ids is not None:  # as scoped(): the user's teams
        rows = rows.filter(team_id__in=team_ids)
    rows = rows.order_by().values_list("status").annotate(n=Sum("count"))
    return rows.query.sql_with_params()


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
            "job__team__name",
            "number",
            "submitted_at",
            "warnings_acknowledged",
            "submitted_by__full_name",
            "submitted_by__email",
        )
        .order_by(*REVIEW_ORDER)
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
