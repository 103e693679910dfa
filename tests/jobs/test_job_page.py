"""The job page and the jobs list read their rows in a fixed number of queries, whatever the
data; every write shows on the next visit, each role sees its own page, and each visitor's
forms carry their own CSRF token."""

import re
from datetime import timedelta

import pytest
from django.http import Http404
from django.middleware.csrf import _unmask_cipher_token
from django.urls import reverse
from django.utils import timezone

from jobs import jobformat, selectors, services
from jobs.models import JobStatus, ReadMark, Review
from jobs.runs import services as run_services
from jobs.runs import simulator
from jobs.runs.models import Phase
from portal.models import Membership, Role
from tests.admin_forms import admin_post_job

pytestmark = pytest.mark.django_db

REVIEW_FORM = re.compile(
    r'<form method="post" action="/jobs/\d+/revisions/(\d+)/review/"[^>]*>\s*'
    r'<input type="hidden" name="csrfmiddlewaretoken" value="([^"]+)">'
)


def page(client, job):
    return client.get(reverse("job_detail", args=[job.pk])).content.decode()


def reviews_section(html):
    return html[html.index('aria-labelledby="reviews"') : html.index('id="discussion-section"')]


@pytest.fixture
def complete(team_a, a_member):
    return services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())


@pytest.fixture
def in_review(complete, a_member):
    services.submit(job=complete, user=a_member)
    return complete


@pytest.fixture
def finished(run):
    simulator.play_now(run)
    run.refresh_from_db()
    assert run.is_final
    return run


# --- What a visit costs -------------------------------------------------------------------


def test_a_finished_runs_page_reads_a_fixed_number_of_queries(
    client_for, finished, a_member, staff, django_assert_num_queries
):
    client = client_for(a_member)
    page(client, finished.job)
    # Session, user, memberships, the job with its run and read mark, the comments, the
    # run's events (with their senders) and holds, the revisions joined to their reviews
    # and reviewers, the history: the same however many of each there are.
    with django_assert_num_queries(9):
        page(client, finished.job)
    for i in range(3):
        services.add_comment(job=finished.job, author=staff, body=f"comment {i}")
        run_services.record_event(
            run=finished, kind="running", occurred_at=timezone.now(), idempotency_key=f"e{i}"
        )
    page(client, finished.job)  # marks the comments read
    with django_assert_num_queries(9):
        page(client, finished.job)


def test_staff_reviewing_reads_a_fixed_number_of_queries(
    client_for, in_review, staff, django_assert_num_queries
):
    viewer = client_for(staff)
    page(viewer, in_review)
    # Session, user, the job with its run and read mark, memberships, the comments, the
    # revisions joined to their reviews and reviewers, the history, the revision under
    # review (the fields the form may name), the review form's rows.
    with django_assert_num_queries(8):
        page(viewer, in_review)


def test_the_jobs_list_reads_a_fixed_number_of_queries(
    client_for, team_a, team_b, a_member, b_member, staff, django_assert_num_queries
):
    Membership.objects.create(team=team_b, user=a_member, role=Role.MEMBER)
    jobs = [
        services.create_draft(team=team, user=user, data=jobformat.example_data())
        for team, user in [(team_a, a_member)] * 6 + [(team_b, b_member)] * 4
    ]
    services.add_comment(job=jobs[0], author=staff, body="a question")
    client = client_for(a_member)
    client.get("/jobs/")
    with django_assert_num_queries(5):
        listed = client.get("/jobs/").content.decode()
    assert listed.count("<tr>") == 1 + 10  # the header and both teams' jobs


def test_a_partner_of_no_team_sees_no_job(client_for, complete, make_user):
    loner = make_user("loner@example.org")
    listed = client_for(loner).get("/jobs/").content.decode()
    assert complete.name not in listed


# --- Who sees it --------------------------------------------------------------------------


def test_another_teams_job_is_not_found_staff_see_every_team(run, a_member, b_member, staff):
    with pytest.raises(Http404):
        selectors.get_job_for_page(b_member, run.job_id)
    with pytest.raises(Http404):
        selectors.get_job_for_page(a_member, run.job_id + 1000)
    assert selectors.get_job_for_page(staff, run.job_id).pk == run.job_id


