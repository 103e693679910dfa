"""Export to sbatch: the script set, the notes, and the round trip import(export(d))."""

import json

import pytest
from django.core.management import call_command

from jobs import jobformat, services
from jobs.jobformat import slurm_export
from jobs.jobformat.slurm_export import Site

GANG = {
    "name": "bert-pretrain",
    "work": {
        "kind": "training",
        "command": "srun python train.py --config big.yaml",
        "setup": "pip install -r requirements.txt\nmkdir -p /scratch/ckpt",
        "shape": "gang",
    },
    "data": {"no_inputs": True, "scratch": "200 GiB"},
    "request": {
        "accelerators": [{"type": "H100-80GB", "count": 8}, {"type": "A100-80GB", "count": 8}],
        "nodes": 4,
        "min_nodes": 2,
        "cpus_per_node": 96,
        "memory_per_node": "1 TiB",
        "estimate": "20h",
        "maximum": "1d 6h",
        "earliest_start": "2027-03-01T09:00Z",
        "deadline": "2027-03-04T18:30Z",
        "preemptible": False,
    },
    "output": {"artifacts": [{"name": "weights", "destination": "s3://team/weights/"}]},
}

CHAIN = {
    **GANG,
    "name": "long-pretrain",
    "work": {**GANG["work"], "shape": "chain", "chain_runs": 6},
    "request": {**GANG["request"], "node_features": ["ib", "nvlink"], "cpus_per_node": 95.5},
}

# What an sbatch script can carry, and so what must come back from import(export(d)).
CARRIED = [
    "name",
    "work.command",
    "work.setup",
    "work.shape",
    "work.shards",
    "work.chain_runs",
    "request.node_features",
    "data.scratch",
    "request.accelerators.0.type",
    "request.accelerators.0.count",
    "request.nodes",
    "request.min_nodes",
    "request.cpus_per_node",
    "request.memory_per_node",
    "request.maximum",
    "request.earliest_start",
    "request.deadline",
    "request.preemptible",
]


def value(description, path):
    node = description
    for part in path.split("."):
        if node is None:
            return None
        node = node[int(part)] if part.isdigit() else getattr(node, part, None)
    # Quantities compare by their canonical value (48h and 2d are the same limit).
    return getattr(node, "value", node)


def round_trip(data):
    description, _ = jobformat.load(data)
    exported = slurm_export.export(description)
    [result] = jobformat.import_text(exported.script("run").text, "sbatch")
    return description, result.description, exported


@pytest.mark.parametrize(
    "data",
    [GANG, CHAIN, jobformat.example_data()],
    ids=["gang-with-setup", "chain-with-features", "shipped-example-shards"],
)
def test_import_of_export_keeps_every_field_sbatch_carries(data):
    original, back, exported = round_trip(data)
    carried = CARRIED
    if original.request.cpus_per_node != int(original.request.cpus_per_node):
        carried = [p for p in carried if p != "request.cpus_per_node"]  # rounded up, said
        assert any("Slurm allocates whole ones, so 96" in n for n in exported.notes)
    if original.work.shape == "shards":
        # An array has no minimum of shards running at once: a note says so.
        carried = [p for p in carried if p != "request.min_nodes"]
        assert any(n.startswith("min_nodes") for n in exported.notes)
        # The nodes at once travel as the array's %N limit, which the import keeps as a
        # note: a real array's limit says how many shards may run, not nodes it needs.
        carried = [p for p in carried if p != "request.nodes"]
        limit = original.request.nodes // (original.work.nodes_per_shard or 1)
        assert any(n.startswith(f"--array limit %{limit}") for n in back_notes(data))
    for path in carried:
        assert value(back, path) == value(original, path), path


def back_notes(data):
    description, _ = jobformat.load(data)
    exported = slurm_export.export(description)
    [result] = jobformat.import_text(exported.script("run").text, "sbatch")
    return result.notes


def test_a_gang_is_one_allocation_with_a_node_range_and_gres():
    _, _, exported = round_trip(GANG)
    run = exported.script("run").text
    assert "#SBATCH --nodes=2-4" in run
    assert "#SBATCH --gres=gpu:H100-80GB:8" in run
    assert "#SBATCH --time=1-06:00:00" in run
    assert "#SBATCH --begin=2027-03-01T09:00:00" in run
    assert "#SBATCH --deadline=2027-03-04T18:30:00" in run
    assert "#SBATCH --no-requeue" in run
    assert "#SBATCH --mem=1048576M" in run
    assert "--array" not in run
    # No inputs: no staging job; the output job waits for the run.
    assert [s.phase for s in exported.scripts] == ["run", "output"]
    assert exported.script("output").after == "run"


