"""Jobs across the nodes of the real cluster (.ci/slurm-up: four slurmd, each in its own network
and hostname namespace): gangs run with srun on every node, a node lost under a running gang, a
preemptible job requeued for an urgent one, and an elastic job granted fewer nodes than it asked.
Each goes through the portal's dispatch and the agent, and is checked against sacct."""

import subprocess

import pytest
from django.urls import reverse

from jobs.runs import dispatch as dispatch_mod
from jobs.runs import ledger
from jobs.runs.models import Cluster, Event, EventStatus, Hold, Run
from portal.models import Notice
from tests.jobs.slurm_agent.cluster import (
    dispatch_of,
    hostnames,
    needs_nodes,
    run_state,
    sacct,
    scontrol,
    squeue_state,
    wait_for,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("whole_cluster")]

# Each node of the allocation writes its own name into the dispatch's folder (shared).
EACH_NODE = "srun bash -c 'hostname > host-$SLURM_NODEID.txt'; sleep 2"
FIELDS = "JobIDRaw,State,Start,End,ElapsedRaw,NodeList,NNodes,AllocTRES"


def kinds(run):
    return list(
        Event.objects.filter(run=run, status=EventStatus.APPLIED)
        .order_by("occurred_at", "pk")
        .values_list("kind", flat=True)
    )


def gpus(row):
    tres = dict(item.split("=", 1) for item in row["AllocTRES"].split(","))
    return int(tres.get("gres/gpu", 0))


def held_seconds(holds):
    """Accelerator-seconds of these holds: count × span, each."""
    return sum(h.count * (h.ended_at - h.started_at).total_seconds() for h in holds)


def slurm_seconds(rows):
    """Slurm's own: each attempt's GPUs on all its nodes × its elapsed time."""
    return sum(gpus(row) * int(row["ElapsedRaw"]) for row in rows)


def without_copies(cluster):
    """No stand-in copies: the run job is the command alone (short jobs)."""
    cluster.stage_command = cluster.deliver_command = "true"
    cluster.save(update_fields=["stage_command", "deliver_command"])
    return cluster


@pytest.fixture
def quick(cluster):
    return without_copies(cluster)


def dispatched(run, cluster, staff, agent):
    wait_for(lambda: Cluster.objects.get(pk=cluster.pk).reported_at, 30, "report", agent)
    dispatch_mod.dispatch(run=run, cluster=Cluster.objects.get(pk=cluster.pk), actor=staff)
    return run


def run_job(run, cancel_afterwards):
    """The run's Slurm job id, once the agent has submitted the chain; the whole chain is
    cancelled when the test ends."""
    jobs = wait_for(lambda: (dispatch_of(run).slurm_jobs or {}).get("run") and
                    dispatch_of(run).slurm_jobs, 60, "the run's job id")  # fmt: skip
    cancel_afterwards.extend(jobs.values())
    return jobs["run"]


@pytest.mark.parametrize("nodes", [2, 4])
def test_a_gang_runs_on_every_node_and_is_held_per_node(
    nodes, team_a, a_member, staff, quick, start_agent, accepted_run, small_job, tmp_path,
    cancel_afterwards, client_for,
):  # fmt: skip
    needs_nodes(nodes)
    data = small_job(f"gang-{nodes}", EACH_NODE, staging=False, nodes=nodes)
    run = accepted_run(team_a, a_member, staff, data)
    agent = start_agent(quick)
    dispatched(run, quick, staff, agent)
    run_job(run, cancel_afterwards)

    wait_for(lambda: run_state(run) == "released", 120, "released", agent)
    record = dispatch_of(run)
    [row] = sacct(record.slurm_jobs["run"], FIELDS)
    allocated = hostnames(row["NodeList"])
    assert row["State"] == "COMPLETED" and int(row["NNodes"]) == nodes == len(allocated), row
    # srun started one task on each node, each in its own hostname namespace.
    folder = tmp_path / "agent" / record.key
    written = sorted(p.read_text().strip() for p in folder.glob("host-*.txt"))
    assert written == sorted(allocated)

    # Two GPUs on each node: the hold is Slurm's whole allocation, for Slurm's elapsed time.
    assert gpus(row) == 2 * nodes
    holds = list(Hold.objects.filter(run=run))
    assert all(h.measured and h.count == 2 * nodes for h in holds)
    assert abs(held_seconds(holds) - slurm_seconds([row])) <= 2 * nodes
    figures = ledger.compute(Run.objects.get(pk=run.pk))
    assert abs(figures.held - slurm_seconds([row]) / 3600) < 2 * nodes / 3600
    running = Event.objects.get(run=run, kind="running")
    assert running.observed["nodes_granted"] == nodes and row["NodeList"] in running.note
    page = client_for(a_member).get(reverse("job_detail", args=[run.job_id])).content.decode()
    assert f"Granted the {nodes} nodes asked for." in page


