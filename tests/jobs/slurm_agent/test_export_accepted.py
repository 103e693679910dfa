"""Exported scripts are accepted by a real cluster: every demo job, written for a site file
that matches the local cluster (partition e31, GRES gpu:h100), passes `sbatch --test-only`;
so does the same export without a site (GPUs by count, Slurm's default partition), while a
GRES type named after the description's model, which no cluster declares, is refused."""

import re
import subprocess
import time

import pytest

from jobs import jobformat
from jobs.demo import load_jobs
from jobs.jobformat import slurm_export
from jobs.models import JobDescription
from portal.management.commands.load_demo import Command
from tests.jobs.slurm_agent.cluster import PARTITION

pytestmark = pytest.mark.django_db

# The local cluster's eight fake GPUs stand in for every model the demo jobs ask for.
SITE_FILE = f"""\
partition: {PARTITION}
gres:
  H100-80GB: gpu:h100
  L40S: gpu:h100
  A100: gpu:h100
stage_command: "true # copy {{location}} to {{name}}"
deliver_command: "true # deliver {{name}} to {{destination}}"
"""
# Slurm's words when slurmctld is away (another suite restarts the cluster now and then).
UNREACHABLE = (
    "Unable to contact slurm controller",
    "Socket timed out",
    "Zero Bytes were transmitted",
)


def sbatch_test_only(path, timeout=180):
    """`sbatch --test-only` on one script: (accepted, what sbatch said). Waits out a restart."""
    deadline = time.monotonic() + timeout
    while True:
        done = subprocess.run(["sbatch", "--test-only", str(path)], capture_output=True,
                              text=True, timeout=60)  # fmt: skip
        said = (done.stdout + done.stderr).strip()
        if not any(word in said for word in UNREACHABLE) or time.monotonic() > deadline:
            return done.returncode == 0, said
        time.sleep(5)


def partition_size():
    """The smallest node of the partition and how many there are, as sinfo reports them."""
    out = subprocess.run(["sinfo", "-h", "-p", PARTITION, "-o", "%D|%c|%m|%G|%l|%d"],
                         capture_output=True, text=True, timeout=30, check=True).stdout  # fmt: skip
    rows = [line.split("|") for line in out.split()]
    gpus = [int(m.group(1)) for r in rows if (m := re.search(r"gpu:h100:(\d+)", r[3]))]
    limit = rows[0][4]
    days, _, clock = limit.rpartition("-")
    h, m, s = (int(x) for x in clock.split(":"))
    return {
        "nodes": sum(int(r[0]) for r in rows),
        "cpus": min(int(r[1]) for r in rows),
        "memory_mb": min(int(r[2]) for r in rows),
        "gpus": min(gpus),
        "seconds": (int(days or 0) * 86400 + h * 3600 + m * 60 + s),
        "tmp_mb": min(int(r[5]) for r in rows),
    }


def fitted(description, size):
    """The description shrunk to the partition, so what is tested is the names and options
    the export writes, not whether a demo job's 8 nodes fit a machine of 16 cores."""
    data = description.to_data()
    r, work = data.setdefault("request", {}), data.setdefault("work", {})
    d = description.request
    if d.nodes and d.nodes > size["nodes"]:
        r["nodes"] = size["nodes"]
    if d.min_nodes and d.min_nodes > size["nodes"]:
        r["min_nodes"] = size["nodes"]
    if (work.get("nodes_per_shard") or 0) > size["nodes"]:
        work["nodes_per_shard"] = size["nodes"]
    for choice in r.get("accelerators") or []:
        if choice.get("count") and choice["count"] > size["gpus"]:
            choice["count"] = size["gpus"]
    if d.cpus_per_node and d.cpus_per_node > size["cpus"]:
        r["cpus_per_node"] = size["cpus"]
    if d.memory_per_node and d.memory_per_node.exact:
        r["memory_per_node"] = (
            f"{min(d.memory_per_node.bytes // 2**20, size['memory_mb'] // 2)} MiB"
        )
    scratch = description.data.scratch
    if scratch and scratch.exact and scratch.bytes > size["tmp_mb"] * 2**20:
        data["data"]["scratch"] = f"{size['tmp_mb'] // 2} MiB"
    if d.maximum and d.maximum.exact and d.maximum.seconds > size["seconds"]:
        r["maximum"] = f"{size['seconds'] // 60} min"
    shrunk, issues = jobformat.load(data)
    assert not issues, issues
    return shrunk


def write(folder, exported):
    folder.mkdir()
    for script in exported.scripts:
        (folder / script.filename).write_text(script.text)
    return [folder / s.filename for s in exported.scripts]


def test_every_demo_job_exported_for_the_local_site_is_accepted_by_sbatch(tmp_path):
    teams, users = Command().load_accounts()
    load_jobs(teams=teams, users=users)
    site = slurm_export.load_site(SITE_FILE.encode(), "local.yaml")
    size = partition_size()
    records = list(JobDescription.objects.order_by("pk"))
    assert len(records) >= 8  # every state of the demo's review flow

    refused, checked, typed = [], 0, 0
    for record in records:
        description = fitted(record.as_description(), size)
        for kind, exported in (("site", slurm_export.export(description, site)),
                               ("no-site", slurm_export.export(description))):  # fmt: skip
            if kind == "site":
                assert not exported.to_set, (record.name, exported.to_set)
            for path in write(tmp_path / f"{record.pk}-{kind}", exported):
                text = path.read_text()
                if kind == "site":
                    assert f"#SBATCH --partition={PARTITION}" in text
                typed += "--gres=gpu:h100:" in text
                accepted, said = sbatch_test_only(path)
                checked += 1
                if not accepted:
                    refused.append(f"{record.name} {kind} {path.name}: {said}")
    assert not refused, "\n".join(refused)
    assert checked >= 2 * len(records) and typed >= 3  # GPU jobs asked for the site's type


def test_a_gres_type_no_cluster_declares_is_refused_so_the_export_does_not_write_one(tmp_path):
    # What every exported demo job asked for before site files: the model's own name.
    script = tmp_path / "typed.sbatch"
    script.write_text(f"#!/bin/bash\n#SBATCH --partition={PARTITION}\n"
                      "#SBATCH --gres=gpu:H100-80GB:1\n#SBATCH --time=1\ntrue\n")  # fmt: skip
    accepted, said = sbatch_test_only(script)
    assert not accepted and said
