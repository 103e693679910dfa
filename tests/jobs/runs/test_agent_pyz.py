"""The agent as one file (`make agent`): built, copied out of the checkout and run there with
a clean environment, against the live test server. No Slurm needed: the portal is asked first.
With the real cluster, tests/jobs/slurm_agent/test_pyz.py submits a job with it."""

import os
import subprocess
import zipfile

import pytest

from jobs.runs import dispatch as dispatch_mod
from jobs.slurm_agent.build import build

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="session")
def pyz(tmp_path_factory):
    return build(tmp_path_factory.mktemp("build") / "e31-slurm-agent.pyz")


def run_pyz(pyz, cwd, *args, token=None):
    """python3 on the copied file from a folder outside the checkout, without PYTHONPATH."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(cwd)}
    if token:
        env["E31_AGENT_TOKEN"] = token
    return subprocess.run(["python3", pyz.name, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60)  # fmt: skip


@pytest.fixture
def copied(pyz, tmp_path):
    target = tmp_path / pyz.name
    target.write_bytes(pyz.read_bytes())
    return target


def test_the_file_holds_the_package_and_its_deploy_files_and_nothing_of_the_portal(pyz):
    assert pyz.read_bytes().startswith(b"#!/usr/bin/env python3\n")
    names = zipfile.ZipFile(pyz).namelist()
    assert "__main__.py" in names
    assert "slurm_agent/deploy/agent.example.conf" in names
    assert "slurm_agent/deploy/e31-slurm-agent.service" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith("build.py")]
    for name in names:
        if name.endswith(".py"):
            text = zipfile.ZipFile(pyz).read(name).decode()
            for module in ("django", "jobs", "portal"):
                assert f"from {module}" not in text and f"import {module}" not in text, name


def test_help_and_the_deploy_files_from_outside_the_checkout(copied, tmp_path):
    done = run_pyz(copied, tmp_path, "--help")
    assert done.returncode == 0, done.stderr
    for flag in ("--url", "--token", "--workdir", "--once", "--partition"):
        assert flag in done.stdout
    assert run_pyz(copied, tmp_path, "--version").stdout.startswith("e31-slurm-agent ")
    config = run_pyz(copied, tmp_path, "example-config")
    assert config.returncode == 0 and "E31_AGENT_TOKEN=" in config.stdout
    unit = run_pyz(copied, tmp_path, "systemd-unit")
    assert unit.returncode == 0 and "[Service]" in unit.stdout
    assert "EnvironmentFile=" in unit.stdout and "e31-slurm-agent.pyz" in unit.stdout


def test_once_with_a_refused_token_exits_1_with_one_line(copied, tmp_path, live_server):
    done = run_pyz(copied, tmp_path, "--url", live_server.url, "--workdir", str(tmp_path / "w"),
                   "--once", token="e31s_not-a-real-token")  # fmt: skip
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: the portal refused the token (401")


def test_once_with_a_revoked_token_is_refused(copied, tmp_path, live_server, db):
    cluster, token = dispatch_mod.create_cluster(name="revoked-one", partition="gpu",
                                                 accelerator_map={})  # fmt: skip
    dispatch_mod.replace_token(cluster)
    done = run_pyz(copied, tmp_path, "--url", live_server.url, "--once", token=token)
    assert done.returncode == 1
    assert done.stderr.startswith("error: the portal refused the token")


def test_once_without_a_portal_exits_1_with_one_line(copied, tmp_path):
    done = run_pyz(copied, tmp_path, "--url", "http://127.0.0.1:9", "--once", token="e31s_x")
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("error: cannot reach the portal at http://127.0.0.1:9")
