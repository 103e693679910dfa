"""Dispatched jobs run on the real cluster: released, failed, cancelled and requeued runs,
with the ledger checked against Slurm's own accounting."""

import subprocess
from datetime import datetime

import pytest
from django.urls import reverse

from jobs.runs import dispatch as dispatch_mod
from jobs.runs import ledger
from jobs.runs.models import Event, EventStatus, Hold, Run
from jobs.runs.observed import approx_duration
from portal.models import Notice
from tests.jobs.slurm_agent.cluster import (
    dispatch_of,
    run_state,
    sacct,
    scontrol,
    squeue_state,
    wait_for,
)

pytestmark = pytest.mark.django_db(transaction=True)


def applied_kinds(run):
    return list(
        Event.objects.filter(run=run, status=EventStatus.APPLIED)
        .order_by("occurred_at", "pk")
        .values_list("kind", flat=True)
    )


def slurm_seconds(row):
    start = datetime.fromisoformat(row["Start"])
    end = datetime.fromisoformat(row["End"])
    return (end - start).total_seconds()


def test_a_dispatched_job_runs_to_released_with_a_measured_ledger(
    team_a, a_member, staff, cluster, start_agent, accepted_run, small_job
):
    run = accepted_run(team_a, a_member, staff, small_job("slurm-journey", "sleep 3"))
    agent = start_agent(cluster)
    wait_for(lambda: dispatch_mod.Cluster.objects.get(pk=cluster.pk).reported_at, 30,
             "the agent's partition report", agent)  # fmt: skip
    dispatch_mod.dispatch(
        run=run, cluster=cluster.__class__.objects.get(pk=cluster.pk), actor=staff
    )

    wait_for(lambda: run_state(run) == "released", 90, "released", agent)
    record = dispatch_of(run)
    assert set(record.slurm_jobs) == {"staging", "run", "output"}
    wait_for(lambda: dispatch_of(run).state == "finished", 30, "the dispatch to finish", agent)
    assert applied_kinds(run) == ["rented", "running", "output", "released"]
    assert not Event.objects.filter(run=run, status=EventStatus.REJECTED).exists()

    # The held figures are Slurm's: 2 GPUs × the run job's elapsed time, within a second.
    [row] = sacct(record.slurm_jobs["run"])
    assert row["State"] == "COMPLETED" and "gres/gpu=2" in row["AllocTRES"]
    [hold] = Hold.objects.filter(run=run)
    assert hold.measured and hold.count == 2 and hold.phase == "running"
    held_seconds = (hold.ended_at - hold.started_at).total_seconds()
    assert abs(held_seconds - slurm_seconds(row)) <= 1
    assert abs(held_seconds - int(row["ElapsedRaw"])) <= 1
    figures = ledger.compute(Run.objects.get(pk=run.pk))
    assert figures.source == "measured"
    assert abs(figures.held - 2 * int(row["ElapsedRaw"]) / 3600) < 2 * 2 / 3600

    # Each phase's events sit at Slurm's own times.
    events = {e.kind: e for e in Event.objects.filter(run=run)}
    [staging] = sacct(record.slurm_jobs["staging"])
    [output] = sacct(record.slurm_jobs["output"])
    assert events["rented"].occurred_at == datetime.fromisoformat(staging["Start"] + "+00:00")
    assert events["running"].occurred_at == datetime.fromisoformat(row["Start"] + "+00:00")
    assert events["released"].occurred_at == datetime.fromisoformat(output["End"] + "+00:00")
    assert f"Slurm job {record.slurm_jobs['run']} (run) running on" in events["running"].note


