"""Submit → review (clarify / decline / accept) → revise, with the discussion and e-mails."""

import copy

import pytest
from django.core import mail
from django.urls import reverse

from jobs import jobformat, services
from jobs.models import JobStatus, JobStatusChange, Review
from portal.errors import DomainError

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def complete(team_a, a_member):
    return services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())


def test_submit_is_blocked_by_errors(client_for, team_a, a_member):
    job = services.create_draft(team=team_a, user=a_member, data={"work": {"kind": "training"}})
    response = client_for(a_member).post(reverse("job_submit", args=[job.pk]), follow=True)
    assert "Fix the" in response.content.decode()
    job.refresh_from_db()
    assert job.status == JobStatus.DRAFT and not job.revisions.exists()


def test_warnings_must_be_acknowledged(client_for, team_a, a_member, staff):
    data = copy.deepcopy(jobformat.example_data())
    del data["work"]["amount"]  # a warning, not an error
    job = services.create_draft(team=team_a, user=a_member, data=data)
    client = client_for(a_member)
    page = client.get(reverse("job_step", args=[job.pk, "review"])).content.decode()
    assert "I have read the 1 warning" in page
    client.post(reverse("job_submit", args=[job.pk]))
    job.refresh_from_db()
    assert job.status == JobStatus.DRAFT
    client.post(reverse("job_submit", args=[job.pk]), {"acknowledge": "1"})
    job.refresh_from_db()
    assert job.status == JobStatus.IN_REVIEW
    assert job.revisions.get().warnings_acknowledged == ["work.amount:missing_amount"]
    assert [m.to for m in mail.outbox] == [[staff.email]]


def test_clarify_then_revise_then_accept(client_for, complete, a_member, a_admin, staff):
    client = client_for(a_member)
    client.post(reverse("job_submit", args=[complete.pk]))
    complete.refresh_from_db()
    assert complete.status == JobStatus.IN_REVIEW
    # While in review the description is read-only.
    response = client.post(
        reverse("job_step", args=[complete.pk, "work"]),
        {"version": complete.version, "work.summary": "changed", "action": "save"},
    )
    complete.refresh_from_db()
    assert complete.data["work"]["summary"] != "changed"

    staff_client = client_for(staff)
    response = staff_client.post(
        reverse("revision_review", args=[complete.pk, 1]),
        {
            "outcome": "clarify",
            "fields": ["data.inputs.0.size"],
            "note": "Is that compressed or raw?",
        },
    )
    assert response.status_code == 302
    complete.refresh_from_db()
    assert complete.status == JobStatus.NEEDS_CLARIFICATION and complete.clarify_fields == [
        "data.inputs.0.size"
    ]
    assert {m.to[0] for m in mail.outbox} >= {a_member.email, a_admin.email}

    client = client_for(a_member)
    page = client.get(reverse("job_step", args=[complete.pk, "data"])).content.decode()
    assert "staff asked to clarify" in page
    client.post(
        reverse("job_step", args=[complete.pk, "data"]),
        {
            "version": complete.version,
            "data.inputs.0.name": "footage",
            "data.inputs.0.location": "s3://northwind-footage/2027-q1/",
            "data.inputs.0.size": "2.75 TiB",
            "data.inputs.0.objects": "48000",
            "data.inputs.0.format": "MP4 (H.264), 1080p, 15 fps",
            "data.inputs.0.access": "copy_before_start",
            "data.inputs.0.read_only": "true",
            "data.inputs.0.region": "eu-west-1",
            "data.scratch": "3 TiB",
            "data.stage_before_rent": "true",
            "action": "next",
        },
    )
    client.post(reverse("job_submit", args=[complete.pk]))
    complete.refresh_from_db()
    assert complete.status == JobStatus.IN_REVIEW and complete.revisions.count() == 2
    diff = client.get(reverse("revision_detail", args=[complete.pk, 2])).content.decode()
    assert "Data › Input 1 › Size" in diff and "2.5 TiB" in diff and "2.75 TiB" in diff

    # Reviewing the older revision is refused; the latest is accepted.
    with pytest.raises(DomainError):
        services.review(
            revision=complete.revisions.get(number=1), reviewer=staff, outcome="accepted"
        )
    client_for(staff).post(
        reverse("revision_review", args=[complete.pk, 2]), {"outcome": "accepted"}
    )
    complete.refresh_from_db()
    assert complete.status == JobStatus.ACCEPTED
    assert Review.objects.filter(revision__job=complete).count() == 2


