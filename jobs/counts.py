"""How many of each team's jobs are in each status (JobStatusCount), kept on write.

The jobs list showed five counts, each counted up to a bound (1,001 jobs) through the
team-status index: the work grew with a team's jobs until the bound. Every write that
creates, moves or deletes a job changes its team's rows here in the same transaction
(jobs.services, the admin); `manage.py recount` puts them right after writes that bypass
them (load_scale's bulk inserts). The list reads them in jobs.selectors.status_counts."""

from collections import Counter

from django.db.models import Count, F

from .models import JobDescription, JobStatusCount


def changed(before=(), after=()):
    """Jobs left (team id, status) pairs in `before` and entered those in `after`: one
    indexed update a pair. Rows are changed in one order (team, status), so two moves of
    the same team in opposite directions wait for each other rather than deadlock."""
    delta = Counter(after)
    delta.subtract(Counter(before))
    for (team_id, status), n in sorted(delta.items()):
        if not n:
            continue
        rows = JobStatusCount.objects.filter(team_id=team_id, status=status)
        if not rows.update(count=F("count") + n):
            # The team's first job in this status: the row, then the same update (another
            # transaction may create it first: its row is the one updated).
            JobStatusCount.objects.bulk_create(
                [JobStatusCount(team_id=team_id, status=status)], ignore_conflicts=True
            )
            rows.update(count=F("count") + n)


def counted():
    """{(team id, status): jobs} counted the slow way, from every job: the truth the kept
    counts are checked against and put right with."""
    rows = JobDescription.objects.order_by().values("team_id", "status").annotate(n=Count("pk"))
    return {(r["team_id"], r["status"]): r["n"] for r in rows}


def kept():
    """{(team id, status): count} as kept, without the pairs at zero."""
    rows = JobStatusCount.objects.exclude(count=0).values_list("team_id", "status", "count")
    return {(team_id, status): n for team_id, status, n in rows}


def recount_statuses():
    """Put every team's counts right from the jobs themselves."""
    truth = counted()
    JobStatusCount.objects.exclude(count=0).update(count=0)
    JobStatusCount.objects.bulk_create(
        [JobStatusCount(team_id=t, status=s, count=n) for (t, s), n in truth.items()],
        update_conflicts=True,
        unique_fields=["team", "status"],
        update_fields=["count"],
    )
