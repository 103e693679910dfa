"""Demo job descriptions for `load_demo`: one job in each state of the review flow."""

import copy

from . import jobformat, services
from .models import JobDescription
from .runs import dispatch, simulator

NIGHTLY_SBATCH = """#!/bin/bash
#SBATCH --job-name=nightly-reindex
#SBATCH --nodes=2
#SBATCH --gres=gpu:a100:8
#SBATCH --time=06:00:00
#SBATCH --requeue
srun python reindex.py --since yesterday
"""

# A CPU-only SkyPilot task whose buckets are read, written and used for checkpoints.
TOKENIZE_SKYPILOT = """name: tokenize-transcripts
resources:
  cpus: 32+
  memory: 128+
  disk_size: 2TB
envs:
  SRC: s3://northwind-transcripts/2027-q1
  OUT_BUCKET: northwind-tokens
file_mounts:
  /transcripts: ${SRC}
  /tokens:
    name: ${OUT_BUCKET}
    mode: MOUNT
  /ckpt:
    name: northwind-tokenize-ckpt
    mode: MOUNT
run: |
  python tokenize.py --in /transcripts --out /tokens --state-dir /ckpt
"""


def _example(**changes):
    data = copy.deepcopy(jobformat.example_data())
    for path, value in changes.items():
        node = data
        *parents, last = path.split("__")
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[last] = value
    return data


def small_slurm_job(name, command="sleep 3", *, gpus=2, staging=True, **request):
    """A complete, exact description that runs in seconds on the local Slurm cluster
    (`make slurm`): the demo's job to dispatch, and the Slurm tests' jobs."""
    data = _example(name=name, work__command=command, work__shape="gang", work__amount="1 test-run")
    data["work"].pop("shards")
    data["data"]["inputs"][0].update(size="2 GB", objects=1)
    data["data"].update(scratch="10 GB", stage_before_rent=staging)
    data["request"] = {
        "accelerators": [{"type": "H100-80GB", "count": gpus}],
        "nodes": 1,
        "cpus_per_node": 1,
        "memory_per_node": "1 GiB",
        "estimate": "1 min",
        "maximum": "5 min",
        "no_deadline": True,
        "less_compute": "wait",
        "preemptible": True,
        "checkpoint_interval": "1 min",
        "checkpoint_location": "file:///tmp/e31-ckpt",
        "retries": 0,
        "expected_accelerator_hours": round(gpus / 60, 4),
        **request,
    }
    data["output"]["artifacts"][0].update(size="1 GB")
    return data


# The local test cluster (`make slurm`, .ci/slurm-up: e31local, default partition e31, eight fake
# GPUs per node as gpu:h100) as staff would register it, so the sbatch export and dispatch have a
# site out of the box. Its data movers stand in for a site's copies: the local nodes share this
# machine's disk, and the demo's buckets are not real, so a dispatched demo job still gets through.
DEMO_CLUSTER = {
    "name": "e31local",
    "partition": "e31",
    "accelerator_map": {"H100-80GB": "gpu:h100"},
    "stage_command": "sleep 2 # stands in for: rclone copy {location} /scratch/$USER/{name}",
    "deliver_command": "sleep 2 # stands in for: rclone copy /scratch/$USER/out/{name} {destination}",
}


def load_cluster(*, users):
    """The demo cluster, once. Its token is not kept (it is shown once, and no one saw it):
    staff replace it on the clusters page to start the agent (docs/runs.md, "Slurm cluster")."""
    name = DEMO_CLUSTER["name"]
    # Loaded already, or the name taken by a scheduler client made by hand (create_cluster would
    # refuse it): either way the demo leaves it be rather than stop the whole load.
    if dispatch.name_taken(name):
        return
    dispatch.create_cluster(**DEMO_CLUSTER, created_by=users["staff@e31.example"])