def test_another_teams_job_page_is_404(client_for, run, b_member):
    assert client_for(b_member).get(reverse("job_detail", args=[run.job_id])).status_code == 404


def test_the_read_mark_is_read_with_the_job(run, a_member, staff, client_for):
    assert selectors.get_job_for_page(a_member, run.job_id).read_up_to_date is False
    client_for(a_member).get(reverse("job_detail", args=[run.job_id]))  # marks it read
    assert selectors.get_job_for_page(a_member, run.job_id).read_up_to_date is True
    services.add_comment(job=run.job, author=staff, body="new")
    assert ReadMark.objects.get(job=run.job, user=a_member).unread == 1
    assert selectors.get_job_for_page(a_member, run.job_id).read_up_to_date is False


def test_each_role_sees_its_own_run_section(client_for, finished, a_member, staff):
    start = timezone.now() - timedelta(hours=60)
    run_services.record_hold(
        run=finished, accelerator_type="L40S", count=32, phase=Phase.RUNNING,
        started_at=start, ended_at=start + timedelta(hours=50), idempotency_key="far",
    )  # fmt: skip
    offer = "kind=accounting_mismatch"  # partners are offered to file a finding; staff are not
    assert offer in page(client_for(a_member), finished.job)
    assert offer not in page(client_for(staff), finished.job)
    assert offer in page(client_for(a_member), finished.job)


# --- Writes show on the next visit --------------------------------------------------------


def test_a_late_event_shows_at_once(client_for, finished, a_member):
    client = client_for(a_member)
    assert "rejected" not in page(client, finished.job)
    run_services.record_event(
        run=finished, kind="running", occurred_at=timezone.now(), idempotency_key="late"
    )
    assert "<strong>rejected</strong>" in page(client, finished.job)


def held_in_all(html):
    held = re.search(r"Held in all</th><td><strong>([\d.,]+) h</strong>", html).group(1)
    return held.replace(",", "")  # thousands are written 1,600.0


def test_a_new_hold_shows_at_once(client_for, finished, a_member):
    client = client_for(a_member)
    before = held_in_all(page(client, finished.job))
    start = timezone.now() - timedelta(hours=60)
    run_services.record_hold(
        run=finished, accelerator_type="L40S", count=32, phase=Phase.RUNNING,
        started_at=start, ended_at=start + timedelta(hours=50), idempotency_key="big",
    )  # fmt: skip
    assert float(held_in_all(page(client, finished.job))) == float(before) + 1600


def test_a_renamed_reviewer_shows_at_once(client_for, finished, a_member, staff):
    client = client_for(a_member)
    assert "Renamed Reviewer" not in page(client, finished.job)
    staff.full_name = "Renamed Reviewer"
    staff.save(update_fields=["full_name"])
    assert "<strong>Accepted</strong> by Renamed Reviewer on" in page(client, finished.job)


def test_a_review_and_a_status_change_show_at_once(client_for, complete, a_member, staff):
    client = client_for(a_member)
    revision = services.submit(job=complete, user=a_member)
    first = page(client, complete)
    assert "Revision 1" in first and "Clarification requested" not in first
    services.review(
        revision=revision, reviewer=staff, outcome="clarify", note="Say *why*.",
        fields=["data.inputs.0.size"],
    )  # fmt: skip
    second = page(client, complete)
    assert "<strong>Clarification requested</strong> by" in second and "<em>why</em>" in second
    assert "Status history (2)" in second
    services.submit(job=complete, user=a_member)
    third = page(client, complete)
    assert "Revision 2" in third and "Status history (3)" in third
    assert f"/jobs/{complete.pk}/revisions/2/" in third  # "Read the description" is the latest


# --- Staff reviewing ----------------------------------------------------------------------


def test_the_review_form_carries_the_visitors_token(client, client_for, in_review, staff):
    viewer = client_for(staff)
    first, again = page(viewer, in_review), page(viewer, in_review)
    token = client.cookies["csrftoken"].value
    for html in (first, again):
        number, form_token = REVIEW_FORM.search(html).groups()
        assert number == "1" and _unmask_cipher_token(form_token) == token
    assert REVIEW_FORM.sub("", reviews_section(first)) == REVIEW_FORM.sub(
        "", reviews_section(again)
    )


