"""Clusters and dispatch without a cluster: the checks, the pages, the agent's API and the
agent's pure parts (what sacct prints -> what is posted)."""

import ast
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.urls import reverse

from jobs.runs import dispatch as dispatch_mod
from jobs.runs.models import Dispatch, Event
from jobs.runs.services import create_client
from jobs.slurm_agent import derive as derive_mod
from jobs.slurm_agent.slurm import gpus_in, parse_limit, parse_sacct
from portal.errors import DomainError

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def cluster(db):
    cluster, token = dispatch_mod.create_cluster(
        name="local", partition="e31", accelerator_map={"H100-80GB": "gpu:h100"}
    )
    dispatch_mod.report_partition(cluster=cluster, nodes=1, cpus_per_node=16,
                                  memory_per_node_mb=16000, tmp_disk_per_node_mb=100000,
                                  gres_per_node={"gpu:h100": 8}, max_time_seconds=7200)  # fmt: skip
    cluster.refresh_from_db()
    cluster.token = token
    return cluster


@pytest.mark.parametrize(
    "request_changes, message",
    [
        (
            {"accelerators": [{"type": "MI300X", "count": 8}]},
            "local has H100-80GB; this job asks for MI300X",
        ),
        (
            {"accelerators": [{"type": "H100-80GB", "count": 16}]},
            "16 × H100-80GB per node; nodes of e31 have 8",
        ),
        ({"nodes": 4}, "The job needs 4 nodes; e31 has 1"),
        ({"maximum": "3h"}, "The time limit (3h) is above the partition's (02:00:00)"),
        ({"memory_per_node": "64 GiB"}, "64 GiB of memory per node; nodes have 16000 MiB"),
    ],
    ids=["accelerator-type", "accelerators-per-node", "nodes", "time-limit", "memory"],
)
def test_a_job_the_cluster_cannot_run_is_refused_and_nothing_is_dispatched(
    team_a, a_member, staff, cluster, request_changes, message, accepted_run, small_job
):
    run = accepted_run(team_a, a_member, staff, small_job("too-big", **request_changes))
    with pytest.raises(DomainError, match=message.replace("(", r"\(").replace(")", r"\)")):
        dispatch_mod.dispatch(run=run, cluster=cluster, actor=staff)
    assert not Dispatch.objects.exists()


def test_a_later_accelerator_choice_the_cluster_has_is_used_and_said(
    team_a, a_member, staff, cluster, accepted_run, small_job
):
    run = accepted_run(team_a, a_member, staff, small_job(
        "second-choice", accelerators=[{"type": "MI300X", "count": 8}, {"type": "H100-80GB", "count": 4}]))  # fmt: skip
    record = dispatch_mod.dispatch(run=run, cluster=cluster, actor=staff)
    run_script = next(s["text"] for s in record.scripts if s["phase"] == "run")
    assert "#SBATCH --gres=gpu:h100:4" in run_script and "#SBATCH --partition=e31" in run_script
    assert "Runs on H100-80GB, the team's choice number 2." in record.notes


def test_an_accelerator_type_matches_the_clusters_whatever_its_case(
    team_a, a_member, staff, cluster, accepted_run, small_job
):
    run = accepted_run(team_a, a_member, staff, small_job(
        "lower-case", accelerators=[{"type": "h100-80gb", "count": 2}]))  # fmt: skip
    record = dispatch_mod.dispatch(run=run, cluster=cluster, actor=staff)
    run_script = next(s["text"] for s in record.scripts if s["phase"] == "run")
    assert "#SBATCH --gres=gpu:h100:2" in run_script


def test_a_cluster_whose_agent_never_reported_refuses_with_how_to_fix_it(
    team_a, a_member, staff, accepted_run, small_job
):
    silent, _ = dispatch_mod.create_cluster(name="silent", partition="gpu", accelerator_map={})
    run = accepted_run(team_a, a_member, staff, small_job("early"))
    with pytest.raises(DomainError, match="has not reported its partition yet"):
        dispatch_mod.dispatch(run=run, cluster=silent, actor=staff)