def load_jobs(*, teams, users):
    northwind, helio = teams["northwind-vision"], teams["helio-sims"]
    ada, ben, cy = (
        users["ada@northwind.example"],
        users["ben@northwind.example"],
        users["cy@heliosims.example"],
    )
    staff = users["staff@e31.example"]
    if JobDescription.objects.filter(team__in=[northwind, helio]).exists():
        return

    # Accepted after one round of clarification, with a discussion anchored to a field.
    masks = services.create_draft(team=northwind, user=ada, data=_example())
    first = services.submit(job=masks, user=ada)
    question = services.add_comment(
        job=masks, author=staff, anchor="data.inputs.N.size",
        body="Is **2.5 TiB** the compressed size in the bucket, or what lands on disk?",
    )  # fmt: skip
    services.add_comment(
        job=masks, author=ada, parent=question, body="Compressed. On disk it is 2.75 TiB."
    )
    services.review(
        revision=first, reviewer=staff, outcome="clarify", fields=["data.inputs.0.size"],
        note="Please declare the size as it lands on scratch disk.",
    )  # fmt: skip
    masks.refresh_from_db()
    services.save_draft(
        job=masks, user=ada, version=masks.version,
        parts={"data": {**masks.data["data"], "inputs": [{**masks.data["data"]["inputs"][0], "size": "2.75 TiB"}]}},
    )  # fmt: skip
    second = services.submit(job=masks, user=ada)
    services.review(revision=second, reviewer=staff, outcome="accepted")
    masks.refresh_from_db()
    simulator.play_now(masks.run)  # the whole lifecycle, with its ledger

    # A draft imported from an sbatch script: the precision check lists what it leaves out.
    services.import_draft(team=northwind, user=ben, text=NIGHTLY_SBATCH, filename="nightly.sbatch")
    # A CPU-only job: no accelerators, counted in node-hours.
    services.import_draft(
        team=northwind, user=ben, text=TOKENIZE_SKYPILOT, filename="tokenize.yaml"
    )

    # Accepted and on the network.
    vectors = services.create_draft(
        team=northwind,
        user=ben,
        data=_example(
            name="embedding-refresh", work__kind="batch_inference", work__amount="1.2e12 tokens"
        ),
    )
    revision = services.submit(job=vectors, user=ben)
    services.review(revision=revision, reviewer=staff, outcome="accepted")
    # Half way: rented and running, its running hold still open, so the timeline and the ledger
    # grow while you watch (staff can simulate the rest; the simulator closes that same hold).
    vectors.refresh_from_db()
    simulator.play_half_way(vectors.run)

    # Waiting for review.
    review = services.create_draft(
        team=northwind,
        user=ada,
        data=_example(name="masks-v8-backfill", work__amount="3000 video-hours"),
    )
    services.submit(job=review, user=ada)

    # Helio Sims: a sweep staff asked to clarify, and a real-time API declined.
    sweep = services.create_draft(
        team=helio,
        user=cy,
        data=_example(
            name="climate-sweep-2027", work__kind="simulation_sweep", work__amount="4096 simulations",
            request__less_compute="fewer_shards",
        ),
    )  # fmt: skip
    revision = services.submit(job=sweep, user=cy)
    services.review(
        revision=revision, reviewer=staff, outcome="clarify", fields=["request.less_compute"],
        note="If shards are dropped, which ones, and is the sweep still useful?",
    )  # fmt: skip
    api = services.create_draft(
        team=helio,
        user=cy,
        data=_example(
            name="forecast-api", realtime__serves_requests=True, realtime__finishes_on_its_own=False
        ),
    )
    services.add_comment(
        job=api,
        author=cy,
        body="The forecast endpoint must answer within 200 ms. Can the network host it?",
    )
    services.add_comment(
        job=api, author=staff,
        body="No: that is real-time work and stays on your own systems. The nightly retraining behind it is a "
        "network job; describe that part alone.",
    )  # fmt: skip
    # Accepted and not run yet: staff dispatch it to a cluster (`make slurm`, README "Slurm").
    smoke = services.create_draft(
        team=northwind, user=ada, data=small_slurm_job("slurm-smoke-test", "sleep 5")
    )
    revision = services.submit(job=smoke, user=ada, acknowledge_warnings=True)
    services.review(revision=revision, reviewer=staff, outcome="accepted",
                    note="Small enough to try on a real cluster first.")  # fmt: skip
    # Declared as batch, but staff saw that it keeps a model server answering users.
    ranker = services.create_draft(
        team=helio,
        user=cy,
        data=_example(
            name="ranker-online-refresh",
            work__kind="batch_inference",
            work__summary="Refresh the ranking model and keep serving it to the app while it retrains.",
        ),
    )
    revision = services.submit(job=ranker, user=cy)
    services.review(
        revision=revision,
        reviewer=staff,
        outcome="declined",
        note="Serving the ranker to the app is real-time work: keep it on your own systems. "
        "The retraining is a network job: describe it alone and submit it again.",
    )