def test_shards_are_an_array_with_the_nodes_as_concurrency_and_staging_its_own_job():
    _, _, exported = round_trip(jobformat.example_data())
    assert [s.phase for s in exported.scripts] == ["staging", "run", "output"]
    run = exported.script("run")
    assert "#SBATCH --array=0-479%8" in run.text and "#SBATCH --requeue" in run.text
    assert run.after == "staging"
    assert "--gres" not in exported.script("staging").text  # staged before accelerators are rented
    submit = exported.submit_script()
    assert "run=$(sbatch --parsable --dependency=afterok:${staging} 10-run.sbatch)" in submit
    assert "output=$(sbatch --parsable --dependency=afterok:${run} 20-output.sbatch)" in submit


def test_what_sbatch_cannot_say_is_listed_as_notes():
    _, _, exported = round_trip(jobformat.example_data())
    text = " ".join(exported.notes)
    for word in ("estimate 36h", "A100-80GB", "retries 2", "expected_accelerator_hours 1200",
                 "image ghcr.io", "retention 7d", "min_nodes 2"):  # fmt: skip
        assert word in text, word
    assert "# What the description says that sbatch cannot carry:" in exported.submit_script()


def test_a_site_names_partition_gres_and_data_commands():
    description, _ = jobformat.load(jobformat.example_data())
    site = Site(
        partition="gpu",
        gres={"L40S": "gpu:l40s"},
        stage_command="rclone copy {location} /scratch/{name}  # ${USER}",
        deliver_command="rclone copy /scratch/out/{name} {destination}",
    )
    exported = slurm_export.export(description, site)
    assert "#SBATCH --partition=gpu" in exported.script("staging").text
    assert "#SBATCH --gres=gpu:l40s:4" in exported.script("run").text
    assert "rclone copy s3://northwind-footage/2027-q1/ /scratch/footage  # ${USER}" in (
        exported.script("staging").text
    )
    assert "rclone copy /scratch/out/segmentation-masks s3://northwind-masks/v7/" in (
        exported.script("output").text
    )
    assert any("L40S runs as GRES gpu:l40s" in n for n in exported.notes)


def test_hostile_text_in_a_location_is_quoted_for_the_shell():
    data = {
        "name": "x; rm -rf /",
        "work": {"command": "true"},
        "data": {
            "inputs": [{"name": "a", "location": "s3://b/$(reboot)"}],
            "stage_before_rent": True,
        },
    }
    description, _ = jobformat.load(data)
    exported = slurm_export.export(description)
    assert "'s3://b/$(reboot)'" in exported.script("staging").text
    assert "#SBATCH --job-name=x-rm--rf" in exported.script("run").text
    # A name cannot add a line to the script.
    description, _ = jobformat.load({"name": "a\nrm -rf /", "work": {"command": "true"}})
    assert "\nrm -rf /" not in slurm_export.export(description).script("run").text


@pytest.mark.django_db
def test_cli_exports_a_stored_job_to_sbatch(tmp_path, capsys, team_a, a_member):
    job = services.create_draft(team=team_a, user=a_member, data=GANG)
    call_command("jobspec", "export", str(job.pk), "--to", "sbatch")
    assert "# ==> 10-run.sbatch <==" in capsys.readouterr().out
    call_command("jobspec", "export", str(job.pk), "--to", "sbatch", "--out", str(tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "10-run.sbatch",
        "20-output.sbatch",
        "submit.sh",
    ]
    capsys.readouterr()
    call_command("jobspec", "export", str(job.pk), "--to", "sbatch", "--json")
    payload = json.loads(capsys.readouterr().out)
    assert [s["phase"] for s in payload["scripts"]] == ["run", "output"]


@pytest.mark.django_db  # the API's rate limit counts uses in the database
def test_api_exports_a_posted_description(client):
    response = client.post("/api/v1/spec/export/sbatch", GANG, content_type="application/json")
    assert response.status_code == 200
    body = response.json()
    assert body["scripts"][0]["filename"] == "10-run.sbatch"
    assert "sbatch --parsable" in body["submit"] and body["notes"]
    bad = client.post(
        "/api/v1/spec/export/sbatch",
        {"request": {"nodes": "many"}},
        content_type="application/json",
    )
    assert bad.status_code == 400 and "nodes" in bad.json()["detail"]


@pytest.mark.django_db
def test_revision_download_as_sbatch_is_team_scoped(client_for, team_a, a_member, b_member):
    job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    revision = services.submit(job=job, user=a_member)
    url = f"/jobs/{job.pk}/revisions/{revision.number}/export.sbatch"
    response = client_for(a_member).get(url)
    assert response.status_code == 200 and b"# ==> submit.sh <==" in response.content
    assert client_for(b_member).get(url).status_code == 404