def test_the_refusal_is_shown_on_the_job_page(
    client_for, team_a, a_member, staff, cluster, accepted_run, small_job
):
    run = accepted_run(team_a, a_member, staff, small_job("page", nodes=3))
    client = client_for(staff)
    response = client.post(
        f"/jobs/{run.job_id}/run/dispatch/", {"cluster": cluster.pk}, follow=True
    )
    assert response.status_code == 200
    assert "Not dispatched: local cannot run this job: The job needs 3 nodes; e31 has 1." in (
        response.content.decode()
    )
    assert not Dispatch.objects.exists()
    # The partner does not read "Submitted (queued)": who must act, and why.
    page = client_for(a_member).get(reverse("job_detail", args=[run.job_id])).content.decode()
    assert "On the network: not sent to a cluster" in page and "Run: not sent to a cluster" in page
    assert "The job needs 3 nodes; e31 has 1." in page and "revise it" in page
    # A cluster that is not ready is staff's to fix; a dispatch that goes clears it.
    silent, _ = dispatch_mod.create_cluster(name="silent", partition="gpu", accelerator_map={})
    with pytest.raises(DomainError):
        dispatch_mod.dispatch(run=run, cluster=silent, actor=staff)
    page = client_for(a_member).get(reverse("job_detail", args=[run.job_id])).content.decode()
    assert "Waiting for staff" in page and "slurm_agent" not in page
    fits = accepted_run(team_a, a_member, staff, small_job("fits"))
    with pytest.raises(DomainError):
        dispatch_mod.dispatch(run=fits, cluster=silent, actor=staff)
    dispatch_mod.dispatch(run=fits, cluster=cluster, actor=staff)
    fits.refresh_from_db()
    assert fits.dispatch_refusal == {}


def test_staff_dispatch_from_the_review_queue_and_the_partner_sees_it(
    client_for, team_a, a_member, staff, cluster, accepted_run, small_job
):
    run = accepted_run(team_a, a_member, staff, small_job("from-queue"))
    queue = client_for(staff).get("/staff/reviews/").content.decode()
    assert "from-queue" in queue and f'action="/jobs/{run.job_id}/run/dispatch/"' in queue
    response = client_for(staff).post(
        f"/jobs/{run.job_id}/run/dispatch/", {"cluster": cluster.pk, "next": "review_queue"}
    )
    assert response.status_code == 302 and response["Location"] == "/staff/reviews/"
    page = client_for(a_member).get(f"/jobs/{run.job_id}/").content.decode()
    assert "Dispatched to <strong>local</strong>" in page and "waiting for its agent" in page
    assert "Cancel this run" in page
    listing = client_for(a_member).get("/jobs/?status=accepted").content.decode()
    assert "(real: local)" in listing


@pytest.mark.parametrize("with_clusters", [True, False])
def test_the_review_queue_offers_each_waiting_run_a_cluster(
    client_for,
    team_a,
    a_member,
    staff,
    cluster,
    with_clusters,
    django_assert_num_queries,
    accepted_run,
    small_job,
):
    from jobs.models import JobDescription as Job
    from jobs.runs.models import Cluster

    named, _ = dispatch_mod.create_cluster(name="<b>&c</b>", partition="p", accelerator_map={})
    first = accepted_run(team_a, a_member, staff, small_job("first <one>"))
    second = accepted_run(team_a, a_member, staff, small_job("second"))
    Job.objects.filter(pk=second.job_id).update(name="")  # an untitled job
    dispatch_mod.dispatch(run=first, cluster=cluster, actor=staff)
    third = accepted_run(team_a, a_member, staff, small_job("third"))
    with django_assert_num_queries(1):
        rows = dispatch_mod.ready_rows()
    assert [r["pk"] for r in rows] == [second.pk, third.pk]
    assert rows == list(dispatch_mod._ready_rows_query(50))
    if not with_clusters:
        Dispatch.objects.all().delete()
        Cluster.objects.all().delete()
    page = client_for(staff).get(reverse("review_queue")).content.decode()
    ready = page[page.index('id="ready-h"') :]
    assert f"Untitled job {second.job.number}" in ready and "third" in ready
    forms = ready.count('name="cluster"')
    assert forms == (2 if with_clusters else 0)
    if with_clusters:
        assert "first &lt;one&gt;" not in ready  # dispatched already
    assert ("&lt;b&gt;&amp;c&lt;/b&gt;" in ready) is with_clusters
    if with_clusters:
        assert f'<option value="{named.pk}">' in ready
        assert (
            f'<label for="dispatch-{third.pk}" class="visually-hidden">Cluster for third' in ready
        )