def test_each_reviewer_gets_their_own_token(client, client_for, in_review, staff):
    tokens = set()
    for _ in range(2):
        client.cookies.pop("csrftoken", None)
        viewer = client_for(staff)  # a new session, a new CSRF secret
        html = page(viewer, in_review)
        secret = client.cookies["csrftoken"].value
        assert _unmask_cipher_token(REVIEW_FORM.search(html).group(2)) == secret
        tokens.add(secret)
    assert len(tokens) == 2


def test_a_review_and_a_new_revision_show_at_once(client_for, in_review, a_member, staff):
    viewer = client_for(staff)
    assert REVIEW_FORM.search(page(viewer, in_review)).group(1) == "1"
    services.review(
        revision=in_review.revisions.get(), reviewer=staff, outcome="clarify",
        note="Say *why*.", fields=["data.inputs.0.size"],
    )  # fmt: skip
    html = page(viewer, in_review)
    assert not REVIEW_FORM.search(html) and "<strong>Clarification requested</strong> by" in html
    services.submit(job=in_review, user=a_member)
    html = page(viewer, in_review)
    assert REVIEW_FORM.search(html).group(1) == "2" and "Staff review of revision 2" in html


def test_an_admin_move_shows_at_once(client_for, in_review, staff):
    viewer = client_for(staff)
    assert REVIEW_FORM.search(page(viewer, in_review))
    admin_post_job(viewer, in_review, status=JobStatus.DRAFT)
    html = page(viewer, in_review)
    assert not REVIEW_FORM.search(html) and "Status history (2)" in html
    admin_post_job(viewer, in_review, status=JobStatus.IN_REVIEW)
    html = page(viewer, in_review)
    assert REVIEW_FORM.search(html) and "Status history (3)" in html


def test_a_refused_review_shows_what_was_chosen_then_a_blank_form(client_for, in_review, staff):
    viewer = client_for(staff)
    page(viewer, in_review)
    url = reverse("revision_review", args=[in_review.pk, 1])
    response = viewer.post(url, {"outcome": "declined", "note": "", "fields": ["name"]})
    assert response.status_code == 400
    refused = response.content.decode()
    assert 'id="outcome-declined" checked' in refused and "Not recorded:" in refused
    blank = page(viewer, in_review)
    assert "checked" not in reviews_section(blank) and "Not recorded:" not in blank


def test_the_revisions_list_each_review_under_its_revision_newest_first(
    in_review, a_member, staff, make_user
):
    revision = in_review.revisions.get()
    first = Review.objects.create(revision=revision, outcome="clarify", reviewer=staff)
    gone = make_user("gone@e31.example", staff=True)
    Review.objects.create(
        revision=revision,
        outcome="accepted",
        reviewer=gone,
        created_at=first.created_at + timedelta(minutes=1),
        fields=["request.estimate"],
    )
    gone.delete()
    a_member.full_name = ""
    a_member.save(update_fields=["full_name"])

    (listed,) = selectors.revisions_with_reviews(in_review)

    assert (listed["number"], listed["submitted_by"]) == (1, a_member.email)
    assert [(r["outcome_label"], r["reviewer"], r["fields"]) for r in listed["reviews"]] == [
        ("Accepted", None, ["request.estimate"]),
        ("Clarification requested", str(staff), []),
    ]


def test_a_revision_with_no_review_is_listed_with_none(complete, a_member):
    services.submit(job=complete, user=a_member)
    assert selectors.revisions_with_reviews(complete)[0]["reviews"] == []


def test_a_review_by_a_deleted_account_names_nobody(client_for, in_review, a_member, make_user):
    gone = make_user("gone@e31.example", staff=True)
    Review.objects.create(revision=in_review.revisions.get(), outcome="clarify", reviewer=gone)
    gone.delete()
    html = page(client_for(a_member), in_review)
    assert "<strong>Clarification requested</strong> by — on" in html
    assert "None" not in html