@pytest.mark.parametrize("told", [True, False], ids=["accounting-none", "sacct-refuses"])
def test_a_cluster_without_accounting_runs_a_job_to_the_end(
    told, team_a, a_member, staff, cluster, start_agent, accepted_run, small_job, client_for
):
    # Told (`--accounting none`) the agent never asks sacct; untold, sacct refuses as it does
    # without slurmdbd and the agent turns to squeue and scontrol on its own.
    run = accepted_run(team_a, a_member, staff, small_job("slurm-no-dbd", "sleep 3"))
    agent = start_agent(cluster, accounting="none" if told else "auto", no_slurmdbd=not told)
    wait_for(lambda: cluster.__class__.objects.get(pk=cluster.pk).reported_at, 30, "report", agent)
    dispatch_mod.dispatch(
        run=run, cluster=cluster.__class__.objects.get(pk=cluster.pk), actor=staff
    )

    wait_for(lambda: run_state(run) == "released", 90, "released", agent)
    wait_for(lambda: dispatch_of(run).state == "finished", 30, "the dispatch to finish", agent)
    assert applied_kinds(run) == ["rented", "running", "output", "released"]
    assert not Event.objects.filter(run=run, status=EventStatus.REJECTED).exists()

    # The held figures are the controller's start and end, marked estimated: accounting
    # (which this cluster does keep, to check against) says the same within a second.
    record = dispatch_of(run)
    [row] = sacct(record.slurm_jobs["run"])
    [hold] = Hold.objects.filter(run=run)
    assert hold.source == "estimated" and hold.count == 2
    held_seconds = (hold.ended_at - hold.started_at).total_seconds()
    assert abs(held_seconds - int(row["ElapsedRaw"])) <= 1
    assert ledger.compute(Run.objects.get(pk=run.pk)).source == "estimated"
    output = Event.objects.get(run=run, kind="output").observed
    assert output["estimated"] is True and abs(output["elapsed_seconds"] - held_seconds) <= 1
    assert "peak_memory_bytes" not in output and "cpu_seconds" not in output

    page = client_for(a_member).get(reverse("job_detail", args=[run.job_id])).content.decode()
    assert "Held figures are estimated" in page and "(estimated)" in page
    assert "Peak memory: not measured on this cluster." in page
    assert "CPU time: not measured on this cluster." in page
    assert ("keeps no accounting" in agent.output()) is not told


def test_a_non_zero_exit_fails_the_run_and_nothing_is_delivered(
    team_a, a_member, staff, cluster, start_agent, accepted_run, small_job
):
    run = accepted_run(
        team_a, a_member, staff, small_job("slurm-fails", "sleep 1; exit 3", staging=False)
    )
    agent = start_agent(cluster)
    wait_for(lambda: cluster.__class__.objects.get(pk=cluster.pk).reported_at, 30, "report", agent)
    dispatch_mod.dispatch(
        run=run, cluster=cluster.__class__.objects.get(pk=cluster.pk), actor=staff
    )

    wait_for(lambda: run_state(run) == "failed", 90, "failed", agent)
    run.refresh_from_db()
    assert run.failure_reason == "exit_code"
    failed = Event.objects.get(run=run, kind="failed")
    assert "FAILED (exit code 3)" in failed.note
    wait_for(lambda: dispatch_of(run).state == "finished", 30, "the dispatch to finish", agent)
    [output] = sacct(dispatch_of(run).slurm_jobs["output"])
    assert output["State"].startswith("CANCELLED") and output["ElapsedRaw"] == "0"
    assert applied_kinds(run) == ["rented", "running", "failed"]


