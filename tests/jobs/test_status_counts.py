"""Each team's jobs in each status, kept on write (jobs/counts.py): after every service
and admin write they equal what counting every job says, and the jobs list shows them."""

import uuid

import pytest
from django.core.management import call_command
from django.urls import reverse

from jobs import jobformat, services
from jobs.counts import counted, kept
from jobs.models import JobDescription, JobStatus
from tests.admin_forms import admin_post

pytestmark = pytest.mark.django_db


def _right():
    return kept() == counted()


def _draft(team, user, **kw):
    return services.create_draft(team=team, user=user, data=jobformat.example_data(), **kw)


def test_the_counts_follow_every_write_of_the_services(team_a, team_b, a_member, b_member, staff):
    token = uuid.uuid4()
    job = _draft(team_a, a_member, submission_token=token)
    assert _draft(team_a, a_member, submission_token=token) == job  # sent twice: one draft
    assert kept() == {(team_a.pk, "draft"): 1}
    other = _draft(team_b, b_member)
    gone = _draft(team_a, a_member)
    assert _right() and kept()[(team_a.pk, "draft")] == 2
    services.delete_draft(job=gone)
    assert _right() and kept()[(team_a.pk, "draft")] == 1

    steps = [
        lambda: services.submit(job=job, user=a_member),
        lambda: services.review(
            revision=job.revisions.first(),
            reviewer=staff,
            outcome="clarify",
            note="?",
            fields=["x"],
        ),
        lambda: services.submit(job=job, user=a_member),
        lambda: services.withdraw(job=job, user=a_member),
        lambda: services.submit(job=job, user=a_member),
        lambda: services.review(
            revision=job.revisions.first(), reviewer=staff, outcome="declined", note="No."
        ),
        lambda: services.submit(job=job, user=a_member),
        lambda: services.submit(job=other, user=b_member),
        lambda: services.review(revision=job.revisions.first(), reviewer=staff, outcome="accepted"),
    ]
    for step in steps:
        step()
        assert _right()
    assert kept() == {(team_a.pk, "accepted"): 1, (team_b.pk, "in_review"): 1}


def test_a_refused_move_counts_nothing(team_a, a_member, staff):
    job = _draft(team_a, a_member)
    services.submit(job=job, user=a_member)
    with pytest.raises(services.DomainError):
        services.submit(job=job, user=a_member)
    with pytest.raises(services.DomainError):
        services.delete_draft(job=job)
    assert kept() == counted() == {(team_a.pk, "in_review"): 1}


def test_admin_edits_and_deletes_keep_the_counts(client_for, team_a, team_b, a_member, staff):
    job, spare = _draft(team_a, a_member), _draft(team_a, a_member)
    client = client_for(staff)
    change = reverse("admin:jobs_jobdescription_change", args=[job.pk])
    admin_post(client, change, status=JobStatus.IN_REVIEW)  # one move of the table
    assert _right() and kept()[(team_a.pk, "in_review")] == 1
    admin_post(client, change, team=team_b.pk, status=JobStatus.DECLINED)
    assert _right() and kept() == {(team_a.pk, "draft"): 1, (team_b.pk, "declined"): 1}
    admin_post(client, reverse("admin:jobs_jobdescription_add"), team=team_a.pk, name="New")
    assert _right() and kept()[(team_a.pk, "draft")] == 2

    client.post(reverse("admin:jobs_jobdescription_delete", args=[job.pk]), {"post": "yes"})
    assert _right() and (team_b.pk, "declined") not in kept()
    client.post(
        reverse("admin:jobs_jobdescription_changelist"),
        {"action": "delete_selected", "_selected_action": [spare.pk], "post": "yes"},
    )
    assert not JobDescription.objects.filter(pk=spare.pk).exists()
    assert _right() and kept() == {(team_a.pk, "draft"): 1}


def _shown(page, status, n):
    return f'{status.label} <span class="muted">({n:,})</span>' in page


def test_the_jobs_list_shows_the_kept_counts_of_the_users_teams(
    client_for, team_a, team_b, a_member, b_member, staff
):
    for _ in range(3):
        _draft(team_a, a_member)
    services.submit(job=_draft(team_a, a_member), user=a_member)
    for _ in range(2):
        _draft(team_b, b_member)
    page = client_for(a_member).get(reverse("job_list")).content.decode()
    assert _shown(page, JobStatus.DRAFT, 3) and _shown(page, JobStatus.IN_REVIEW, 1)
    assert _shown(page, JobStatus.ACCEPTED, 0)
    page = client_for(staff).get(reverse("job_list")).content.decode()
    assert _shown(page, JobStatus.DRAFT, 5) and _shown(page, JobStatus.IN_REVIEW, 1)
    page = client_for(staff).get(reverse("job_list"), {"team": team_b.slug}).content.decode()
    assert _shown(page, JobStatus.DRAFT, 2) and _shown(page, JobStatus.IN_REVIEW, 0)
    # Another team's page is not the partner's to see.
    assert client_for(a_member).get(reverse("job_list"), {"team": team_b.slug}).status_code == 404


def test_recount_puts_the_counts_right_after_bulk_writes(team_a, a_member):
    _draft(team_a, a_member)
    JobDescription.objects.bulk_create(
        JobDescription(team=team_a, name=f"bulk {i}", status=JobStatus.ACCEPTED) for i in range(4)
    )
    JobDescription.objects.filter(status=JobStatus.DRAFT).update(status=JobStatus.DECLINED)
    assert not _right()
    call_command("recount")
    assert _right() and kept() == {(team_a.pk, "accepted"): 4, (team_a.pk, "declined"): 1}


def test_a_partner_of_no_team_sees_counts_of_nothing(client_for, team_a, a_member, make_user):
    _draft(team_a, a_member)
    loner = make_user("loner@example.org")
    response = client_for(loner).get(reverse("job_list"))
    assert response.status_code == 200  # no "IN ()" to compile
    assert _shown(response.content.decode(), JobStatus.DRAFT, 0)