def test_decline_needs_a_note_and_is_recorded(client_for, complete, a_member, staff):
    services.submit(job=complete, user=a_member)
    client = client_for(staff)
    response = client.post(
        reverse("revision_review", args=[complete.pk, 1]), {"outcome": "declined"}, follow=True
    )
    assert "Write a note" in response.content.decode()
    client.post(
        reverse("revision_review", args=[complete.pk, 1]),
        {
            "outcome": "declined",
            "note": "The inference API is real-time: keep it on your own cluster.",
        },
    )
    complete.refresh_from_db()
    assert complete.status == JobStatus.DECLINED
    page = client_for(a_member).get(reverse("job_detail", args=[complete.pk])).content.decode()
    assert "keep it on your own cluster" in page


def test_partners_cannot_review(client_for, complete, a_admin):
    services.submit(job=complete, user=a_admin)
    response = client_for(a_admin).post(
        reverse("revision_review", args=[complete.pk, 1]), {"outcome": "accepted"}
    )
    assert response.status_code == 403
    complete.refresh_from_db()
    assert complete.status == JobStatus.IN_REVIEW


def test_export_any_revision(client_for, complete, a_member):
    services.submit(job=complete, user=a_member)
    client = client_for(a_member)
    response = client.get(reverse("revision_export", args=[complete.pk, 1, "yaml"]))
    assert response["Content-Disposition"].endswith('-r1.yaml"')
    [result] = jobformat.import_text(response.content)
    assert result.issues == []
    response = client.get(reverse("revision_export", args=[complete.pk, 1, "json"]))
    assert response.json()["name"] == "masks-v7-2027q1"
    assert client.get(f"/jobs/{complete.pk}/revisions/1/export.exe").status_code == 404


def test_discussion_notifies_the_other_side_and_counts_unread(
    client_for, complete, a_member, a_admin, staff
):
    client = client_for(a_member)
    client.post(
        reverse("comment_create", args=[complete.pk]),
        {"body": "Is **2.5 TiB** before or after compression?", "anchor": "data.inputs.N.size"},
    )
    assert [m.to for m in mail.outbox] == [[staff.email]]
    staff_client = client_for(staff)
    assert staff_client.get(reverse("job_list")).content.decode().count("1 unread") == 1
    page = staff_client.get(reverse("job_detail", args=[complete.pk])).content.decode()
    assert "<strong>2.5 TiB</strong>" in page
    assert "1 unread" not in staff_client.get(reverse("job_list")).content.decode()  # read now
    comment = complete.comments.get()
    mail.outbox.clear()
    staff_client.post(
        reverse("comment_create", args=[complete.pk]), {"body": "After.", "parent": comment.pk}
    )
    assert {m.to[0] for m in mail.outbox} == {a_member.email, a_admin.email}
    assert comment.replies.count() == 1


def test_comment_markdown_is_sanitised_and_empty_is_refused(client_for, complete, a_member):
    client = client_for(a_member)
    response = client.post(reverse("comment_create", args=[complete.pk]), {"body": "   "})
    assert response.status_code == 400
    client.post(
        reverse("comment_create", args=[complete.pk]), {"body": "<script>alert(1)</script>hi"}
    )
    page = client.get(reverse("job_detail", args=[complete.pk])).content.decode()
    assert "<script>alert(1)" not in page


def test_reply_to_another_jobs_comment_is_refused(client_for, complete, team_a, a_member):
    other = services.create_draft(team=team_a, user=a_member)
    foreign = services.add_comment(job=other, author=a_member, body="elsewhere")
    response = client_for(a_member).post(
        reverse("comment_create", args=[complete.pk]), {"body": "x", "parent": foreign.pk}
    )
    assert response.status_code == 400
    assert not complete.comments.exists()


def test_staff_review_queue_lists_latest_revisions_with_constant_queries(
    client_for, team_a, a_member, staff, django_assert_num_queries
):
    client = client_for(staff)
    job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    services.submit(job=job, user=a_member)
    client.get(reverse("review_queue"))
    with django_assert_num_queries(6) as first:
        client.get(reverse("review_queue"))
    baseline = len(first)  # read now: the query log is a bounded deque
    for _ in range(8):
        job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
        services.submit(job=job, user=a_member)
    with django_assert_num_queries(baseline):
        response = client.get(reverse("review_queue"))
    assert response.content.decode().count("masks-v7-2027q1") == 9


