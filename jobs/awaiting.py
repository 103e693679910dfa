"""Which revisions wait for staff: the latest revision of each job in review, flagged on the
revision itself (`Revision.awaiting_review`).

The review queue used to find them by walking every revision oldest first and asking of
each whether its job was still in review and no later revision followed: at a hundred times
the data, ~480 revisions read to show 51, more as accepted jobs pile up. The flag is set
wherever a job's status moves (jobs.services._move, the admin), so the queue reads a partial
index of just the flagged rows (`revision_awaiting_idx`)."""

from django.db.models import Exists, OuterRef, Q

from .models import JobStatus, Revision


def follow(job):
    """Flag the job's latest revision if the job is in review (its status as now set on
    `job`, saved or not), and no other revision of it. Two indexed updates of a few rows."""
    Revision.objects.filter(job_id=job.pk, awaiting_review=True).update(awaiting_review=False)
    if job.status == JobStatus.IN_REVIEW:
        latest = Revision.objects.filter(job_id=job.pk).order_by("-number").values("pk")[:1]
        Revision.objects.filter(pk__in=latest).update(awaiting_review=True)


def awaiting():
    """The revisions that should be flagged, found the slow way (every job, every revision):
    the truth the flag is checked against and put right with (`manage.py recount`)."""
    later = Revision.objects.filter(job=OuterRef("job"), number__gt=OuterRef("number"))
    return Q(job__status=JobStatus.IN_REVIEW) & ~Exists(later)


def recount_awaiting():
    """Put every revision's flag right (after writes that bypass the services)."""
    truth = awaiting()
    Revision.objects.filter(truth, awaiting_review=False).update(awaiting_review=True)
    Revision.objects.filter(~truth, awaiting_review=True).update(awaiting_review=False)