def test_a_partner_cancels_before_the_agent_submitted(
    client_for, team_a, a_member, staff, cluster, b_member, accepted_run, small_job
):
    run = accepted_run(team_a, a_member, staff, small_job("cancel-early"))
    dispatch_mod.dispatch(run=run, cluster=cluster, actor=staff)
    assert client_for(b_member).post(f"/jobs/{run.job_id}/run/cancel/").status_code == 404
    client_for(a_member).post(f"/jobs/{run.job_id}/run/cancel/")
    run.refresh_from_db()
    assert run.state == "cancelled"
    assert Dispatch.objects.get(run=run).state == "finished"
    assert Event.objects.get(run=run).actor == a_member


def test_staff_register_a_cluster_and_bad_mappings_are_explained(client_for, staff, db):
    client = client_for(staff)
    bad = client.post(
        "/staff/clusters/", {"name": "hpc", "partition": "gpu", "accelerator_map": "H100 = gpu"}
    )
    assert bad.status_code == 400 and "write it as" in bad.content.decode()
    assert 'value="hpc"' in bad.content.decode()  # nothing typed is lost
    good = client.post("/staff/clusters/", {"name": "hpc", "partition": "gpu",
                                            "accelerator_map": "H100-80GB -> gres gpu:h100\nL40S -> gpu:l40s"})  # fmt: skip
    assert good.status_code == 200 and "e31s_" in good.content.decode()
    cluster = dispatch_mod.Cluster.objects.get(name="hpc")
    assert cluster.accelerator_map == {"H100-80GB": "gpu:h100", "L40S": "gpu:l40s"}


# --- the agent's API -------------------------------------------------------------------------


def auth(token):
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def test_the_agent_pulls_its_dispatches_and_reports_slurm_ids(
    client, team_a, a_member, staff, cluster, accepted_run, small_job
):
    run = accepted_run(team_a, a_member, staff, small_job("api"))
    dispatch_mod.dispatch(run=run, cluster=cluster, actor=staff)
    listing = client.get("/api/v1/scheduler/cluster/dispatches", **auth(cluster.token)).json()
    [item] = listing["dispatches"]
    assert [s["phase"] for s in item["scripts"]] == ["staging", "run", "output"]
    url = f"/api/v1/scheduler/cluster/dispatches/{run.job_id}/submitted"
    ids = {"slurm_jobs": {"staging": "11", "run": "12", "output": "13"}}
    assert (
        client.post(url, ids, content_type="application/json", **auth(cluster.token)).json()[
            "state"
        ]
        == "submitted"
    )
    # The same ids again: fine. Other ids (a second agent): refused.
    assert (
        client.post(url, ids, content_type="application/json", **auth(cluster.token)).status_code
        == 200
    )
    other = {"slurm_jobs": {"staging": "21", "run": "22", "output": "23"}}
    refused = client.post(url, other, content_type="application/json", **auth(cluster.token))
    assert refused.status_code == 400 and "other Slurm job ids" in refused.json()["detail"]
    hostile = {"slurm_jobs": {"run": "12; rm -rf /"}}
    assert (
        client.post(
            url, hostile, content_type="application/json", **auth(cluster.token)
        ).status_code
        == 422
    )


