"""Scheduler batch ingest under load: one transaction, linear, JSON whatever happens,
one notice per state change (issue 11, item 2)."""

import json
import random
from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from jobs import jobformat, services
from jobs.runs import ingest
from jobs.runs import services as run_services
from jobs.runs.lifecycle import replay
from jobs.runs.models import Event, EventStatus, Run, RunState, SchedulerClient
from portal import bulk
from portal.models import Membership, Notice, OutboundEmail, Team, User

pytestmark = pytest.mark.django_db

BATCH = "/api/v1/scheduler/events"


@pytest.fixture
def token(db):
    return run_services.create_client(name="eu-west scheduler")[1]


def post(client, token, body, url=BATCH):
    return client.post(
        url, json.dumps(body), content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )  # fmt: skip


def cycle(job_id, n, start, prefix="e"):
    """n events for one run: rented, then running/preempted back to rented, over and over."""
    kinds = [("rented", "")] + [
        ("running", "") if i % 2 == 0 else ("preempted", "rented") for i in range(n - 1)
    ]
    return [
        {
            "job_id": job_id,
            "kind": kind,
            "requeue_to": requeue,
            "occurred_at": (start + timedelta(seconds=i)).isoformat(),
            "idempotency_key": f"{prefix}{i}",
        }
        for i, (kind, requeue) in enumerate(kinds)
    ]


def queries(client, token, events):
    with CaptureQueriesContext(connection) as captured:
        response = post(client, token, {"events": events})
    assert response.status_code == 200, response.content
    return len(captured), response.json()["results"]


def test_a_full_batch_for_one_run_is_applied_in_a_constant_number_of_queries(client, run, token):
    start = timezone.now() - timedelta(days=1)
    small, _ = queries(client, token, cycle(run.job_id, 10, start, "a"))
    later = start + timedelta(hours=1)
    # The run is running: carry on from a preemption, 498 events.
    big, results = queries(client, token, cycle(run.job_id, 500, later, "b")[2:])
    # Quadratic replay made the second batch hundreds of queries; now both are a handful.
    assert big <= small + 2, (small, big)
    assert all(r["status"] == "applied" for r in results)
    run.refresh_from_db()
    preempted = Event.objects.filter(run=run, kind="preempted").count()
    assert run.events.count() == 508 and run.restarts == preempted == 4 + 249


def test_many_runs_in_one_batch_cost_queries_per_run_not_per_event(
    client, team_a, a_member, staff, token
):
    jobs = []
    for _ in range(4):
        job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
        services.review(revision=services.submit(job=job, user=a_member), reviewer=staff,
                        outcome="accepted")  # fmt: skip
        jobs.append(job)
    start = timezone.now() - timedelta(days=1)
    few, _ = queries(client, token, [e for j in jobs for e in cycle(j.pk, 4, start, "x")])
    many, _ = queries(client, token, [e for j in jobs for e in cycle(j.pk, 100, start, "y")[4:]])
    assert many <= few + 2, (few, many)


def test_one_notice_per_state_change_not_per_event(client, run, token, a_member, a_admin):
    start = timezone.now() - timedelta(days=1)
    events = cycle(run.job_id, 302, start)  # ends running after 150 preemptions
    end = start + timedelta(seconds=400)
    events += [
        {"job_id": run.job_id, "kind": "output", "occurred_at": end.isoformat(),
         "idempotency_key": "out"},
        {"job_id": run.job_id, "kind": "released",
         "occurred_at": (end + timedelta(seconds=1)).isoformat(), "idempotency_key": "rel"},
    ]  # fmt: skip
    assert post(client, token, {"events": events}).status_code == 200
    assert Run.objects.get(pk=run.pk).state == RunState.RELEASED
    # Submitted -> released: the partner hears once that the run is done, each person once.
    assert Notice.objects.filter(user=a_member, topic="job").count() == 1
    assert Membership.objects.get(user=a_member).unread_notices == 1  # the badge agrees
    assert (
        OutboundEmail.objects.filter(to=a_member.email, dedupe_key__startswith="run:").count() == 1
    )


def test_a_fault_mid_batch_leaves_nothing_behind_and_answers_json(client, run, token):
    client.raise_request_exception = False
    start = timezone.now() - timedelta(days=1)
    events = cycle(run.job_id, 6, start)
    with mock.patch.object(ingest, "notify_state", side_effect=RuntimeError("disk on fire")):
        response = post(client, token, {"events": events})
    assert response.status_code == 500
    assert response["Content-Type"].startswith("application/json")
    assert "detail" in response.json() and "fire" not in response.content.decode()
    assert Event.objects.count() == 0 and Run.objects.get(pk=run.pk).state == "submitted"