@pytest.mark.parametrize("requeue", [False, True], ids=["ends", "requeued"])
def test_a_node_lost_under_a_running_gang(
    requeue, team_a, a_member, staff, quick, start_agent, accepted_run, small_job,
    lose_node, cancel_afterwards,
):  # fmt: skip
    needs_nodes(3)  # two for the gang, and one left to run it again
    # The first attempt runs until the node is lost; a second one (with --requeue) ends at once.
    command = "if [ -e lost-once ]; then srun hostname; else touch lost-once; srun sleep 120; fi"
    data = small_job(f"node-lost-{requeue}", command, staging=False, nodes=2, preemptible=requeue)
    run = accepted_run(team_a, a_member, staff, data)
    agent = start_agent(quick)
    dispatched(run, quick, staff, agent)
    job = run_job(run, cancel_afterwards)
    wait_for(lambda: run_state(run) == "running", 60, "running", agent)
    [first] = sacct(job, FIELDS)
    lost = hostnames(first["NodeList"])[-1]  # the gang's last node: others' jobs fill the first

    lose_node(lost)
    if not requeue:
        wait_for(lambda: run_state(run) == "failed", 90, "failed", agent)
        [row] = sacct(job, FIELDS)
        assert row["State"] == "NODE_FAIL"
        fresh = Run.objects.get(pk=run.pk)
        assert fresh.failure_reason == "node_failure" and fresh.restarts == 0
        assert kinds(run) == ["rented", "running", "failed"]
        failed = Event.objects.get(run=run, kind="failed")
        assert "NODE_FAIL" in failed.note and row["NodeList"] in failed.note
        # The hours held up to the loss are kept, as Slurm counted them.
        wait_for(lambda: not Hold.objects.filter(run=run, ended_at__isnull=True).exists(), 30,
                 "the holds to close", agent)  # fmt: skip
        assert abs(held_seconds(Hold.objects.filter(run=run)) - slurm_seconds([row])) <= 4
        assert Notice.objects.filter(
            user=a_member, message=f"{run.job} stopped: a node it ran on failed."
        ).exists()
        return

    # Requeued by Slurm (held back as after any requeue: a few seconds are enough here).
    wait_for(lambda: squeue_state(job) == "PENDING", 30, "the requeued job to be pending")
    scontrol("update", f"JobId={job}", "StartTime=now+2")
    wait_for(lambda: run_state(run) == "released", 90, "released after the node was lost", agent)
    attempts = sacct(job, FIELDS)
    assert [a["State"] for a in attempts] == ["NODE_FAIL", "COMPLETED"]
    assert lost not in hostnames(attempts[1]["NodeList"])  # the other nodes
    assert Run.objects.get(pk=run.pk).restarts == 1
    assert kinds(run) == ["rented", "running", "preempted", "rented", "running", "output",
                          "released"]  # fmt: skip
    assert "NODE_FAIL" in Event.objects.get(run=run, kind="preempted").note
    assert abs(held_seconds(Hold.objects.filter(run=run)) - slurm_seconds(attempts)) <= 8


