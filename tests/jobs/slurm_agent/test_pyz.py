"""The one-file agent (`make agent`) against the real cluster: copied out of the checkout,
run from cron-style `--once` calls, it reports the partition and submits a dispatched job."""

import os
import subprocess
import time

import pytest

from jobs.runs import dispatch as dispatch_mod
from jobs.runs.models import Cluster
from jobs.slurm_agent.build import build
from tests.jobs.slurm_agent.cluster import dispatch_of

pytestmark = pytest.mark.django_db(transaction=True)


def once(pyz, cwd, url, token):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(cwd),
           "E31_AGENT_TOKEN": token}  # fmt: skip
    return subprocess.run(["python3", pyz.name, "--url", url, "--workdir", str(cwd / "work"),
                           "--once"], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)  # fmt: skip


def test_the_pyz_once_reports_then_submits_a_dispatched_job(
    tmp_path, live_server, cluster, team_a, a_member, staff, accepted_run, small_job
):
    pyz = build(tmp_path / "build" / "e31-slurm-agent.pyz")
    login_node = tmp_path / "login"
    login_node.mkdir()
    copied = login_node / pyz.name
    copied.write_bytes(pyz.read_bytes())

    first = once(copied, login_node, live_server.url, cluster.token)
    assert first.returncode == 0, first.stderr
    assert Cluster.objects.get(pk=cluster.pk).reported_at is not None

    run = accepted_run(team_a, a_member, staff, small_job("pyz-once", "sleep 1", staging=False))
    dispatch_mod.dispatch(run=run, cluster=Cluster.objects.get(pk=cluster.pk), actor=staff)
    # The agent submits a dispatch from the second after it was made (Slurm's times are whole
    # seconds): a poll within that second submits nothing, so poll again, as cron would.
    for _ in range(3):
        second = once(copied, login_node, live_server.url, cluster.token)
        assert second.returncode == 0, second.stderr
        if dispatch_of(run).slurm_jobs:
            break
        time.sleep(1)
    slurm_jobs = dispatch_of(run).slurm_jobs
    try:
        assert "run" in slurm_jobs and all(j.isdigit() for j in slurm_jobs.values())
        assert (login_node / "work").is_dir()
    finally:
        subprocess.run(["scancel", *slurm_jobs.values()], check=False, capture_output=True)