def test_a_job_past_its_time_limit_fails_saying_so(
    team_a, a_member, staff, cluster, start_agent, accepted_run, small_job
):
    # sacct records TIMEOUT with ExitCode 0:0: the note said "TIMEOUT (exit code 0)".
    data = small_job("slurm-timeout", "sleep 300", staging=False, estimate="1 min", maximum="1 min")
    run = accepted_run(team_a, a_member, staff, data)
    agent = start_agent(cluster)
    wait_for(lambda: cluster.__class__.objects.get(pk=cluster.pk).reported_at, 30, "report", agent)
    dispatch_mod.dispatch(
        run=run, cluster=cluster.__class__.objects.get(pk=cluster.pk), actor=staff
    )

    wait_for(lambda: run_state(run) == "failed", 240, "failed", agent)
    [row] = sacct(dispatch_of(run).slurm_jobs["run"], "State,Start,End,ElapsedRaw,ExitCode")
    assert row["State"] == "TIMEOUT" and row["ExitCode"] == "0:0"
    failed = Event.objects.get(run=run, kind="failed")
    assert f"TIMEOUT (killed at its time limit after {row['ElapsedRaw']} s)" in failed.note
    assert "exit code" not in failed.note
    # Classed by its cause, and said so to the team with the time it declared.
    assert Run.objects.get(pk=run.pk).failure_reason == "time_limit"
    assert failed.observed["time_limit_seconds"] == 60
    said = Notice.objects.filter(user=a_member, url__contains=f"/{run.job_id}/").values_list(
        "message", flat=True
    )
    after = approx_duration(int(row["ElapsedRaw"]))  # Slurm kills a few seconds past the limit
    assert f"{run.job} was killed at its time limit after {after}: it declared 1min." in said
    wait_for(lambda: not Hold.objects.filter(run=run, ended_at__isnull=True).exists(), 30,
             "the holds to close", agent)  # fmt: skip
    holds = Hold.objects.filter(run=run)
    held = sum((h.ended_at - h.started_at).total_seconds() for h in holds)
    assert abs(held - slurm_seconds(row)) <= 1
    assert applied_kinds(run) == ["rented", "running", "failed"]


def test_cancel_scancels_and_keeps_the_hours_held_until_then(
    team_a, a_member, staff, cluster, start_agent, accepted_run, small_job
):
    run = accepted_run(
        team_a, a_member, staff, small_job("slurm-cancel", "sleep 120", staging=False)
    )
    agent = start_agent(cluster)
    wait_for(lambda: cluster.__class__.objects.get(pk=cluster.pk).reported_at, 30, "report", agent)
    dispatch_mod.dispatch(
        run=run, cluster=cluster.__class__.objects.get(pk=cluster.pk), actor=staff
    )
    wait_for(lambda: run_state(run) == "running", 60, "running", agent)

    dispatch_mod.request_cancel(run=run, actor=a_member)
    wait_for(lambda: run_state(run) == "cancelled", 60, "cancelled", agent)
    [row] = sacct(dispatch_of(run).slurm_jobs["run"])
    assert row["State"].startswith("CANCELLED")
    wait_for(lambda: not Hold.objects.filter(run=run, ended_at__isnull=True).exists()
             and Hold.objects.filter(run=run).count() == 2, 30, "the holds to close", agent)  # fmt: skip
    # Staging inside the allocation, then the run until scancel: together, Slurm's elapsed.
    holds = Hold.objects.filter(run=run)
    held = sum((h.ended_at - h.started_at).total_seconds() for h in holds)
    assert abs(held - slurm_seconds(row)) <= 1 and all(h.measured for h in holds)
    assert applied_kinds(run) == ["rented", "running", "cancelled"]
    # A member of the team asked: the run says so, and so does Slurm's own record (uid).
    assert Run.objects.get(pk=run.pk).cancelled_by == "partner"
    cancelled = Event.objects.get(run=run, kind="cancelled")
    assert cancelled.observed["cancelled_by"] == "partner" and "CANCELLED by uid" in cancelled.note
    assert Notice.objects.filter(
        user=a_member, message=f"{run.job} was cancelled by a member of the team."
    ).exists()


