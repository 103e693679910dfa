"""A cluster without slurmdbd: the agent reads squeue and scontrol (text captured on the local
cluster, written here as it was printed), marks what it derives as estimated, says a job it
never saw end is unknown, and the portal shows those figures as estimated. The real
cluster's run is tests/jobs/slurm_agent/test_runs.py."""

import stat
from datetime import UTC, datetime, timedelta

import pytest

from jobs.runs import ledger, observed, services
from jobs.runs.models import Hold, Run
from jobs.slurm_agent import derive as derive_mod
from jobs.slurm_agent.slurm import (
    OUTPUT_TAIL,
    VANISHED,
    WATCHED_FILE,
    Slurm,
    SlurmError,
    memory_kill,
    parse_scontrol_jobs,
    parse_squeue,
)
from portal.errors import DomainError

# squeue -h -t all -j … -o "%i|%j|%T|%V|%S|%e|%N|%D|%C|%r|%l|%b" (SQUEUE_FORMAT), TZ=UTC:
# a job waiting on its dependency, a 2-node gang running, an array task that completed.
SQUEUE = """\
483|nodbd-dep|PENDING|2026-12-07T06:22:48|N/A|N/A||2|2|Dependency|1:00|gres:gpu:h100:2
535|nodbd-run|RUNNING|2026-12-07T06:24:35|2026-12-07T06:24:36|2026-12-07T06:25:36|e31-n[1-2]|2|2|None|1:00|gres:gpu:h100:2
482_2|nodbd-arr|COMPLETED|2026-12-07T06:22:48|2026-12-07T06:22:52|2026-12-07T06:22:56|e31-n1|1|1|None|2:00|gres:gpu:h100:1
"""  # noqa: E501