def test_job_page_query_count_is_constant(
    client_for, complete, a_member, staff, django_assert_num_queries
):
    services.submit(job=complete, user=a_member)
    client = client_for(staff)
    url = reverse("job_detail", args=[complete.pk])
    client.get(url)
    # Staff reviewing: session, user, the job with its run and read mark, memberships, the
    # comments, the revisions with their reviews and reviewers, the history.
    with django_assert_num_queries(8) as first:
        client.get(url)
    baseline = len(first)  # read now: the query log is a bounded deque
    for i in range(6):
        services.add_comment(job=complete, author=a_member, body=f"c{i}")
    staff.refresh_from_db()
    assert staff.unread_comments == 6
    # Reading them takes the badge down by all six in one update, however many there are
    # (with the read mark's: begin, lock the mark, write it, the badge, commit).
    with django_assert_num_queries(baseline + 5):
        client.get(url)
    staff.refresh_from_db()
    assert staff.unread_comments == 0
    with django_assert_num_queries(baseline):
        client.get(url)


def test_teams_are_reminded_once_a_day_of_a_pending_clarification(
    complete, a_member, a_admin, staff
):
    from datetime import timedelta

    from django.utils import timezone

    from jobs.models import JobDescription

    revision = services.submit(job=complete, user=a_member)
    services.review(
        revision=revision,
        reviewer=staff,
        outcome="clarify",
        fields=["work.summary"],
        note="Which model?",
    )
    assert services.remind_clarifications() == 0  # too recent
    JobDescription.objects.filter(pk=complete.pk).update(
        last_activity_at=timezone.now() - timedelta(days=4)
    )
    mail.outbox.clear()
    assert services.remind_clarifications() == 1
    assert {m.to[0] for m in mail.outbox} == {a_member.email, a_admin.email}
    assert "waited 4 days" in mail.outbox[0].subject
    services.remind_clarifications()  # the same day again: nothing new
    assert len(mail.outbox) == 2


def test_withdraw_from_review_to_revise_and_a_declined_job_can_be_revised(
    client_for, complete, a_member, staff
):
    client = client_for(a_member)
    services.submit(job=complete, user=a_member)
    page = client.get(reverse("job_detail", args=[complete.pk])).content.decode()
    assert "Withdraw from review to revise" in page
    assert client_for(staff).post(reverse("job_withdraw", args=[complete.pk])).status_code == 403
    client = client_for(a_member)
    asked = client.post(reverse("job_withdraw", args=[complete.pk]))
    assert "Withdraw" in asked.content.decode() and "confirm" in asked.content.decode()
    complete.refresh_from_db()
    assert complete.status == "in_review"  # asked first, nothing changed yet
    client.post(reverse("job_withdraw", args=[complete.pk]), {"confirm": "1"})
    complete.refresh_from_db()
    assert complete.status == JobStatus.DRAFT and complete.revisions.count() == 1
    revision = services.submit(job=complete, user=a_member)
    assert revision.number == 2
    services.review(
        revision=revision, reviewer=staff, outcome="declined", note="The API part is real-time."
    )
    complete.refresh_from_db()
    assert complete.editable  # the team reroutes the real-time part and submits the batch part
    assert services.submit(job=complete, user=a_member).number == 3


def test_every_status_move_leaves_a_history_row(complete, a_member, staff, client_for):
    """Submit, withdraw, submit again, review: each move is a row on the job page's history."""
    job = complete
    services.submit(job=job, user=a_member, acknowledge_warnings=True)
    services.withdraw(job=job, user=a_member)
    revision = services.submit(job=job, user=a_member, acknowledge_warnings=True)
    services.review(
        revision=revision,
        reviewer=staff,
        outcome="clarify",
        note="Size?",
        fields=["data.inputs.0.size"],
    )
    moves = list(
        JobStatusChange.objects.filter(job=job).values_list("from_status", "to_status", "actor")
    )
    assert moves == [
        (JobStatus.DRAFT, JobStatus.IN_REVIEW, a_member.pk),
        (JobStatus.IN_REVIEW, JobStatus.DRAFT, a_member.pk),
        (JobStatus.DRAFT, JobStatus.IN_REVIEW, a_member.pk),
        (JobStatus.IN_REVIEW, JobStatus.NEEDS_CLARIFICATION, staff.pk),
    ]
    page = client_for(a_member).get(f"/jobs/{job.pk}/").content.decode()
    assert "Status history (4)" in page and "Withdrawn from review" in page


def test_a_move_outside_the_table_is_refused_and_leaves_no_row(complete, a_member):
    job = complete
    with pytest.raises(DomainError, match="Only a description in review can be withdrawn"):
        services.withdraw(job=job, user=a_member)
    assert not JobStatusChange.objects.filter(job=job).exists()