def test_another_clusters_token_or_a_plain_scheduler_sees_nothing(
    client, team_a, a_member, staff, cluster, accepted_run, small_job
):
    run = accepted_run(team_a, a_member, staff, small_job("mine"))
    dispatch_mod.dispatch(run=run, cluster=cluster, actor=staff)
    _, other = dispatch_mod.create_cluster(name="other", partition="p", accelerator_map={})
    assert (
        client.get("/api/v1/scheduler/cluster/dispatches", **auth(other)).json()["dispatches"] == []
    )
    url = f"/api/v1/scheduler/cluster/dispatches/{run.job_id}/finished"
    assert client.post(url, {}, content_type="application/json", **auth(other)).status_code == 404
    _, plain = create_client(name="plain scheduler")
    assert client.get("/api/v1/scheduler/cluster/dispatches", **auth(plain)).status_code == 403


# --- the agent's pure parts --------------------------------------------------------------------

SACCT = """\
12|12|e31-k-run|REQUEUED|2027-01-01T10:00:00|2027-01-01T10:00:05|2027-01-01T10:01:05|60|0:0|vm|1|billing=1,cpu=1,gres/gpu:h100=2,gres/gpu=2,node=1|None
12|12|e31-k-run|COMPLETED|2027-01-01T10:01:05|2027-01-01T10:03:00|2027-01-01T10:04:00|60|0:0|vm|1|billing=1,cpu=1,gres/gpu:h100=2,gres/gpu=2,node=1|None
13|13|e31-k-output|FAILED|2027-01-01T10:00:00|2027-01-01T10:04:01|2027-01-01T10:04:03|2|2:0|vm|1|billing=1,cpu=1,node=1|None
"""


def test_sacct_lines_are_read_as_attempts():
    records = parse_sacct(SACCT)
    assert [(r.job_id, r.state, r.gpus, r.gres) for r in records] == [
        ("12", "REQUEUED", 2, "gpu:h100"), ("12", "COMPLETED", 2, "gpu:h100"), ("13", "FAILED", 0, ""),
    ]  # fmt: skip
    assert records[0].start == datetime(2027, 1, 1, 10, 0, 5, tzinfo=UTC)
    assert records[2].exit_code == 2
    assert parse_limit("2-00:00:00") == 172800 and parse_limit("UNLIMITED") is None
    assert gpus_in("cpu=1,node=1") == (0, "")


def test_records_become_the_lifecycle_with_stable_keys():
    records = parse_sacct(SACCT)
    derived = derive_mod.derive("c", {"run": "12", "output": "13"}, records, requeueable=True)
    events = [(p.body["kind"], p.body["occurred_at"]) for p in derived.posts if p.what == "event"]
    assert events == [
        ("rented", "2027-01-01T10:00:05Z"), ("running", "2027-01-01T10:00:05Z"),
        ("preempted", "2027-01-01T10:01:05Z"), ("rented", "2027-01-01T10:03:00Z"),
        ("running", "2027-01-01T10:03:00Z"), ("output", "2027-01-01T10:04:00Z"),
        ("failed", "2027-01-01T10:04:03Z"),
    ]  # fmt: skip
    holds = [p.body for p in derived.posts if p.what == "hold"]
    assert [(h["started_at"], h["ended_at"], h["count"]) for h in holds] == [
        ("2027-01-01T10:00:05Z", "2027-01-01T10:01:05Z", 2),
        ("2027-01-01T10:03:00Z", "2027-01-01T10:04:00Z", 2),
    ]
    assert derived.ended and not derived.unfinished
    again = derive_mod.derive("c", {"run": "12", "output": "13"}, list(reversed(records)), True)
    assert [p.key for p in again.posts] == [p.key for p in derived.posts]