# scontrol -o show job ID, TZ=UTC, after the end: the gang completed, `exit 3`, a scancel,
# and an array task (its own line, named by ArrayJobId and ArrayTaskId).
SCONTROL_DONE = "JobId=483 JobName=nodbd-dep UserId=root(0) GroupId=root(0) MCS_label=N/A Priority=4294901292 Nice=0 Account=root QOS=normal JobState=COMPLETED Reason=None Dependency=(null) Requeue=0 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0 RunTime=00:00:02 TimeLimit=00:01:00 TimeMin=N/A SubmitTime=2026-12-07T06:22:48 EligibleTime=2026-12-07T06:22:56 AccrueTime=Unknown StartTime=2026-12-07T06:22:56 EndTime=2026-12-07T06:22:58 Deadline=N/A PreemptEligibleTime=2026-12-07T06:22:56 PreemptTime=None SuspendTime=None SecsPreSuspend=0 LastSchedEval=2026-12-07T06:22:56 Scheduler=Backfill Partition=e31 AllocNode:Sid=localhost:29870 ReqNodeList=(null) ExcNodeList=(null) NodeList=e31-n[1-2] BatchHost=e31-n1 NumNodes=2 NumCPUs=2 NumTasks=2 CPUs/Task=1 ReqB:S:C:T=0:0:*:* TRES=cpu=2,mem=200M,node=2,billing=2,gres/gpu=4,gres/gpu:h100=4 Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=* MinCPUsNode=1 MinMemoryNode=100M MinTmpDiskNode=0 Features=(null) DelayBoot=00:00:00 OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null) Command=(null) WorkDir=/tmp/nodbd-cap StdErr=/tmp/nodbd-cap/slurm-483.out StdIn=/dev/null StdOut=/tmp/nodbd-cap/slurm-483.out Power= TresPerNode=gres:gpu:h100:2 "  # noqa: E501
SCONTROL_FAILED = "JobId=481 JobName=nodbd-cap UserId=root(0) GroupId=root(0) MCS_label=N/A Priority=4294901294 Nice=0 Account=root QOS=normal JobState=FAILED Reason=NonZeroExitCode Dependency=(null) Requeue=0 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=3:0 RunTime=00:00:04 TimeLimit=00:02:00 TimeMin=N/A SubmitTime=2026-12-07T06:22:22 EligibleTime=2026-12-07T06:22:22 AccrueTime=2026-12-07T06:22:22 StartTime=2026-12-07T06:22:23 EndTime=2026-12-07T06:22:27 Deadline=N/A PreemptEligibleTime=2026-12-07T06:22:23 PreemptTime=None SuspendTime=None SecsPreSuspend=0 LastSchedEval=2026-12-07T06:22:23 Scheduler=Backfill Partition=e31 AllocNode:Sid=localhost:29870 ReqNodeList=(null) ExcNodeList=(null) NodeList=e31-n1 BatchHost=e31-n1 NumNodes=1 NumCPUs=1 NumTasks=1 CPUs/Task=1 ReqB:S:C:T=0:0:*:* TRES=cpu=1,mem=100M,node=1,billing=1,gres/gpu=1,gres/gpu:h100=1 Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=* MinCPUsNode=1 MinMemoryNode=100M MinTmpDiskNode=0 Features=(null) DelayBoot=00:00:00 OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null) Command=(null) WorkDir=/tmp/nodbd-cap StdErr=/tmp/nodbd-cap/slurm-481.out StdIn=/dev/null StdOut=/tmp/nodbd-cap/slurm-481.out Power= TresPerNode=gres:gpu:h100:1 "  # noqa: E501
SCONTROL_CANCELLED = "JobId=535 JobName=nodbd-run UserId=root(0) GroupId=root(0) MCS_label=N/A Priority=4294901242 Nice=0 Account=root QOS=normal JobState=CANCELLED Reason=None Dependency=(null) Requeue=0 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:15 RunTime=00:00:01 TimeLimit=00:01:00 TimeMin=N/A SubmitTime=2026-12-07T06:24:35 EligibleTime=2026-12-07T06:24:35 AccrueTime=2026-12-07T06:24:35 StartTime=2026-12-07T06:24:36 EndTime=2026-12-07T06:24:37 Deadline=N/A PreemptEligibleTime=2026-12-07T06:24:36 PreemptTime=None SuspendTime=None SecsPreSuspend=0 LastSchedEval=2026-12-07T06:24:36 Scheduler=Backfill Partition=e31 AllocNode:Sid=localhost:29870 ReqNodeList=(null) ExcNodeList=(null) NodeList=e31-n[1-2] BatchHost=e31-n1 NumNodes=2 NumCPUs=2 NumTasks=2 CPUs/Task=1 ReqB:S:C:T=0:0:*:* TRES=cpu=2,mem=200M,node=2,billing=2,gres/gpu=4,gres/gpu:h100=4 Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=* MinCPUsNode=1 MinMemoryNode=100M MinTmpDiskNode=0 Features=(null) DelayBoot=00:00:00 OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null) Command=(null) WorkDir=/tmp/nodbd-cap StdErr=/tmp/nodbd-cap/slurm-535.out StdIn=/dev/null StdOut=/tmp/nodbd-cap/slurm-535.out Power= TresPerNode=gres:gpu:h100:2 "  # noqa: E501
SCONTROL_TASK = "JobId=485 ArrayJobId=482 ArrayTaskId=1 ArrayTaskThrottle=2 JobName=nodbd-arr UserId=root(0) GroupId=root(0) MCS_label=N/A Priority=4294901293 Nice=0 Account=root QOS=normal JobState=COMPLETED Reason=None Dependency=(null) Requeue=0 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0 RunTime=00:00:03 TimeLimit=00:02:00 TimeMin=N/A SubmitTime=2026-12-07T06:22:48 EligibleTime=2026-12-07T06:22:48 AccrueTime=Unknown StartTime=2026-12-07T06:22:48 EndTime=2026-12-07T06:22:51 Deadline=N/A PreemptEligibleTime=2026-12-07T06:22:48 PreemptTime=None SuspendTime=None SecsPreSuspend=0 LastSchedEval=2026-12-07T06:22:48 Scheduler=Main Partition=e31 AllocNode:Sid=localhost:29870 ReqNodeList=(null) ExcNodeList=(null) NodeList=e31-n1 BatchHost=e31-n1 NumNodes=1 NumCPUs=1 NumTasks=1 CPUs/Task=1 ReqB:S:C:T=0:0:*:* TRES=cpu=1,mem=100M,node=1,billing=1,gres/gpu=1,gres/gpu:h100=1 Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=* MinCPUsNode=1 MinMemoryNode=100M MinTmpDiskNode=0 Features=(null) DelayBoot=00:00:00 OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null) Command=(null) WorkDir=/tmp/nodbd-cap StdErr=/tmp/nodbd-cap/slurm-482_1.out StdIn=/dev/null StdOut=/tmp/nodbd-cap/slurm-482_1.out Power= TresPerNode=gres:gpu:h100:1 "  # noqa: E501

