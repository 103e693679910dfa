"""The job page keeps a finished run's section and the revisions' record rendered (PostgreSQL)
until a row they show changes: every write shows at once, and no role sees another's."""

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from jobs import jobformat, services
from jobs.runs import services as run_services
from jobs.runs import simulator
from jobs.runs.models import Phase

pytestmark = pytest.mark.django_db

KEPT = connection.vendor == "postgresql"  # elsewhere nothing is kept: the same page each time


def page(client, job):
    return client.get(reverse("job_detail", args=[job.pk])).content.decode()


@pytest.fixture
def complete(team_a, a_member):
    return services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())


@pytest.fixture
def finished(run):
    simulator.play_now(run)
    run.refresh_from_db()
    assert run.is_final
    return run


def test_a_finished_run_costs_less_once_kept(
    client_for, finished, a_member, django_assert_num_queries
):
    client = client_for(a_member)
    page(client, finished.job)
    # Session, user, memberships, the job with its run, read mark and the kept parts'
    # digests (one statement); the comments, the run's events and holds, the revisions and
    # reviews, the history are not read.
    with django_assert_num_queries(4 if KEPT else 11):
        page(client, finished.job)


def test_a_late_event_shows_at_once(client_for, finished, a_member):
    client = client_for(a_member)
    assert "rejected" not in page(client, finished.job)
    run_services.record_event(
        run=finished, kind="running", occurred_at=timezone.now(), idempotency_key="late"
    )
    assert "<strong>rejected</strong>" in page(client, finished.job)


def held_in_all(html):
    held = re.search(r"Held in all</th><td><strong>([\d.,]+)</strong>", html).group(1)
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


def test_a_renamed_reviewer_shows_at_once(client_for, finished, a_member, staff):
    client = client_for(a_member)
    assert "Renamed Reviewer" not in page(client, finished.job)
    staff.full_name = "Renamed Reviewer"
    staff.save(update_fields=["full_name"])
    # The review's line (the last activity names the person too, outside what is kept).
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
