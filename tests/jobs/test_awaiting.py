"""The review queue lists the revisions flagged as awaiting review: the flag must follow
every move of a job's status (submit, review, withdraw, the admin), and match what
counting every job and revision says (jobs.awaiting.awaiting)."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from jobs import jobformat, services
from jobs.awaiting import awaiting, recount_awaiting
from jobs.models import JobDescription, JobStatus, JobStatusChange, Revision
from tests.admin_forms import admin_post_job

pytestmark = pytest.mark.django_db


def _flagged():
    return set(Revision.objects.filter(awaiting_review=True).values_list("pk", flat=True))


def _truth():
    return set(Revision.objects.filter(awaiting()).values_list("pk", flat=True))


def _draft(team, user):
    return services.create_draft(team=team, user=user, data=jobformat.example_data())


def _latest(job):
    return job.revisions.order_by("-number").first()


def test_the_flag_follows_every_move_of_the_status(team_a, a_member, staff):
    job, other = _draft(team_a, a_member), _draft(team_a, a_member)
    assert _flagged() == set()
    first = services.submit(job=job, user=a_member)
    services.submit(job=other, user=a_member)
    assert first.pk in _flagged() and _flagged() == _truth() and len(_flagged()) == 2

    services.review(revision=first, reviewer=staff, outcome="clarify", note="?", fields=["x"])
    assert first.pk not in _flagged() and _flagged() == _truth() and len(_flagged()) == 1
    second = services.submit(job=job, user=a_member)  # a later revision: only it waits
    assert {first.pk, second.pk} & _flagged() == {second.pk} and _flagged() == _truth()

    services.withdraw(job=job, user=a_member)
    assert second.pk not in _flagged() and _flagged() == _truth()
    third = services.submit(job=job, user=a_member)
    services.review(revision=third, reviewer=staff, outcome="declined", note="Not network.")
    assert third.pk not in _flagged() and _flagged() == _truth()
    fourth = services.submit(job=job, user=a_member)
    assert fourth.pk in _flagged()
    services.review(revision=fourth, reviewer=staff, outcome="accepted")
    services.review(revision=_latest(other), reviewer=staff, outcome="accepted")
    assert _flagged() == _truth() == set()


def test_a_refused_move_changes_no_flag(team_a, a_member, staff):
    job = _draft(team_a, a_member)
    revision = services.submit(job=job, user=a_member)
    with pytest.raises(services.DomainError):
        services.submit(job=job, user=a_member)  # already in review
    with pytest.raises(services.DomainError):
        services.review(revision=revision, reviewer=staff, outcome="declined", note="")
    assert _flagged() == _truth() == {revision.pk}


def test_an_admin_edit_of_the_status_flags_and_records_it(client_for, team_a, a_member, staff):
    job = _draft(team_a, a_member)
    revision = services.submit(job=job, user=a_member)
    client = client_for(staff)
    moved = admin_post_job(client, job, status=JobStatus.DRAFT)
    assert moved.status == JobStatus.DRAFT
    assert _flagged() == _truth() == set()
    change = JobStatusChange.objects.filter(job=job).last()
    assert (change.from_status, change.to_status, change.actor) == ("in_review", "draft", staff)

    admin_post_job(client, job, status=JobStatus.IN_REVIEW)
    assert _flagged() == _truth() == {revision.pk}
    before = JobStatusChange.objects.count()
    admin_post_job(client, job, name="Renamed")  # the status kept: no history row
    assert JobStatusChange.objects.count() == before
    assert _flagged() == {revision.pk}


def test_the_queue_shows_exactly_the_revisions_awaiting_review(client_for, team_a, a_member, staff):
    jobs = [_draft(team_a, a_member) for _ in range(4)]
    revisions = [services.submit(job=job, user=a_member) for job in jobs]
    services.review(revision=revisions[0], reviewer=staff, outcome="accepted")
    services.withdraw(job=jobs[1], user=a_member)
    services.review(
        revision=revisions[2], reviewer=staff, outcome="clarify", note="?", fields=["x"]
    )
    again = services.submit(job=jobs[2], user=a_member)
    page = client_for(staff).get(reverse("review_queue")).content.decode()
    shown = {
        r.pk
        for r in Revision.objects.all()
        if reverse("revision_detail", args=[r.job_id, r.number]) in page
    }
    assert shown == _truth() == {again.pk, revisions[3].pk}


def test_recount_puts_the_flags_right_after_writes_that_bypass_the_services(
    team_a, a_member, staff
):
    job = _draft(team_a, a_member)
    first = services.submit(job=job, user=a_member)
    services.review(revision=first, reviewer=staff, outcome="accepted")
    waiting = services.submit(job=_draft(team_a, a_member), user=a_member)
    # A bulk write: the flag left as it was, then a stray one.
    JobDescription.objects.filter(pk=job.pk).update(status=JobStatus.IN_REVIEW)
    Revision.objects.filter(pk=waiting.pk).update(awaiting_review=False)
    assert _flagged() != _truth()
    recount_awaiting()
    assert _flagged() == _truth() == {first.pk, waiting.pk}
    Revision.objects.update(awaiting_review=True)
    call_command("recount")
    assert _flagged() == _truth() == {first.pk, waiting.pk}