AT = datetime(2026, 12, 7, 6, 25, tzinfo=UTC)


def kinds(derived):
    return [(p.what, p.body.get("kind") or p.body["phase"]) for p in derived.posts]


def test_squeue_says_state_start_nodes_and_gpus_but_no_end_while_running():
    pending, running, task = parse_squeue(SQUEUE)
    assert (pending.job_id, pending.state, pending.start, pending.nodelist) == (
        "483", "PENDING", None, ""
    )  # fmt: skip
    assert not pending.final and pending.reason == "Dependency"
    assert running.start == datetime(2026, 12, 7, 6, 24, 36, tzinfo=UTC)
    # %e of a running job is when its time limit would end it, not an end.
    assert running.end is None and running.elapsed == 0
    assert (running.nodelist, running.nodes, running.gpus, running.gres) == (
        "e31-n[1-2]", 2, 4, "gpu:h100"
    )  # fmt: skip
    assert running.time_limit == 60 and running.cpus == 2
    assert (task.job_id, task.task, task.raw_id, task.final, task.elapsed) == (
        "482", "2", "482_2", True, 4
    )  # fmt: skip
    assert all(r.estimated for r in (pending, running, task))


def test_a_waiting_jobs_forecast_start_is_no_start():
    # --begin=now+600: squeue prints when the scheduler expects to start it; then scancel.
    waiting, cancelled = parse_squeue(
        "687|nodbd-hold|PENDING|2026-12-07T06:35:00|2026-12-07T06:45:00|2026-12-07T06:46:00||1|1|"
        "BeginTime|1:00|N/A\n"
        "687|nodbd-hold|CANCELLED|2026-12-07T06:35:00|2026-12-07T06:35:01|2026-12-07T06:35:01||1|"
        "1|BeginTime|1:00|N/A\n"
    )
    assert waiting.start is None and waiting.gpus == 0 and not waiting.final
    assert cancelled.final and cancelled.nodelist == "" and cancelled.elapsed == 0
    # Cancelled before it had a node: the run ends cancelled, nothing held.
    derived = derive_mod.derive("c", {"run": "687"}, [cancelled], now=AT)
    assert kinds(derived) == [("event", "cancelled")]


def test_scontrol_gives_an_ended_jobs_exit_code_signal_and_allocation():
    [done] = parse_scontrol_jobs(SCONTROL_DONE)
    assert (done.state, done.exit_code, done.elapsed, done.gpus, done.nodes) == (
        "COMPLETED", 0, 2, 4, 2
    )  # fmt: skip
    assert done.end == datetime(2026, 12, 7, 6, 22, 58, tzinfo=UTC)
    assert done.req_mem == 100 * 2**20 and done.alloc_tres.startswith("cpu=2,mem=200M")
    [failed] = parse_scontrol_jobs(SCONTROL_FAILED)
    assert (failed.state, failed.exit_code, failed.signal, failed.reason) == (
        "FAILED", 3, 0, "NonZeroExitCode"
    )  # fmt: skip
    [cancelled] = parse_scontrol_jobs(SCONTROL_CANCELLED)
    assert (cancelled.state, cancelled.signal, cancelled.cancelled_by) == ("CANCELLED", 15, "")
    [task] = parse_scontrol_jobs(SCONTROL_TASK)
    assert (task.job_id, task.task, task.raw_id) == ("482", "1", "482_1")
    assert parse_scontrol_jobs("slurm_load_jobs error: Invalid job id specified") == []