def test_late_events_in_a_batch_are_placed_by_their_time(client, run, token):
    start = timezone.now() - timedelta(days=1)
    first = cycle(run.job_id, 3, start)  # rented, running, preempted->rented
    assert post(client, token, {"events": first}).status_code == 200
    late = [
        {"job_id": run.job_id, "kind": "cancelled", "idempotency_key": "late",
         "occurred_at": (start + timedelta(milliseconds=500)).isoformat()},
    ]  # fmt: skip
    results = post(client, token, {"events": late}).json()["results"]
    assert results[0]["status"] == "applied" and results[0]["run_state"] == "cancelled"
    statuses = dict(Event.objects.values_list("idempotency_key", "status"))
    assert statuses == {"e0": "applied", "late": "applied", "e1": "rejected", "e2": "rejected"}
    run.refresh_from_db()
    assert run.restarts == 0 and run.state == RunState.CANCELLED


@pytest.fixture(params=["arrays", "portable"])
def either_path(request, monkeypatch):
    """PostgreSQL's array parameters, and the portable IN lists SQLite is asked."""
    if request.param == "portable":
        monkeypatch.setattr(bulk, "takes_arrays", lambda connection: False)


def test_duplicates_and_conflicts_within_and_across_batches(client, run, token, either_path):
    when = (timezone.now() - timedelta(hours=1)).isoformat()
    one = {"job_id": run.job_id, "kind": "rented", "occurred_at": when, "idempotency_key": "k"}
    other = {**one, "kind": "cancelled"}
    results = post(client, token, {"events": [one, one, other]}).json()["results"]
    assert [r.get("duplicate") for r in results[:2]] == [False, True]
    assert "different" in results[2]["error"] and results[2]["conflict"] is True
    assert Event.objects.count() == 1
    single = f"/api/v1/scheduler/jobs/{run.job_id}/events"
    body = {k: v for k, v in other.items() if k != "job_id"}
    response = post(client, token, body, url=single)
    assert response.status_code == 409 and "different body" in response.json()["detail"]


def test_a_key_is_known_in_its_own_run_only(client, team_a, a_member, staff, token, either_path):
    # Keys are unique per run: a key one run has stored is new to another, both in the same
    # batch as a replay for the first and a first sending for the second.
    first, second = accepted_jobs(team_a, a_member, staff, 2)
    when = (timezone.now() - timedelta(hours=1)).isoformat()
    rented = {"kind": "rented", "occurred_at": when, "idempotency_key": "k"}
    assert post(client, token, {"events": [{**rented, "job_id": first.pk}]}).status_code == 200
    cancelled = {**rented, "kind": "cancelled"}
    events = [{**rented, "job_id": first.pk}, {**cancelled, "job_id": second.pk}]
    results = post(client, token, {"events": events}).json()["results"]
    assert [r.get("duplicate") for r in results] == [True, False]
    assert not any(r.get("error") for r in results)
    kinds = Event.objects.order_by("run__job_id").values_list("run__job_id", "kind")
    assert list(kinds) == [(first.pk, "rented"), (second.pk, "cancelled")]


def test_the_incremental_path_agrees_with_a_full_replay(run, either_path):
    """Property: whatever order events arrive in, the stored verdicts equal a replay."""
    rng = random.Random(11)
    start = timezone.now() - timedelta(days=2)
    kinds = ["rented", "running", "preempted", "output", "released", "failed", "cancelled"]
    for i in range(120):
        run_services.record_event(
            run=run, kind=rng.choice(kinds), idempotency_key=f"p{i}",
            occurred_at=start + timedelta(minutes=rng.randrange(300)),
            requeue_to=rng.choice(["", "rented"]),
        )  # fmt: skip
    events = list(Event.objects.filter(run=run))
    stored = {e.pk: (e.status, e.from_state, e.to_state) for e in events}
    result = replay(run, events)
    assert stored == {e.pk: (e.status, e.from_state, e.to_state) for e in events}
    run.refresh_from_db()
    assert (run.state, run.restarts, run.state_since) == (
        result.state,
        result.restarts,
        result.state_since,
    )
    assert EventStatus.REJECTED in {s for s, _, _ in stored.values()}


def test_batches_of_many_runs_late_and_out_of_order_agree_with_a_full_replay(
    client, token, team_a, a_member, staff, either_path
):
    """Property: each run is replayed from its own earliest new event, whatever the other
    runs in the batch sent (a run read back from another's time would keep stale verdicts)."""
    rng = random.Random(15)
    jobs = accepted_jobs(team_a, a_member, staff, 3)
    start = timezone.now() - timedelta(days=2)
    kinds = ["rented", "running", "preempted", "output", "released", "failed", "cancelled"]
    for b in range(12):
        events = [
            {"job_id": rng.choice(jobs).pk, "kind": rng.choice(kinds),
             "requeue_to": rng.choice(["", "rented"]), "idempotency_key": f"b{b}-{i}",
             "occurred_at": (start + timedelta(minutes=rng.randrange(300))).isoformat()}
            for i in range(rng.randrange(1, 8))
        ]  # fmt: skip
        assert post(client, token, {"events": events}).status_code == 200
    for run in Run.objects.filter(job__in=jobs):
        events = list(Event.objects.filter(run=run))
        stored = {e.pk: (e.status, e.from_state, e.to_state) for e in events}
        result = replay(run, events)
        assert stored == {e.pk: (e.status, e.from_state, e.to_state) for e in events}
        assert (run.state, run.restarts, run.state_since) == (
            result.state,
            result.restarts,
            result.state_since,
        )