def test_a_preemptible_run_is_requeued_for_an_urgent_one(
    team_a, a_member, staff, quick, low_cluster, start_agent, accepted_run, small_job,
    cancel_afterwards,
):  # fmt: skip
    needs_nodes(2)
    without_copies(low_cluster)
    # The preemptible run holds all eight GPUs of a node; the urgent one wants one on every
    # node, so it can only start by taking that node's.
    command = "if [ -e preempted-once ]; then sleep 1; else touch preempted-once; sleep 120; fi"
    low = accepted_run(team_a, a_member, staff, small_job("low", command, staging=False, gpus=8))
    nodes = len(needs_nodes(2))
    urgent_data = small_job("urgent", "srun sleep 2", staging=False, gpus=1, nodes=nodes)
    urgent = accepted_run(team_a, a_member, staff, urgent_data)
    low_agent = start_agent(low_cluster)
    agent = start_agent(quick)
    dispatched(low, low_cluster, staff, low_agent)
    low_job = run_job(low, cancel_afterwards)
    wait_for(lambda: run_state(low) == "running", 60, "the preemptible run running", low_agent)

    dispatched(urgent, quick, staff, agent)
    run_job(urgent, cancel_afterwards)
    wait_for(lambda: squeue_state(low_job) == "PENDING", 60, "the preemptible run requeued")
    scontrol("update", f"JobId={low_job}", "StartTime=now+2")
    wait_for(lambda: run_state(urgent) == "released", 90, "the urgent run released", agent)
    wait_for(lambda: run_state(low) == "released", 120, "the preemptible run released", low_agent)

    attempts = sacct(low_job, FIELDS + ",Partition")
    assert [(a["State"], a["Partition"]) for a in attempts] == [
        ("PREEMPTED", "e31-low"), ("COMPLETED", "e31-low"),
    ]  # fmt: skip
    [taken] = sacct(dispatch_of(urgent).slurm_jobs["run"], FIELDS)
    assert attempts[0]["End"] <= taken["Start"] <= attempts[1]["Start"]
    assert Run.objects.get(pk=low.pk).restarts == 1
    assert kinds(low) == ["rented", "running", "preempted", "rented", "running", "output",
                          "released"]  # fmt: skip
    assert "PREEMPTED" in Event.objects.get(run=low, kind="preempted").note
    assert kinds(urgent) == ["rented", "running", "output", "released"]
    assert Run.objects.get(pk=urgent.pk).restarts == 0
    # Both ledgers are Slurm's: eight GPUs for each attempt, one on each node for the urgent run.
    assert abs(held_seconds(Hold.objects.filter(run=low)) - slurm_seconds(attempts)) <= 16
    assert gpus(taken) == nodes
    assert abs(held_seconds(Hold.objects.filter(run=urgent)) - slurm_seconds([taken])) <= nodes


def test_an_elastic_job_granted_fewer_nodes_says_so_on_its_page(
    team_a, a_member, staff, quick, start_agent, accepted_run, small_job, cancel_afterwards,
    client_for,
):  # fmt: skip
    nodes = needs_nodes(4)
    # Every GPU of the last two nodes is taken (as by another team's jobs): two nodes are left.
    blocker = subprocess.run(
        ["sbatch", "--parsable", "-p", "e31", "-N2", f"--nodelist={','.join(nodes[-2:])}",
         "--gres=gpu:h100:8", "--job-name=e31-test-blocker", "--output=/dev/null",
         "--wrap", "sleep 120"],
        capture_output=True, text=True, check=True, timeout=30,
    ).stdout.strip()  # fmt: skip
    cancel_afterwards.append(blocker)
    wait_for(lambda: squeue_state(blocker) == "RUNNING", 30, "the other jobs to hold two nodes")

    data = small_job("elastic", EACH_NODE, staging=False, nodes=4, min_nodes=2,
                     less_compute="fewer_nodes")  # fmt: skip
    run = accepted_run(team_a, a_member, staff, data)
    dispatched(run, quick, staff, start_agent(quick))
    record = dispatch_of(run)
    assert "#SBATCH --nodes=2-4" in next(s["text"] for s in record.scripts if s["phase"] == "run")
    run_job(run, cancel_afterwards)
    wait_for(lambda: run_state(run) == "released", 120, "released")

    [row] = sacct(dispatch_of(run).slurm_jobs["run"], FIELDS)
    granted = int(row["NNodes"])
    assert granted == 2 and not set(hostnames(row["NodeList"])) & set(nodes[-2:])
    assert Event.objects.get(run=run, kind="running").observed["nodes_granted"] == granted
    assert abs(held_seconds(Hold.objects.filter(run=run)) - slurm_seconds([row])) <= 4
    page = client_for(a_member).get(reverse("job_detail", args=[run.job_id])).content.decode()
    assert "Asked for 4 nodes, granted 2. Declared it would run on fewer nodes" in page