def test_a_run_read_from_the_controller_is_estimated_and_measures_no_usage():
    records = parse_scontrol_jobs(SCONTROL_DONE)
    derived = derive_mod.derive("c", {"run": "483"}, records, now=AT, time_limit=60)
    # Nothing waits for step records that only accounting would write.
    assert kinds(derived) == [
        ("event", "rented"), ("event", "running"), ("hold", "running"), ("event", "output"),
        ("event", "released"),
    ]  # fmt: skip
    assert derived.ended
    hold = next(p.body for p in derived.posts if p.what == "hold")
    assert hold["estimated"] is True and hold["count"] == 4
    assert (hold["started_at"], hold["ended_at"]) == (
        "2026-12-07T06:22:56Z",
        "2026-12-07T06:22:58Z",
    )
    output = next(p.body for p in derived.posts if p.body.get("kind") == "output")
    assert output["estimated"] is True and output["elapsed_seconds"] == 2
    assert output["memory_requested_bytes"] == 100 * 2**20 and output["cpus_allocated"] == 2
    # What only accounting measures is left out, never sent as zero.
    assert "peak_memory_bytes" not in output and "cpu_seconds" not in output


def test_staging_inside_the_allocation_is_held_as_running_without_step_records():
    records = parse_scontrol_jobs(SCONTROL_DONE)
    derived = derive_mod.derive("c", {"run": "483"}, records, staged_inside=True, now=AT)
    holds = [p.body for p in derived.posts if p.what == "hold"]
    assert [h["phase"] for h in holds] == ["running"] and derived.ended
    assert holds[0]["started_at"] == "2026-12-07T06:22:56Z"


def test_an_exit_code_from_scontrol_fails_the_run_by_its_cause():
    derived = derive_mod.derive("c", {"run": "481"}, parse_scontrol_jobs(SCONTROL_FAILED), now=AT)
    failed = derived.posts[-1].body
    assert failed["kind"] == "failed" and failed["failure_reason"] == "exit_code"
    assert "FAILED (exit code 3) on e31-n1" in failed["note"] and failed["estimated"]


