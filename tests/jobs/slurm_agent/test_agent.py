"""The agent against the real cluster: its own restart, the portal going away, and
repeated or reordered posts of what Slurm recorded."""

import json
import subprocess
from datetime import datetime

import pytest

from jobs.runs import dispatch as dispatch_mod
from jobs.runs.models import Cluster, Event, EventStatus, Hold, Run
from jobs.slurm_agent.derive import derive_dispatch
from jobs.slurm_agent.slurm import Slurm
from tests.jobs.slurm_agent.cluster import dispatch_of, run_state, sacct, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def dispatched(accepted_run, small_job):
    """dispatched(team, member, staff, cluster, agent, name, command="sleep 3", **options):
    a small job accepted and dispatched once the agent has reported; its run."""

    def dispatch(team, member, staff, cluster, agent, name, command="sleep 3", **options):
        run = accepted_run(team, member, staff, small_job(name, command, **options))
        wait_for(lambda: Cluster.objects.get(pk=cluster.pk).reported_at, 30, "report", agent)
        dispatch_mod.dispatch(run=run, cluster=Cluster.objects.get(pk=cluster.pk), actor=staff)
        return run

    return dispatch


def slurm_jobs_named(key):
    out = subprocess.run(["sacct", "-X", "-n", "-P", "-S", "now-1hours", "--format=JobID,JobName"],
                         capture_output=True, text=True, check=True)  # fmt: skip
    return [line for line in out.stdout.splitlines() if f"e31-{key}-" in line]


def snapshot(run):
    events = sorted(
        Event.objects.filter(run=run).values_list(
            "idempotency_key", "kind", "status", "occurred_at"
        )
    )
    holds = sorted(
        Hold.objects.filter(run=run).values_list("idempotency_key", "started_at", "ended_at")
    )
    fresh = Run.objects.get(pk=run.pk)
    return events, holds, (fresh.state, fresh.restarts)


def test_an_agent_killed_between_sbatch_and_telling_the_portal_submits_nothing_twice(
    team_a, a_member, staff, cluster, start_agent, flaky_portal, dispatched
):
    # The portal refuses only the "submitted" call: the agent sbatches the chain, cannot say
    # so, and is killed. A new agent finds the chain by its job names and carries on.
    flaky_portal.fail_paths = ("/submitted",)
    first = start_agent(cluster, url=flaky_portal.url)
    run = dispatched(team_a, a_member, staff, cluster, first, "restart-mid-submit", "sleep 4")
    key = dispatch_of(run).key
    wait_for(lambda: len(slurm_jobs_named(key)) == 3, 30, "the chain in Slurm", first)
    first.kill()
    assert dispatch_of(run).slurm_jobs == {}

    flaky_portal.fail_paths = ()
    second = start_agent(cluster)
    wait_for(lambda: run_state(run) == "released", 90, "released", second)
    assert len(slurm_jobs_named(key)) == 3  # nothing submitted twice
    assert sorted(dispatch_of(run).slurm_jobs.values()) == sorted(
        line.split("|")[0] for line in slurm_jobs_named(key)
    )


def test_an_agent_restarted_while_the_job_runs_loses_no_event(
    team_a, a_member, staff, cluster, start_agent, dispatched
):
    first = start_agent(cluster)
    run = dispatched(
        team_a, a_member, staff, cluster, first, "restart-mid-run", "sleep 8", staging=False
    )
    wait_for(lambda: run_job_running(run), 60, "the run job to start in Slurm", first)
    first.kill()
    # The job goes on in Slurm while no agent watches; the next one posts what it missed.
    wait_for(lambda: not slurm_pending_or_running(dispatch_of(run).slurm_jobs["run"]), 60,
             "the run job to end in Slurm")  # fmt: skip
    second = start_agent(cluster)
    wait_for(lambda: run_state(run) == "released", 60, "released", second)
    kinds = list(
        Event.objects.filter(run=run).order_by("occurred_at").values_list("kind", "status")
    )
    assert kinds == [(k, EventStatus.APPLIED) for k in ("rented", "running", "output", "released")]
    # Staging inside the allocation, then the run: both held, both closed.
    holds = Hold.objects.filter(run=run).order_by("started_at")
    assert [h.phase for h in holds] == ["staging", "running"] and all(h.ended_at for h in holds)


