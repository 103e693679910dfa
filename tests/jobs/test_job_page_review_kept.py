"""Staff reviewing a job: the record and the blank review form are kept (PostgreSQL) under the
digest of the revisions, reviews and history; a review, a new revision or an admin's move
shows at once, a refused review shows what the reviewer chose, and each visitor's form
carries their own CSRF token."""

import re

import pytest
from django.db import connection
from django.middleware.csrf import _unmask_cipher_token
from django.urls import reverse

from jobs import jobformat, services
from jobs.models import JobStatus
from tests.jobs.test_awaiting import _admin_post

pytestmark = pytest.mark.django_db

KEPT = connection.vendor == "postgresql"
FORM = re.compile(
    r'<form method="post" action="/jobs/\d+/revisions/(\d+)/review/"[^>]*>\s*'
    r'<input type="hidden" name="csrfmiddlewaretoken" value="([^"]+)">'
)


@pytest.fixture
def in_review(team_a, a_member):
    job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    services.submit(job=job, user=a_member)
    return job


def page(client, job):
    return client.get(reverse("job_detail", args=[job.pk])).content.decode()


def reviews_section(html):
    return html[html.index('aria-labelledby="reviews"') : html.index('id="discussion-section"')]


def test_staff_reviewing_costs_less_once_kept(
    client, client_for, in_review, staff, django_assert_num_queries
):
    viewer = client_for(staff)
    first = page(viewer, in_review)
    # Session, user, the job with its run, read mark and the kept parts' digests (one
    # statement), memberships for the menu: no revision, review or history is read.
    with django_assert_num_queries(4 if KEPT else 9):
        again = page(viewer, in_review)
    token = client.cookies["csrftoken"].value
    for html in (first, again):
        number, form_token = FORM.search(html).groups()
        assert number == "1" and _unmask_cipher_token(form_token) == token
        assert "\x00" not in html
    assert FORM.sub("", reviews_section(first)) == FORM.sub("", reviews_section(again))


def test_each_reviewer_gets_their_own_token(client, client_for, in_review, staff):
    tokens = set()
    for _ in range(2):
        client.cookies.pop("csrftoken", None)
        viewer = client_for(staff)  # a new session, a new CSRF secret
        html = page(viewer, in_review)
        secret = client.cookies["csrftoken"].value
        assert _unmask_cipher_token(FORM.search(html).group(2)) == secret
        tokens.add(secret)
    assert len(tokens) == 2


def test_a_review_and_a_new_revision_show_at_once(client_for, in_review, a_member, staff):
    viewer = client_for(staff)
    assert FORM.search(page(viewer, in_review)).group(1) == "1"
    services.review(
        revision=in_review.revisions.get(), reviewer=staff, outcome="clarify",
        note="Say *why*.", fields=["data.inputs.0.size"],
    )  # fmt: skip
    html = page(client_for(staff), in_review)
    assert not FORM.search(html) and "<strong>Clarification requested</strong> by" in html
    services.submit(job=in_review, user=a_member)
    html = page(client_for(staff), in_review)
    assert FORM.search(html).group(1) == "2" and "Staff review of revision 2" in html


def test_an_admin_move_shows_at_once(client_for, in_review, staff):
    viewer = client_for(staff)
    assert FORM.search(page(viewer, in_review))
    _admin_post(viewer, in_review, status=JobStatus.DRAFT)
    html = page(viewer, in_review)
    assert not FORM.search(html) and "Status history (2)" in html
    _admin_post(viewer, in_review, status=JobStatus.IN_REVIEW)
    html = page(viewer, in_review)
    assert FORM.search(html) and "Status history (3)" in html


def test_a_refused_review_shows_what_was_chosen_then_a_blank_form(client_for, in_review, staff):
    viewer = client_for(staff)
    page(viewer, in_review)  # the blank form kept
    url = reverse("revision_review", args=[in_review.pk, 1])
    response = viewer.post(url, {"outcome": "declined", "note": "", "fields": ["name"]})
    assert response.status_code == 400
    refused = response.content.decode()
    assert 'id="outcome-declined" checked' in refused and "Not recorded:" in refused
    blank = page(viewer, in_review)
    assert "checked" not in reviews_section(blank) and "Not recorded:" not in blank
