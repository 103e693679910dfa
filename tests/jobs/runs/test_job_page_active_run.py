"""An active run's section: what the scheduler posts shows at once, the next second shows the
clock moved, and the cancel form carries each visitor's own CSRF token."""

import json
import re
from datetime import timedelta

import pytest
from django.middleware.csrf import _unmask_cipher_token
from django.urls import reverse
from django.utils import timezone

from jobs.runs import dispatch as dispatch_mod
from jobs.runs import services as run_services
from jobs.runs.presenters import page_clock

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch):
    """The page's clock, stopped at a second the test moves on by hand."""
    now = {"at": page_clock()}
    monkeypatch.setattr("jobs.presenters.page_clock", lambda: now["at"])
    return now


@pytest.fixture
def running(run):
    started = page_clock() - timedelta(hours=2)
    for kind, minutes in (("rented", 0), ("running", 10)):
        run_services.record_event(
            run=run, kind=kind, occurred_at=started + timedelta(minutes=minutes),
            idempotency_key=kind,
        )  # fmt: skip
    run.refresh_from_db()
    assert not run.is_final
    return run


@pytest.fixture
def cluster(db):
    cluster, _ = dispatch_mod.create_cluster(
        name="local", partition="e31", accelerator_map={"H100-80GB": "gpu:h100"}
    )
    dispatch_mod.report_partition(cluster=cluster, nodes=1, cpus_per_node=16,
                                  memory_per_node_mb=16000, tmp_disk_per_node_mb=100000,
                                  gres_per_node={"gpu:h100": 8}, max_time_seconds=7200)  # fmt: skip
    cluster.refresh_from_db()
    return cluster


@pytest.fixture
def token(db):
    return run_services.create_client(name="eu-west scheduler")[1]


def page(client, job):
    return client.get(reverse("job_detail", args=[job.pk])).content.decode()


def run_section(html):
    return html[html.index('id="run-section"') : html.index('aria-labelledby="reviews"')]


def post(client, token, url, body):
    headers = {"Authorization": f"Bearer {token}"}
    response = client.post(url, json.dumps(body), content_type="application/json", headers=headers)
    assert response.status_code == 200, response.content
    return response


def test_an_active_run_shows_the_clock_moved_on(
    client_for, running, a_member, clock, django_assert_num_queries
):
    client = client_for(a_member)
    clock["at"] = running.events.get(kind="running").occurred_at + timedelta(minutes=110)
    first = run_section(page(client, running.job))
    clock["at"] = running.events.get(kind="running").occurred_at + timedelta(minutes=115)
    # Session, user, memberships, the job with its run and read mark, the comments, the
    # events with their senders, the holds, the revisions joined to their reviews, the history.
    with django_assert_num_queries(9):
        later = page(client, running.job)
    assert "Running: 1h 50min</li>" in first and "Running: 1h 55min</li>" in later


def test_what_the_scheduler_posts_shows_at_once(
    client, client_for, running, a_member, token, clock
):
    viewer = client_for(a_member)
    assert "Requeued" not in page(viewer, running.job)
    when = (timezone.now() - timedelta(minutes=30)).isoformat()
    event = {
        "kind": "preempted",
        "occurred_at": when,
        "idempotency_key": "p",
        "requeue_to": "rented",
    }
    post(client, token, f"/api/v1/scheduler/jobs/{running.job_id}/events", event)
    viewer = client_for(a_member)  # the API call used the test client too
    html = page(viewer, running.job)
    assert "Preempted" in html and "(restart)" in html
    hold = {"accelerator_type": "L40S", "count": 32, "phase": "running", "idempotency_key": "h",
            "started_at": (timezone.now() - timedelta(hours=1)).isoformat()}  # fmt: skip
    before = held_in_all(html)
    post(client, token, f"/api/v1/scheduler/jobs/{running.job_id}/holds", hold)
    html = page(client_for(a_member), running.job)
    assert held_in_all(html) > before and "(open)" in html


def held_in_all(html):
    """The ledger's total in hours: "12.5 h", or minutes and seconds below an hour."""
    value, unit = re.search(
        r"Held (?:in all|so far)</th><td><strong>([\d.,]+) (h|min|s)</strong>", html
    ).groups()
    return float(value.replace(",", "")) / {"h": 1, "min": 60, "s": 3600}[unit]


def test_the_cancel_form_carries_each_visitors_token(
    client,
    client_for,
    team_a,
    a_member,
    staff,
    cluster,
    clock,
    accepted_run,
    small_job,  # noqa: F811
):
    run = accepted_run(team_a, a_member, staff, small_job("cancel-me"))
    dispatch_mod.dispatch(run=run, cluster=cluster, actor=staff)
    for _ in range(2):  # a new session, a new token each time
        viewer = client_for(a_member)
        client.cookies.pop("csrftoken", None)
        html = page(viewer, run.job)
        form = re.search(r'action="/jobs/\d+/run/cancel/"[^>]*><input type="hidden" '
                         r'name="csrfmiddlewaretoken" value="([^"]+)"', html)  # fmt: skip
        assert form and "\x00" not in html
        assert _unmask_cipher_token(form.group(1)) == client.cookies["csrftoken"].value


def test_staffs_moves_follow_the_run_at_once(
    client_for, run, staff, cluster, clock, django_assert_num_queries
):
    viewer = client_for(staff)
    assert "Dispatch to the cluster" in page(viewer, run.job)
    # The staff's box below the section lists the clusters to dispatch it to.
    with django_assert_num_queries(10):
        assert "Dispatch to the cluster" in page(viewer, run.job)
    run_services.record_event(
        run=run, kind="rented", occurred_at=timezone.now(), idempotency_key="r"
    )
    html = page(viewer, run.job)
    assert "Dispatch to the cluster" not in html and "register a cluster" not in html
    assert '<option value="running">' in html and "Rented (resources held" in html


def test_a_run_no_engine_touched_reads_the_clusters_for_staff_alone(
    client_for, run, cluster, a_member, staff, django_assert_num_queries
):
    # Submitted, no event yet: staff may dispatch it (the clusters are read for their box);
    # the team's page has no such box, so it does not read them.
    partner = client_for(a_member)
    page(partner, run.job)  # marks it read
    # Session, user, memberships, the job with its run and read mark, the comments, the
    # events with their senders, the holds, the revisions joined to their reviews, the history.
    with django_assert_num_queries(9):
        html = page(partner, run.job)
    assert "Queued: no event yet." in html and "Dispatch to the cluster" not in html
    viewer = client_for(staff)
    page(viewer, run.job)
    # The same, and the clusters to dispatch it to.
    with django_assert_num_queries(10):
        html = page(viewer, run.job)
    assert f'<option value="{cluster.pk}">local (partition e31)</option>' in html
    assert "Dispatch to the cluster" in html
    # The panel the page polls holds no staff box: no cluster is read for it, for anyone.
    # Session, user, memberships, the job, its run with its dispatch, the events, the holds.
    for viewer in (client_for(staff), client_for(a_member)):
        with django_assert_num_queries(7):
            panel = viewer.get(reverse("run_panel", args=[run.job_id])).content.decode()
    assert "Queued: no event yet." in panel