def run_job_running(run):
    """The run's own Slurm job has started (squeue says so; the portal may not know yet)."""
    record = dispatch_of(run)
    job_id = record.slurm_jobs.get("run") if record else None
    return bool(job_id) and slurm_state(job_id) == "RUNNING"


def slurm_state(job_id):
    out = subprocess.run(["squeue", "-h", "-j", job_id, "-o", "%T"], capture_output=True, text=True)
    return out.stdout.strip()


def slurm_pending_or_running(job_id):
    return slurm_state(job_id) in ("PENDING", "RUNNING", "CONFIGURING", "COMPLETING")


def test_the_agent_catches_up_after_the_portal_was_down(
    team_a, a_member, staff, cluster, start_agent, flaky_portal, dispatched
):
    agent = start_agent(cluster, url=flaky_portal.url)
    run = dispatched(
        team_a, a_member, staff, cluster, agent, "portal-down", "sleep 8", staging=False
    )
    # Down while the job runs in Slurm. Not "once the portal says running": sacct can
    # report a short job's start and end in one poll, and the portal then skips past it.
    wait_for(lambda: run_job_running(run), 60, "the run job to start in Slurm", agent)
    backoffs = agent.output().count("retrying in")
    flaky_portal.down = True
    run_job = dispatch_of(run).slurm_jobs["run"]
    wait_for(lambda: not slurm_pending_or_running(run_job), 60, "the run job to end in Slurm")
    wait_for(lambda: agent.output().count("retrying in") >= backoffs + 2, 30,
             "the agent to back off twice", agent)  # fmt: skip
    # The job's end did not reach the portal meanwhile (its start may or may not have).
    assert run_state(run) in ("submitted", "rented", "running")

    flaky_portal.down = False
    wait_for(lambda: run_state(run) == "released", 90, "released after the portal came back", agent)
    # The events carry Slurm's times, not the time the portal finally heard of them.
    [row] = sacct(run_job)
    output = Event.objects.get(run=run, kind="output")
    assert output.occurred_at == datetime.fromisoformat(row["End"] + "+00:00")
    assert (output.received_at - output.occurred_at).total_seconds() > 1


def test_repeated_and_reordered_posts_change_nothing(
    team_a, a_member, staff, cluster, start_agent, live_server, dispatched
):
    agent = start_agent(cluster)
    run = dispatched(team_a, a_member, staff, cluster, agent, "replayed", "sleep 2", staging=False)
    wait_for(lambda: dispatch_of(run).state == "finished", 90, "the dispatch to finish", agent)
    agent.stop()
    before = snapshot(run)

    # Everything Slurm recorded, derived again and posted again, newest first, twice.
    record = dispatch_of(run)
    records = Slurm().records(list(record.slurm_jobs.values()))
    listed = {"scripts": record.scripts, "slurm_jobs": record.slurm_jobs}
    posts = derive_dispatch(cluster.name, listed, records).posts
    assert len(posts) >= 5
    for post in list(reversed(posts)) * 2:
        path = "events" if post.what == "event" else "holds"
        answer = post_json(live_server.url, f"/api/v1/scheduler/jobs/{run.job_id}/{path}",
                           post.body, cluster.token)  # fmt: skip
        assert answer.get("duplicate", answer.get("outcome") == "duplicate"), answer
    assert snapshot(run) == before


def post_json(base, path, body, token):
    from urllib.request import Request, urlopen

    request = Request(base + path, data=json.dumps(body).encode(), method="POST",
                      headers={"Authorization": f"Bearer {token}",
                               "Content-Type": "application/json"})  # fmt: skip
    with urlopen(request, timeout=20) as response:
        return json.loads(response.read())