def test_a_timeout_is_said_as_the_time_limit_not_as_exit_code_0():
    # Slurm records a job killed at its time limit as TIMEOUT with ExitCode 0:0; the note
    # said "TIMEOUT (exit code 0)", which reads as a command that succeeded.
    line = "14|14|e31-k-run|TIMEOUT|2027-01-01T10:00:00|2027-01-01T10:00:05|2027-01-01T10:01:11|66|0:0|vm|1|billing=1,cpu=1,gres/gpu:h100=2,gres/gpu=2,node=1|None"
    derived = derive_mod.derive("c", {"run": "14"}, parse_sacct(line))
    [failed] = [p.body for p in derived.posts if p.what == "event" and p.body["kind"] == "failed"]
    assert "TIMEOUT (killed at its time limit after 66 s)" in failed["note"]
    assert "exit code" not in failed["note"]
    assert failed["exit_reason"] == "TIMEOUT (killed at its time limit after 66 s)"


def test_the_agent_needs_only_the_standard_library():
    """It runs on a login node with a bare python3: no Django, no portal, no third party."""
    folder = ROOT / "jobs" / "slurm_agent"
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in __import__("sys").stdlib_module_names, f"{path.name} imports {name}"


def test_a_failed_run_is_dispatched_again_only_by_staff_once_its_agent_is_done(
    client, client_for, team_a, a_member, staff, cluster, accepted_run, small_job
):
    run = accepted_run(team_a, a_member, staff, small_job("again"))
    record = dispatch_mod.dispatch(run=run, cluster=cluster, actor=staff)
    url = f"/api/v1/scheduler/jobs/{run.job_id}/events"
    failed = {"kind": "failed", "occurred_at": run.created_at.isoformat(), "idempotency_key": "f",
              "failure_reason": "exit_code", "exit_code": 3}  # fmt: skip
    answer = client.post(url, failed, content_type="application/json", **auth(cluster.token))
    assert answer.status_code == 200
    # A scheduler may not queue it again: that is staff's.
    again = {**failed, "kind": "redispatched", "idempotency_key": "r"}
    answer = client.post(url, again, content_type="application/json", **auth(cluster.token))
    assert answer.status_code == 422
    run.refresh_from_db()
    with pytest.raises(DomainError, match="has not finished"):
        dispatch_mod.dispatch(run=run, cluster=cluster, actor=staff)
    dispatch_mod.mark_finished(dispatch=record)
    page = client_for(staff).get(reverse("job_detail", args=[run.job_id])).content.decode()
    assert "How it ended:</strong> again failed with exit code 3." in page
    assert "Dispatch it again" in page
    record = dispatch_mod.dispatch(run=run, cluster=cluster, actor=staff)
    run.refresh_from_db()
    assert run.state == "submitted" and run.failure_reason == "" and record.state == "waiting"
    assert record.earlier[0]["failure_reason"] == "exit_code" and record.slurm_jobs == {}
    page = client_for(a_member).get(reverse("job_detail", args=[run.job_id])).content.decode()
    assert "Earlier attempts" in page and "failed, ended with an error" in page


def test_the_job_page_of_a_dispatched_run_reads_it_with_the_job(
    client_for, team_a, a_member, staff, cluster, accepted_run, small_job, django_assert_num_queries
):
    run = accepted_run(team_a, a_member, staff, small_job("on-the-cluster"))
    dispatch_mod.dispatch(run=run, cluster=cluster, actor=staff)
    url = f"/jobs/{run.job_id}/"
    for viewer, queries in ((client_for(a_member), 9), (client_for(staff), 9)):
        viewer.get(url)  # marks it read
        # Session, user, memberships, the job with its run, dispatch and cluster (and, for
        # staff, its team), the comments, events, holds, revisions with reviews, history.
        with django_assert_num_queries(queries):
            page = viewer.get(url).content.decode()
        assert "Dispatched to <strong>local</strong> (Slurm partition <code>e31</code>)" in page
        assert "waiting for its agent to submit it" in page and ">real: local</span>" in page
        assert f"{team_a.name}</p>" in page  # the breadcrumb names the team