def run_requeued_once(run, cluster, staff, agent):
    """Dispatches the run, requeues its Slurm job once it runs (what a preemption with
    PreemptMode=REQUEUE does) and waits for the run's release; the Slurm job's id."""
    wait_for(lambda: cluster.__class__.objects.get(pk=cluster.pk).reported_at, 30, "report", agent)
    dispatch_mod.dispatch(
        run=run, cluster=cluster.__class__.objects.get(pk=cluster.pk), actor=staff
    )
    wait_for(lambda: run_state(run) == "running", 60, "running", agent)
    job_id = dispatch_of(run).slurm_jobs["run"]
    scontrol("requeue", job_id)
    wait_for(lambda: squeue_state(job_id) == "PENDING", 30, "the requeued job to be pending")
    # Slurm holds a requeued job back for two minutes before it may start again; a few
    # seconds are enough for the node to tidy up.
    scontrol("update", f"JobId={job_id}", "StartTime=now+4")
    wait_for(lambda: run_state(run) == "released", 90, "released after the requeue", agent)
    return job_id


def test_a_requeued_job_counts_a_restart_and_holds_each_attempt(
    team_a, a_member, staff, cluster, start_agent, accepted_run, small_job
):
    run = accepted_run(
        team_a, a_member, staff, small_job("slurm-requeue", "sleep 5", staging=False)
    )
    job_id = run_requeued_once(run, cluster, staff, start_agent(cluster))

    run.refresh_from_db()
    assert run.restarts == 1
    assert applied_kinds(run) == [
        "rented",
        "running",
        "preempted",
        "rented",
        "running",
        "output",
        "released",
    ]
    attempts = sacct(job_id)
    assert [a["State"] for a in attempts] == ["REQUEUED", "COMPLETED"]
    # Each attempt holds its GPUs for staging, then for the run: Slurm's elapsed, per attempt.
    holds = list(Hold.objects.filter(run=run).order_by("started_at"))
    assert [h.phase for h in holds] == ["staging", "running"] * 2
    assert all(h.measured and h.ended_at for h in holds)
    for pair, attempt in zip((holds[:2], holds[2:]), attempts, strict=True):
        held = sum((h.ended_at - h.started_at).total_seconds() for h in pair)
        assert abs(held - slurm_seconds(attempt)) <= 1


def test_without_accounting_a_requeue_the_agent_sees_counts_a_restart(
    team_a, a_member, staff, cluster, start_agent, accepted_run, small_job
):
    run = accepted_run(
        team_a, a_member, staff, small_job("slurm-requeue-no-dbd", "sleep 5", staging=False)
    )
    job_id = run_requeued_once(run, cluster, staff, start_agent(cluster, accounting="none"))

    run.refresh_from_db()
    assert run.restarts == 1
    assert applied_kinds(run) == [
        "rented", "running", "preempted", "rented", "running", "output", "released",
    ]  # fmt: skip
    assert not Event.objects.filter(run=run, status=EventStatus.REJECTED).exists()
    # The controller has only the second attempt: the first is held until the agent last saw
    # it going, never past Slurm's own end of it (which accounting, kept here, says).
    first, second = list(Hold.objects.filter(run=run).order_by("started_at"))
    assert first.source == second.source == "estimated" and first.ended_at and second.ended_at
    requeued, completed = sacct(job_id)
    held = (first.ended_at - first.started_at).total_seconds()
    assert 0 <= slurm_seconds(requeued) - held <= 5, (held, requeued)
    assert (
        abs((second.ended_at - second.started_at).total_seconds() - slurm_seconds(completed)) <= 1
    )


