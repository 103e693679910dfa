"""What the cluster saw: usage read from sacct's recorded text (MaxRSS, TotalCPU, ReqMem,
Timelimit, AllocCPUS), each ending classed by its cause, and the figures, sentences and
notices the portal makes of them. The real cluster's side is tests/jobs/slurm_agent/."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.utils import timezone

from findings.insights import figures as insight_figures
from jobs.runs import ledger, observed, services
from jobs.runs.models import Event, Run, RunOutcome
from jobs.slurm_agent import derive as derive_mod
from jobs.slurm_agent.slurm import (
    host_count,
    parse_bytes,
    parse_cpu_time,
    parse_req_mem,
    parse_sacct,
)
from portal.errors import DomainError
from portal.models import Notice

# Recorded on the local cluster (.ci/slurm-up: jobacct_gather/linux, OverMemoryKill) with the
# agent's SACCT_FIELDS: a job that allocated 116 MiB against --mem=100M, a CPU-bound loop
# cut by `timeout 4` (exit 124), and a `sleep 4`.
RECORDED = """\
1|1|hog.sh|FAILED|2026-12-07T02:38:26|2026-12-07T02:38:27|2026-12-07T02:38:29|2|0:9|vm|1|billing=1,cpu=1,mem=100M,node=1|None||00:00.003|100M|00:01:00|1|
1.batch|1.batch|batch|CANCELLED by 0|2026-12-07T02:38:27|2026-12-07T02:38:27|2026-12-07T02:38:29|2|0:9|vm|1|cpu=1,mem=100M,node=1||116112K|00:00.003|||1|cpu=00:00:00,energy=0,fs/disk=1694089,mem=116112K,pages=6,vmem=123368K
2|2|cpu.sh|FAILED|2026-12-07T02:38:26|2026-12-07T02:38:27|2026-12-07T02:38:31|4|124:0|vm|1|billing=1,cpu=1,mem=500M,node=1|None||00:03.398|500M|00:01:00|1|
2.batch|2.batch|batch|FAILED|2026-12-07T02:38:27|2026-12-07T02:38:27|2026-12-07T02:38:31|4|124:0|vm|1|cpu=1,mem=500M,node=1||6264K|00:03.398|||1|cpu=00:00:03,energy=0,fs/disk=19031,mem=6264K,pages=0,vmem=9880K
3|3|idle.sh|COMPLETED|2026-12-07T02:38:26|2026-12-07T02:38:27|2026-12-07T02:38:31|4|0:0|vm|1|billing=1,cpu=1,mem=500M,node=1|None||00:00.004|500M|00:01:00|1|
3.batch|3.batch|batch|COMPLETED|2026-12-07T02:38:27|2026-12-07T02:38:27|2026-12-07T02:38:31|4|0:0|vm|1|cpu=1,mem=500M,node=1||4656K|00:00.004|||1|cpu=00:00:00,energy=0,fs/disk=14896,mem=4656K,pages=0,vmem=7280K
"""


def ending(job_id, records=None, **options):
    records = parse_sacct(RECORDED) if records is None else records
    derived = derive_mod.derive("c", {"run": job_id}, records, **options)
    return [p.body for p in derived.posts if p.what == "event"][-1]


def test_sacct_sizes_and_cpu_times_are_read():
    assert parse_bytes("116112K") == 116112 * 1024 and parse_bytes("1.50G") == 3 * 2**29
    assert parse_bytes("") is None and parse_bytes("0") == 0
    assert parse_cpu_time("00:03.398") == pytest.approx(3.398)
    assert parse_cpu_time("1-02:03:04") == 86400 + 7384 and parse_cpu_time("") is None
    assert parse_req_mem("100M", 1, 1) == 100 * 2**20
    assert parse_req_mem("500Mc", 4, 2) == 1000 * 2**20  # per CPU: 4 CPUs on 2 nodes
    [one, step] = [r for r in parse_sacct(RECORDED) if r.job_id == "1"]
    assert (one.max_rss, step.max_rss) == (None, 116112 * 1024)
    assert step.state == "CANCELLED" and step.cancelled_by == "0"
    assert one.time_limit == 60 and one.cpus == 1 and one.req_mem == 100 * 2**20


def test_a_step_killed_past_its_memory_is_out_of_memory_with_its_peak():
    # OverMemoryKill: sacct says FAILED 0:9, not OUT_OF_MEMORY; the peak past ReqMem says why.
    failed = ending("1")
    assert failed["kind"] == "failed" and failed["failure_reason"] == "out_of_memory"
    assert failed["peak_memory_bytes"] == 116112 * 1024
    assert failed["memory_requested_bytes"] == 100 * 2**20
    assert failed["signal"] == 9
    assert failed["exit_reason"] == "FAILED (killed past its memory, peak 113 MiB)"
    # The kernel's OOM killer in a cgroup is said as OUT_OF_MEMORY by Slurm itself.
    line = RECORDED.splitlines()[2].replace("|FAILED|", "|OUT_OF_MEMORY|")
    assert ending("2", parse_sacct(line))["failure_reason"] == "out_of_memory"


def test_cpu_time_against_cpus_held_and_an_exit_code():
    busy = ending("2")
    assert busy["failure_reason"] == "exit_code" and busy["exit_code"] == 124
    assert busy["cpu_seconds"] == pytest.approx(3.398) and busy["cpu_held_seconds"] == 4
    idle = ending("3")
    assert idle["kind"] == "released"
    [output] = [
        p.body for p in derive_mod.derive("c", {"run": "3"}, parse_sacct(RECORDED)).posts
        if p.body.get("kind") == "output"
    ]  # fmt: skip
    assert output["cpu_seconds"] == pytest.approx(0.004) and output["elapsed_seconds"] == 4
    assert output["time_limit_seconds"] == 60 and output["tres_allocated"].startswith("billing")


def test_a_cancel_names_who_asked():
    line = RECORDED.splitlines()[4].replace("|COMPLETED|", "|CANCELLED by 0|")
    records = parse_sacct(line)
    assert ending("3", records, cancel_by="partner")["cancelled_by"] == "partner"
    assert ending("3", records, cancel_by="staff")["cancelled_by"] == "staff"
    cluster = ending("3", records)
    assert cluster["cancelled_by"] == "cluster" and "by uid 0" in cluster["note"]


def test_a_preempted_array_task_counts_a_restart():
    gres = "billing=1,cpu=1,gres/gpu:h100=1,gres/gpu=1,node=1"
    lines = [
        f"20_0|21|e31-k-run|COMPLETED|2027-01-01T10:00:00|2027-01-01T10:00:01|2027-01-01T10:00:05|4|0:0|vm|1|{gres}|None",
        f"20_1|20|e31-k-run|PREEMPTED|2027-01-01T10:00:00|2027-01-01T10:00:01|2027-01-01T10:00:03|2|0:0|vm|1|{gres}|None",
        f"20_1|20|e31-k-run|COMPLETED|2027-01-01T10:00:00|2027-01-01T10:00:06|2027-01-01T10:00:09|3|0:0|vm|1|{gres}|None",
    ]  # fmt: skip
    derived = derive_mod.derive("c", {"run": "20"}, parse_sacct("\n".join(lines)))
    kinds = [p.body["kind"] for p in derived.posts if p.what == "event"]
    assert kinds == ["rented", "running", "preempted", "running", "output", "released"]


# Recorded on the four-node cluster: a two-node gang whose second node was lost after 3 s.
NODE_LOST = (
    "8|8|e31-k-run|NODE_FAIL|2026-12-07T05:52:47|2026-12-07T05:52:48|2026-12-07T05:52:51|3|0:0|"
    "e31-n[1-2]|2|billing=2,cpu=2,gres/gpu:h100=4,gres/gpu=4,mem=1000M,node=2|None"
)


def test_a_gang_is_named_by_all_its_nodes_once_slurmdbd_has_them():
    assert [host_count(t) for t in ("e31-n1", "e31-n[1-2]", "n[1-2,4],gpu7", "r[1-2]-n[01-04]")] == [
        1, 2, 4, 8,
    ]  # fmt: skip
    assert host_count("") == 0 and host_count("n[a-b]") == 0
    # Seen on the four-node cluster: NNodes 2 but the first node alone, for a few seconds.
    early = NODE_LOST.replace("NODE_FAIL", "RUNNING").replace("|e31-n[1-2]|", "|e31-n1|")
    assert derive_mod.derive("c", {"run": "8"}, parse_sacct(early)).posts == []
    running = derive_mod.derive(
        "c", {"run": "8"}, parse_sacct(early.replace("|e31-n1|", "|e31-n[1-2]|"))
    )
    assert "running on e31-n[1-2] (2 nodes" in running.posts[-2].body["note"]
    # An ended gang waits for its whole list, at most a minute after its end.
    ended = parse_sacct(NODE_LOST.replace("|e31-n[1-2]|", "|e31-n1|"))
    end = datetime(2026, 12, 7, 5, 52, 51, tzinfo=UTC)
    assert derive_mod.derive("c", {"run": "8"}, ended, now=end + timedelta(seconds=5)).posts == []
    assert derive_mod.derive("c", {"run": "8"}, ended, now=end + timedelta(seconds=61)).ended


def test_a_lost_node_ends_the_run_unless_it_was_submitted_with_requeue():
    records = parse_sacct(NODE_LOST)
    lost = derive_mod.derive("c", {"run": "8"}, records)
    failed = lost.posts[-1].body
    assert lost.ended and failed["failure_reason"] == "node_failure"
    assert "NODE_FAIL" in failed["note"] and "e31-n[1-2]" in failed["note"]

    # With --requeue Slurm runs it again: the lost attempt is a restart, not the end.
    again = derive_mod.derive("c", {"run": "8"}, records, requeueable=True)
    assert not again.ended
    assert [p.body["kind"] for p in again.posts if p.what == "event"] == [
        "rented", "running", "preempted",
    ]  # fmt: skip
    [hold] = [p.body for p in again.posts if p.what == "hold"]
    assert hold["count"] == 4 and hold["ended_at"] == "2026-12-07T05:52:51Z"
    second = (
        "8|8|e31-k-run|COMPLETED|2026-12-07T05:52:47|2026-12-07T05:54:53|2026-12-07T05:54:58|5|0:0|"
        "e31-n[2-3]|2|billing=2,cpu=2,gres/gpu:h100=4,gres/gpu=4,mem=1000M,node=2|None"
    )
    done = derive_mod.derive("c", {"run": "8"}, parse_sacct(NODE_LOST + "\n" + second))
    kinds = [p.body["kind"] for p in done.posts if p.what == "event"]
    assert done.ended and kinds.count("preempted") == 1 and kinds[-1] == "released"


# --- the portal's side ---------------------------------------------------------------------


def test_short_jobs_are_held_in_minutes_not_zero_hours():
    assert ledger.say_hours(66 / 3600) == "1.1 min" and ledger.say_hours(2 * 66 / 3600) == "2.2 min"
    assert ledger.say_hours(40 / 3600) == "40 s" and ledger.say_hours(0.5) == "30 min"
    assert ledger.say_hours(1.04) == "1.0 h" and ledger.say_hours(1600) == "1,600.0 h"
    assert ledger.say_hours(None) == "—" and ledger.say_hours(-0.25) == "-15 min"


pytestmark = pytest.mark.django_db


def post(run, kind, minutes, key, **extra):
    at = timezone.now().replace(microsecond=0) - timedelta(hours=1) + timedelta(minutes=minutes)
    return services.record_event(run=run, kind=kind, occurred_at=at, idempotency_key=key, **extra)


USED = {
    "elapsed_seconds": 7200, "time_limit_seconds": 7200, "memory_requested_bytes": 512 * 2**30,
    "peak_memory_bytes": 56 * 2**30, "cpus_allocated": 64, "cpu_seconds": 64 * 7200 * 0.05,
    "cpu_held_seconds": 64 * 7200, "exit_code": 0, "signal": 0,
}  # fmt: skip


def test_a_run_killed_at_its_time_limit_is_said_by_its_cause(
    run, a_member, django_capture_on_commit_callbacks
):
    post(run, "rented", 0, "r")
    post(run, "running", 1, "g")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        post(run, "failed", 30, "f", failure_reason="time_limit", observed=USED)
    run.refresh_from_db()
    assert run.failure_reason == "time_limit" and run.get_failure_reason_display() == (
        "Killed at its time limit"
    )
    said = f"{run.job} was killed at its time limit after 2h: it declared 36h."
    assert Notice.objects.filter(user=a_member, message=said).exists()
    assert {m.subject for m in mail.outbox} == {said}
    result = observed.compute(run, events=list(run.events.all()), holds=[])
    by = {f.key: f for f in result.figures}
    assert by["memory"].sentence == "Used 11 % of the 512 GiB it declared per node."
    assert by["memory"].finding == {
        "kind": "ambiguous_description",
        "field": "request.memory_per_node",
    }
    assert (
        by["cpu"].observed_text == "5 %" and by["cpu"].finding["field"] == "request.cpus_per_node"
    )
    assert by["time_limit"].sentence == "Killed at its time limit after 2h: it declared 36h."
    assert by["accelerator_use"].sentence == "Accelerator use: not measured on this cluster."
    outcome = RunOutcome.objects.get(run=run)
    assert outcome.failure_reason == "time_limit"
    assert outcome.memory_ratio == pytest.approx(56 / 512, abs=1e-3)
    assert outcome.cpu_efficiency == pytest.approx(0.05) and outcome.time_limit_ratio == 1.0
    # Staff insights: the ratios' distributions per work kind.
    [kind] = insight_figures.outcomes()["kinds"]
    by_metric = {m["metric"]: m for m in kind["metrics"]}
    assert by_metric["memory_ratio"]["median"] == 0.11
    assert {b["key"]: b["runs"] for b in by_metric["cpu_efficiency"]["bands"]}["under_half"] == 1
    assert by_metric["time_limit_ratio"]["median"] == 1.0


def test_out_of_memory_and_a_cancel_say_the_peak_and_who(run, accepted_run, small_job, team_a,
                                                         a_member, staff):  # fmt: skip
    post(run, "rented", 0, "r")
    post(run, "failed", 5, "f", failure_reason="out_of_memory",
         observed={**USED, "peak_memory_bytes": 600 * 2**30})  # fmt: skip
    run.refresh_from_db()
    assert Notice.objects.filter(
        user=a_member, message=f"{run.job} ran out of memory: its peak was 600 GiB against the "
        "512 GiB it declared per node.",
    ).exists()  # fmt: skip
    other = accepted_run(team_a, a_member, staff, small_job("cancelled-by-cluster"))
    post(other, "rented", 0, "r")
    post(other, "cancelled", 1, "c", observed={"cancelled_by": "cluster"})
    other.refresh_from_db()
    assert other.cancelled_by == "cluster"
    assert Notice.objects.filter(message=f"{other.job} was cancelled by the cluster.").exists()
    by_hand = accepted_run(team_a, a_member, staff, small_job("cancelled-by-staff"))
    services.move_by_hand(run=by_hand, kind="cancelled", actor=staff, note="stop")
    assert Run.objects.get(pk=by_hand.pk).cancelled_by == "staff"


def test_usage_values_are_checked():
    with pytest.raises(DomainError, match="peak_memory_bytes"):
        observed.clean_observed({"peak_memory_bytes": -1})
    with pytest.raises(DomainError, match="cancelled_by"):
        observed.clean_observed({"cancelled_by": "gremlins"})
    assert observed.clean_observed({"cpu_seconds": 3})["cpu_seconds"] == 3.0


def test_a_run_nobody_measured_has_no_usage_figures(run):
    post(run, "rented", 0, "r")
    result = observed.compute(run, events=list(Event.objects.filter(run=run)), holds=[])
    assert not {"memory", "cpu", "time_limit"} & {f.key for f in result.figures}


def test_the_end_waits_for_the_batch_steps_peak_a_minute_at_most():
    # slurmdbd has the allocation's FAILED 0:9 before its batch step's MaxRSS: posting then
    # would class a job killed past its memory as an exit code, for good.
    allocation = [r for r in parse_sacct(RECORDED) if r.job_id == "1" and not r.step]
    ended = datetime(2026, 12, 7, 2, 38, 29, tzinfo=UTC)
    soon = derive_mod.derive("c", {"run": "1"}, allocation, now=ended + timedelta(seconds=5))
    assert "failed" not in [p.body.get("kind") for p in soon.posts] and not soon.ended
    late = derive_mod.derive("c", {"run": "1"}, allocation, now=ended + timedelta(seconds=90))
    assert [p.body for p in late.posts][-1]["failure_reason"] == "exit_code"
    full = parse_sacct(RECORDED)
    now = derive_mod.derive("c", {"run": "1"}, full, now=ended + timedelta(seconds=1))
    assert [p.body for p in now.posts][-1]["failure_reason"] == "out_of_memory"