def fake_commands(tmp_path, monkeypatch, **outputs):
    """Slurm's commands replaced by scripts printing what the cluster printed; a command
    given as (text, 1) prints it on stderr and fails, as Slurm's do."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for name, out in outputs.items():
        text, code = out if isinstance(out, tuple) else (out, 0)
        (folder / f"{name}.txt").write_text(text)
        stream = ">&2" if code else ""
        script = folder / name
        script.write_text(f"#!/bin/sh\ncat '{folder}/{name}.txt' {stream}\nexit {code}\n")
        script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{folder}:/usr/bin:/bin")


def test_sacct_refusing_for_lack_of_accounting_turns_the_agent_to_the_controller(
    tmp_path, monkeypatch
):
    fake_commands(
        tmp_path,
        monkeypatch,
        sacct=("sacct: error: Slurm accounting storage is disabled\n", 1),
        squeue="481|nodbd-cap|FAILED|2026-12-07T06:22:22|2026-12-07T06:22:23|"
        "2026-12-07T06:22:27|e31-n1|1|1|NonZeroExitCode|2:00|gres:gpu:h100:1\n",
        scontrol=SCONTROL_FAILED + "\n",
    )
    slurm = Slurm(workdir=str(tmp_path))
    [record] = slurm.records(["481"])
    assert slurm.accounting == "none"
    assert (record.state, record.exit_code, record.estimated) == ("FAILED", 3, True)


def test_slurmdbd_away_for_a_while_is_not_taken_for_no_accounting(tmp_path, monkeypatch):
    fake_commands(
        tmp_path,
        monkeypatch,
        sacct=("sacct: error: Problem talking to the database: Connection refused\n", 1),
    )
    slurm = Slurm(workdir=str(tmp_path))
    with pytest.raises(SlurmError, match="Connection refused"):
        slurm.records(["481"])
    assert slurm.accounting == "auto"


def test_a_job_gone_before_the_agent_saw_it_end_ends_the_run_unknown(tmp_path, monkeypatch):
    running = SQUEUE.splitlines()[1] + "\n"
    fake_commands(tmp_path, monkeypatch, squeue=running)
    slurm = Slurm(workdir=str(tmp_path), accounting="none")
    [seen] = slurm.records(["535"], now=AT)
    assert seen.state == "RUNNING"
    # The agent is away past MinJobAge: squeue answers nothing for the job any more.
    (tmp_path / "bin" / "squeue.txt").write_text("")
    later = AT + timedelta(minutes=10)
    [gone] = slurm.records(["535"], now=later)
    assert gone.state == VANISHED and gone.final
    derived = derive_mod.derive("c", {"run": "535"}, [gone], now=later)
    hold = next(p.body for p in derived.posts if p.what == "hold")
    # Held until it was last seen going: what is known, not a guessed end.
    assert hold["ended_at"] == "2026-12-07T06:25:00Z" and hold["estimated"]
    failed = derived.posts[-1].body
    assert failed["kind"] == "failed" and failed["failure_reason"] == "other"
    assert "how it ended is unknown" in failed["note"]
    assert "last seen going at 2026-12-07T06:25:00Z" in failed["note"]
    assert "elapsed_seconds" not in failed

    # An agent restarted on the same workdir remembers when it last saw the job going.
    restarted = Slurm(workdir=str(tmp_path), accounting="none")
    [again] = restarted.records(["535"], now=later)
    assert again == gone
    # One that never saw it (another workdir) says the same, without a start or a hold.
    (tmp_path / "other").mkdir()
    fresh = Slurm(workdir=str(tmp_path / "other"), accounting="none")
    [unseen] = fresh.records(["535"], now=later)
    derived = derive_mod.derive("c", {"run": "535"}, [unseen], now=later)
    [failed] = [p.body for p in derived.posts]
    assert failed["occurred_at"] == "2026-12-07T06:35:00Z" and "unknown" in failed["note"]


# squeue of a job submitted with --requeue: running, just after `scontrol requeue` (held back
# by BeginTime), and running again once let go.
REQUEUE = (
    "688|nodbd-rq|RUNNING|2026-12-07T06:35:31|2026-12-07T06:35:32|2026-12-07T06:37:32|e31-n1|1|1|"
    "None|2:00|gres:gpu:h100:1\n",
    "688|nodbd-rq|PENDING|2026-12-07T06:35:34|2026-12-07T06:37:35|2026-12-07T06:39:35||1|1|"
    "BeginTime|2:00|gres:gpu:h100:1\n",
    "688|nodbd-rq|RUNNING|2026-12-07T06:35:34|2026-12-07T06:35:35|2026-12-07T06:37:35|e31-n1|1|1|"
    "None|2:00|gres:gpu:h100:1\n",
)


def test_a_requeue_the_agent_saw_counts_a_restart_and_closes_the_first_hold(tmp_path, monkeypatch):
    fake_commands(tmp_path, monkeypatch, squeue=REQUEUE[0])
    slurm = Slurm(workdir=str(tmp_path), accounting="none")
    seen_at = datetime(2026, 12, 7, 6, 35, 33, tzinfo=UTC)
    slurm.records(["688"], now=seen_at)
    for text, second in zip(REQUEUE[1:], (34, 36), strict=True):
        (tmp_path / "bin" / "squeue.txt").write_text(text)
        records = slurm.records(["688"], now=seen_at.replace(second=second))
    derived = derive_mod.derive("c", {"run": "688"}, records, requeueable=True, now=AT)
    assert kinds(derived) == [
        ("event", "rented"), ("event", "running"), ("hold", "running"), ("event", "preempted"),
        ("event", "rented"), ("event", "running"), ("hold", "running"),
    ]  # fmt: skip
    first, second = [p.body for p in derived.posts if p.what == "hold"]
    assert (first["started_at"], first["ended_at"]) == (
        "2026-12-07T06:35:32Z",
        "2026-12-07T06:35:33Z",
    )
    assert second["started_at"] == "2026-12-07T06:35:35Z" and "ended_at" not in second
    assert first["idempotency_key"] != second["idempotency_key"]


def test_an_agent_restarted_between_polls_still_counts_the_requeue(tmp_path, monkeypatch):
    # Each poll by a new agent on the same workdir, as cron runs `--once`.
    fake_commands(tmp_path, monkeypatch, squeue=REQUEUE[0])
    seen_at = datetime(2026, 12, 7, 6, 35, 33, tzinfo=UTC)
    Slurm(workdir=str(tmp_path), accounting="none").records(["688"], now=seen_at)
    for text, second in zip(REQUEUE[1:], (34, 36), strict=True):
        (tmp_path / "bin" / "squeue.txt").write_text(text)
        slurm = Slurm(workdir=str(tmp_path), accounting="none")
        records = slurm.records(["688"], now=seen_at.replace(second=second))
    derived = derive_mod.derive("c", {"run": "688"}, records, requeueable=True, now=AT)
    assert [k for k in kinds(derived) if k[0] == "event"] == [
        ("event", "rented"), ("event", "running"), ("event", "preempted"),
        ("event", "rented"), ("event", "running"),
    ]  # fmt: skip
    first, _ = [p.body for p in derived.posts if p.what == "hold"]
    assert first["ended_at"] == "2026-12-07T06:35:33Z"
    # Jobs no longer watched are dropped from what is kept.
    (tmp_path / "bin" / "squeue.txt").write_text("")
    slurm.records(["700"], now=AT)
    assert "688" not in (tmp_path / WATCHED_FILE).read_text()


def test_an_unreadable_memory_of_the_watched_jobs_is_said_and_started_afresh(
    tmp_path, monkeypatch, caplog
):
    fake_commands(tmp_path, monkeypatch, squeue=REQUEUE[0])
    (tmp_path / WATCHED_FILE).write_text('{"last_seen": {"688": [{"job_id": ')
    [record] = Slurm(workdir=str(tmp_path), accounting="none").records(["688"], now=AT)
    assert record.state == "RUNNING"
    assert f"cannot read {tmp_path / WATCHED_FILE}" in caplog.text
    assert '"688"' in (tmp_path / WATCHED_FILE).read_text()  # written anew


def test_a_forgotten_single_job_is_vanished_not_an_error(tmp_path, monkeypatch):
    fake_commands(
        tmp_path, monkeypatch, squeue=("slurm_load_jobs error: Invalid job id specified\n", 1)
    )
    [gone] = Slurm(workdir=str(tmp_path), accounting="none").records(["535"], now=AT)
    assert gone.state == VANISHED and gone.start is None


@pytest.mark.django_db
def test_the_portal_marks_estimated_holds_and_times(run, cluster):
    cluster_client = cluster.client
    start = run.created_at + timedelta(minutes=1)
    services.record_event(run=run, kind="rented", occurred_at=start, idempotency_key="r",
                          client=cluster_client)  # fmt: skip
    services.record_event(run=run, kind="running", occurred_at=start, idempotency_key="g",
                          client=cluster_client)  # fmt: skip
    services.record_hold(run=run, accelerator_type="gpu:h100", count=2, phase="running",
                         started_at=start, ended_at=start + timedelta(seconds=66),
                         idempotency_key="h", client=cluster_client,
                         observed={"estimated": True})  # fmt: skip
    for kind in ("output", "released"):
        services.record_event(run=run, kind=kind, occurred_at=start + timedelta(seconds=66),
                              idempotency_key=kind, client=cluster_client,
                              observed={"elapsed_seconds": 66, "time_limit_seconds": 120,
                                        "estimated": True})  # fmt: skip
    run = Run.objects.get(pk=run.pk)
    assert Hold.objects.get(run=run).source == "estimated"
    figures = ledger.compute(run)
    assert figures.source == "estimated" and figures.phases[0].source == "estimated"
    seen = observed.compute(run, events=list(run.events.all()), holds=list(run.holds.all()))
    assert seen.estimated
    assert seen.figure("time_limit").observed_text == "1min 6s (estimated)"
    assert seen.figure("memory").sentence == "Peak memory: not measured on this cluster."
    assert seen.figure("cpu").sentence == "CPU time: not measured on this cluster."
    assert seen.figure("duration").observed_text.endswith("(estimated)")


def test_estimated_is_true_or_false():
    assert observed.clean_observed({"estimated": True}) == {"estimated": True}
    assert observed.clean_observed({"estimated": False}) == {}
    with pytest.raises(DomainError, match="estimated is true or false"):
        observed.clean_observed({"estimated": "yes"})


def test_a_job_killed_past_its_memory_is_read_from_slurmstepds_line_in_its_output(
    tmp_path, monkeypatch
):
    # As the local cluster printed it for a job of --mem=60M (jobacct_gather's OverMemoryKill):
    # scontrol says only FAILED 0:9; the job's output says why, and how large it was.
    output = tmp_path / "hog-352.out"
    printed = "x" * (2 * OUTPUT_TAIL)  # what the program printed first is not read
    output.write_text(
        printed + "\nslurmstepd-e31-n1: error: StepId=352.batch exceeded memory limit "
        "(184696832 > 62914560), being killed\n"
        "slurmstepd-e31-n1: error: Exceeded job memory limit\n"
    )
    killed = (
        SCONTROL_FAILED.replace("JobId=481", "JobId=352")
        .replace("ExitCode=3:0", "ExitCode=0:9")
        .replace("MinMemoryNode=100M", "MinMemoryNode=60M")
        .replace("StdOut=/tmp/nodbd-cap/slurm-481.out", f"StdOut={output}")
    )
    fake_commands(
        tmp_path,
        monkeypatch,
        squeue="352|hog|FAILED|2026-12-07T06:22:22|2026-12-07T06:22:23|"
        "2026-12-07T06:22:27|e31-n1|1|1|JobLaunchFailure|2:00|\n",
        scontrol=killed + "\n",
    )
    [record] = Slurm(workdir=str(tmp_path), accounting="none").records(["352"])
    assert (record.signal, record.max_rss, record.req_mem) == (9, 184696832, 60 * 2**20)
    derived = derive_mod.derive("c", {"run": "352"}, [record], now=AT, time_limit=120)
    failed = next(p.body for p in derived.posts if p.body.get("kind") == "failed")
    assert failed["failure_reason"] == "out_of_memory"
    assert failed["peak_memory_bytes"] == 184696832
    assert "killed past its memory, peak 176 MiB" in failed["note"]


def test_a_kill_is_not_out_of_memory_without_slurmstepds_line():
    assert memory_kill("slurmstepd: error: *** JOB 9 ON n1 CANCELLED AT 2026-12-07 ***") is None
    assert memory_kill("exceeded memory limit (5 > 4), being killed\nagain (x)") == (5, 4)