def accepted_jobs(team, member, staff, n):
    jobs = []
    for _ in range(n):
        job = services.create_draft(team=team, user=member, data=jobformat.example_data())
        services.review(revision=services.submit(job=job, user=member), reviewer=staff,
                        outcome="accepted")  # fmt: skip
        jobs.append(job)
    return jobs


def run_emails():
    return OutboundEmail.objects.filter(dedupe_key__startswith="run:").order_by("pk")


# The scheduler client, the savepoint and its release, the runs locked, their events by
# key and from the earliest new one, the new events in one statement, the runs' states,
# the jobs' activity, the teams' people, their notices in one statement and their badges,
# the e-mails in one statement (duplicates skipped by the database). Not one more for
# more runs, more teams or more events.
BATCH_QUERIES = 13


@pytest.mark.parametrize(("teams", "runs", "each"), [(1, 1, 40), (1, 8, 6), (3, 6, 6)])
def test_a_batch_costs_the_same_queries_for_one_run_or_many_of_many_teams(
    client, token, staff, teams, runs, each, django_assert_num_queries, make_user
):
    jobs = []
    for t in range(teams):
        team = Team.objects.create(name=f"T{t}", slug=f"t{t}", organisation="O")
        people = [make_user(f"p{i}@t{t}.example", team=team) for i in range(2)]
        jobs += accepted_jobs(team, people[0], staff, runs // teams)
    start = timezone.now() - timedelta(days=1)
    events = [e for j in jobs for e in cycle(j.pk, each, start, f"r{j.pk}-")]
    SchedulerClient.objects.update(last_used_at=timezone.now())  # noted a moment ago
    with django_assert_num_queries(BATCH_QUERIES):
        response = post(client, token, {"events": events})
    assert {r["run_state"] for r in response.json()["results"]} == {"running"}
    # Each run changed state: each of its team's two people heard once per run.
    assert Notice.objects.filter(topic="job").count() == 2 * runs
    assert run_emails().count() == 2 * runs
    assert set(Membership.objects.values_list("unread_notices", flat=True)) == {runs // teams}


def test_the_clients_last_use_is_noted_once_a_minute(client, token, run):
    start = timezone.now() - timedelta(days=1)
    post(client, token, {"events": cycle(run.job_id, 1, start, "a")})
    noted = SchedulerClient.objects.get().last_used_at
    assert noted is not None
    with CaptureQueriesContext(connection) as captured:
        post(client, token, {"events": cycle(run.job_id, 1, start, "b")})
    assert not [q for q in captured if "jobs_schedulerclient" in q["sql"] and "UPDATE" in q["sql"]]
    assert SchedulerClient.objects.get().last_used_at == noted
    SchedulerClient.objects.update(last_used_at=noted - timedelta(minutes=2))
    post(client, token, {"events": cycle(run.job_id, 1, start, "c")})
    assert SchedulerClient.objects.get().last_used_at > noted


def test_a_replayed_batch_tells_nobody_twice(
    client, token, run, a_member, a_admin, django_capture_on_commit_callbacks
):
    events = cycle(run.job_id, 5, timezone.now() - timedelta(days=1))
    with django_capture_on_commit_callbacks() as first:
        assert post(client, token, {"events": events}).status_code == 200
    emails = list(run_emails().values_list("pk", "to", "dedupe_key"))
    assert sorted(to for _, to, _ in emails) == sorted([a_member.email, a_admin.email])
    with django_capture_on_commit_callbacks() as again:
        results = post(client, token, {"events": events}).json()["results"]
    assert all(r["duplicate"] for r in results)
    assert list(run_emails().values_list("pk", "to", "dedupe_key")) == emails
    assert Notice.objects.count() == 2
    # One delivery enqueued for the batch, none for the replay, which changed nothing.
    assert len(first) == 1 and again == []


def test_only_the_runs_team_is_told(client, token, run, a_member, a_admin, b_member, staff):
    gone = User.objects.create_user("gone@a.example", "x", is_active=False)
    Membership.objects.create(team=run.job.team, user=gone)
    events = cycle(run.job_id, 2, timezone.now() - timedelta(days=1))  # rented, running
    assert post(client, token, {"events": events}).status_code == 200
    told = {a_member.email, a_admin.email}
    assert set(Notice.objects.values_list("user__email", flat=True)) == told
    assert set(run_emails().values_list("to", flat=True)) == told
    assert Membership.objects.get(user=a_admin).unread_notices == 1
    assert Membership.objects.get(user=b_member).unread_notices == 0