def test_shards_run_as_an_array_held_per_task(
    team_a, a_member, staff, cluster, start_agent, accepted_run, small_job
):
    data = small_job("slurm-shards", 'sleep 2; echo "shard $SHARD_INDEX of $SHARD_COUNT"', gpus=1)
    data["work"].update(shape="shards", shards=3)
    data["request"]["nodes"] = 2  # two shards at a time, one node each
    run = accepted_run(team_a, a_member, staff, data)
    agent = start_agent(cluster)
    wait_for(lambda: cluster.__class__.objects.get(pk=cluster.pk).reported_at, 30, "report", agent)
    record = dispatch_mod.dispatch(
        run=run, cluster=cluster.__class__.objects.get(pk=cluster.pk), actor=staff
    )
    assert "#SBATCH --array=0-2%2" in next(s["text"] for s in record.scripts if s["phase"] == "run")

    wait_for(lambda: run_state(run) == "released", 90, "released", agent)
    assert applied_kinds(run) == ["rented", "running", "output", "released"]
    tasks = sacct(dispatch_of(run).slurm_jobs["run"], "JobID,State,Start,End,ElapsedRaw,AllocTRES")
    assert sorted(t["JobID"].split("_")[1] for t in tasks) == ["0", "1", "2"]
    holds = Hold.objects.filter(run=run)
    assert holds.count() == 3 and all(h.measured and h.count == 1 and h.ended_at for h in holds)
    assert (
        abs(
            sum((h.ended_at - h.started_at).total_seconds() for h in holds)
            - sum(slurm_seconds(t) for t in tasks)
        )
        <= 3
    )


def test_a_script_sbatch_refuses_fails_the_run_with_slurms_words(
    team_a, a_member, staff, cluster, start_agent, accepted_run, small_job
):
    # The partition's nodes have no feature "infiniband": sbatch refuses the run script.
    run = accepted_run(
        team_a, a_member, staff, small_job("slurm-refused", node_features=["infiniband"])
    )
    agent = start_agent(cluster)
    wait_for(lambda: cluster.__class__.objects.get(pk=cluster.pk).reported_at, 30, "report", agent)
    dispatch_mod.dispatch(
        run=run, cluster=cluster.__class__.objects.get(pk=cluster.pk), actor=staff
    )

    wait_for(lambda: run_state(run) == "failed", 60, "failed", agent)
    run.refresh_from_db()
    assert run.failure_reason == "setup"
    failed = Event.objects.get(run=run, kind="failed")
    assert "sbatch refused the run script" in failed.note and "feature" in failed.note.lower()
    wait_for(lambda: dispatch_of(run).state == "finished", 30, "the dispatch to finish", agent)
    # The staging job submitted before the refusal was cancelled: nothing runs for nothing.
    assert dispatch_of(run).slurm_jobs == {}
    name = f"e31-{dispatch_of(run).key}-staging"

    def staging_state():
        out = subprocess.run(["sacct", "-X", "-n", "-P", "-S", "now-1hours", "--format=State",
                              f"--name={name}"], capture_output=True, text=True)  # fmt: skip
        return out.stdout.split()[:1] == ["CANCELLED"]

    wait_for(staging_state, 20, "the staging job to be cancelled in Slurm's records")


def test_each_dispatch_runs_in_its_own_folder(
    team_a, a_member, staff, cluster, start_agent, tmp_path, accepted_run, small_job
):
    """Two jobs that write result.txt: each keeps its own (in one shared folder the second
    overwrote the first's output)."""
    runs = [
        accepted_run(team_a, a_member, staff, small_job(f"folder-{n}", f"echo {n} > result.txt"))
        for n in ("first", "second")
    ]
    agent = start_agent(cluster)
    wait_for(lambda: dispatch_mod.Cluster.objects.get(pk=cluster.pk).reported_at, 30,
             "the agent's partition report", agent)  # fmt: skip
    for run in runs:
        dispatch_mod.dispatch(
            run=run, cluster=cluster.__class__.objects.get(pk=cluster.pk), actor=staff
        )
    for run in runs:
        wait_for(lambda run=run: run_state(run) == "released", 120, "released", agent)
    for run, n in zip(runs, ("first", "second"), strict=True):
        record = dispatch_of(run)
        [row] = sacct(record.slurm_jobs["run"], fields="JobIDRaw,WorkDir")
        folder = tmp_path / "agent" / record.key
        assert row["WorkDir"] == str(folder)
        assert (folder / "result.txt").read_text().strip() == n
