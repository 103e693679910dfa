"""Export to sbatch: the script set, the notes, and the round trip import(export(d))."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from jobs import jobformat, services
from jobs.jobformat import cli, slurm_export
from jobs.jobformat.slurm_export import Site
from jobs.runs import dispatch

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


# A site whose GRES types are the description's own names, so the type travels too.
NAMED_AS_WRITTEN = Site(gres={"H100-80GB": "gpu:H100-80GB", "L40S": "gpu:L40S"})


def round_trip(data):
    description, _ = jobformat.load(data)
    exported = slurm_export.export(description, NAMED_AS_WRITTEN)
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
    exported = slurm_export.export(description, NAMED_AS_WRITTEN)
    [result] = jobformat.import_text(exported.script("run").text, "sbatch")
    return result.notes


def test_a_gang_is_one_allocation_with_a_node_range_and_gres():
    _, _, exported = round_trip(GANG)
    run = exported.script("run").text
    assert "#SBATCH --nodes=2-4" in run
    assert "#SBATCH --gres=gpu:H100-80GB:8" in run  # the site names its GRES so
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


def test_without_a_site_gpus_are_asked_by_count_and_the_names_to_set_are_said():
    description, _ = jobformat.load(GANG)
    exported = slurm_export.export(description)
    run = exported.script("run").text
    # No cluster declares "H100-80GB" as a GRES type: Slurm would refuse the script.
    assert "#SBATCH --gres=gpu:8\n" in run and "gpu:H100-80GB" not in run
    assert "--partition" not in run.replace("--partition=<name>", "")
    comment = [line for line in run.splitlines() if line.startswith("# e31:  - ")]
    assert any(
        "GRES type of H100-80GB" in line and "--gres=gpu:<type>:8" in line for line in comment
    )
    assert any("Slurm's default partition" in line for line in comment)
    assert exported.to_set == [line.removeprefix("# e31:  - ") for line in comment]
    assert "# Set first" in exported.submit_script()
    # Still a script sbatch's importer reads: the count comes back, the type is left open.
    [back] = jobformat.import_text(run, "sbatch")
    assert back.description.request.accelerators[0].count == 8
    assert back.description.request.accelerators[0].type is None


def test_a_site_with_every_name_leaves_nothing_to_set_and_picks_the_choice_it_has():
    description, _ = jobformat.load(GANG)
    site = Site(partition="gpu", gres={"A100-80GB": "gpu:a100"}, account="proj-7", qos="long",
                deliver_command="rclone copy out/{name} {destination}")  # fmt: skip
    exported = slurm_export.export(description, site)
    run = exported.script("run").text
    # H100-80GB is the team's first choice, but this site only has the second.
    assert "#SBATCH --gres=gpu:a100:8" in run
    assert "#SBATCH --account=proj-7" in run and "#SBATCH --qos=long" in run
    assert "#SBATCH --account=proj-7" in exported.script("output").text
    assert exported.to_set == [] and "# e31:  - " not in run
    assert any("the team's choice number 2" in n for n in exported.notes)
    assert any("Alternative accelerators (8 × H100-80GB)" in n for n in exported.notes)


SITE_YAML = """\
partition: e31
account: proj-7
gres:
  H100-80GB: gpu:h100
  A100-80GB: gpu:a100
stage_command: rclone copy {location} /scratch/$USER/{name}
deliver_command: rclone copy /scratch/$USER/out/{name} {destination}
"""

SITE_TOML = """\
partition = "e31"
account = "proj-7"
stage_command = "rclone copy {location} /scratch/$USER/{name}"
deliver_command = "rclone copy /scratch/$USER/out/{name} {destination}"

[gres]
"H100-80GB" = "gpu:h100"
"A100-80GB" = "gpu:a100"
"""


def test_a_site_file_reads_the_same_in_yaml_and_toml():
    from_yaml = slurm_export.load_site(SITE_YAML.encode(), "site.yaml")
    from_toml = slurm_export.load_site(SITE_TOML.encode(), "site.toml")
    assert from_yaml == from_toml
    assert from_yaml.gres == {"H100-80GB": "gpu:h100", "A100-80GB": "gpu:a100"}
    assert from_yaml.partition == "e31" and from_yaml.account == "proj-7" and not from_yaml.qos


@pytest.mark.parametrize(
    "text, said",
    [
        ("partition: e31\nparttion: gpu\n", "unknown key 'parttion'"),
        ("partition: 'e31\n#SBATCH --uid=0'\n", "partition"),
        ("partition: [a, b]\n", "partition"),
        ("gres:\n  H100-80GB: 'gpu:h100 --uid=0'\n", "is not a GRES such as gpu:h100"),
        ("gres: gpu:h100\n", "gres maps accelerator types"),
        ("stage_command: [1]\n", "stage_command is one line"),
        ('stage_command: "a\\nb"\n', "stage_command is one line"),
        ("- partition\n", "write one mapping"),
        ("partition: e31\n---\npartition: gpu\n", "write one mapping"),
        ("partition: [\n", "site.yaml: The YAML cannot be read at line 2"),
    ],
)
def test_a_site_file_that_cannot_be_used_is_refused_naming_the_key(text, said):
    with pytest.raises(jobformat.SpecReadError) as refused:
        slurm_export.load_site(text.encode(), "site.yaml")
    assert said in str(refused.value) and "\n" not in str(refused.value)


def test_a_toml_site_file_that_does_not_parse_is_refused():
    with pytest.raises(jobformat.SpecReadError, match="site.toml is not TOML"):
        slurm_export.load_site(b"partition = e31", "site.toml")


def test_django_free_cli_exports_with_a_site_file_and_says_what_to_set_without(tmp_path):
    job = tmp_path / "job.json"
    job.write_text(json.dumps(GANG))
    site = tmp_path / "site.yaml"
    site.write_text(SITE_YAML)
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["export", str(job), "--to", "sbatch", "--site", str(site)], out, err) == 0
    assert "#SBATCH --partition=e31" in out.getvalue()
    assert "#SBATCH --gres=gpu:h100:8" in out.getvalue() and err.getvalue() == ""

    out, err = io.StringIO(), io.StringIO()
    folder = tmp_path / "run"
    assert cli.main(["export", str(job), "--out", str(folder)], out, err) == 0
    assert "#SBATCH --gres=gpu:8\n" in (folder / "10-run.sbatch").read_text()
    assert "Set these before submitting" in err.getvalue()
    assert "The GRES type of H100-80GB" in err.getvalue()
    assert "GRES type" not in out.getvalue()  # the scripts' own output stays clean

    site.write_text("partition: e31\nqos: 'x y'\n")
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["export", str(job), "--site", str(site)], out, err) == 2
    assert (
        err.getvalue().startswith("error: ") and "qos 'x y' is not a Slurm name" in err.getvalue()
    )
    assert out.getvalue() == ""


def test_django_free_cli_exports_one_description_at_a_time(tmp_path):
    pipeline = tmp_path / "pipeline.yaml"
    pipeline.write_text("name: a\nrun: echo a\n---\nname: b\nrun: echo b\n")
    err = io.StringIO()
    assert cli.main(["export", str(pipeline)], io.StringIO(), err) == 2
    assert "holds 2 descriptions" in err.getvalue()


@pytest.mark.django_db
def test_manage_py_exports_for_a_registered_cluster_or_a_site_file(
    tmp_path, capsys, team_a, a_member
):
    job = services.create_draft(team=team_a, user=a_member, data=GANG)
    dispatch.create_cluster(
        name="Tigris", partition="gpu", accelerator_map={"H100-80GB": "gpu:h100"}
    )
    call_command("jobspec", "export", str(job.pk), "--to", "sbatch", "--cluster", "tigris")
    captured = capsys.readouterr()
    assert "#SBATCH --partition=gpu" in captured.out and "--gres=gpu:h100:8" in captured.out
    assert "GRES type" not in captured.err
    site = tmp_path / "site.toml"
    site.write_text(SITE_TOML)
    call_command("jobspec", "export", str(job.pk), "--to", "sbatch", "--site", str(site))
    assert "#SBATCH --account=proj-7" in capsys.readouterr().out
    with pytest.raises(CommandError, match="No cluster is called Nowhere .registered: Tigris"):
        call_command("jobspec", "export", str(job.pk), "--to", "sbatch", "--cluster", "Nowhere")
    with pytest.raises(CommandError, match="go with --to sbatch"):
        call_command("jobspec", "export", str(job.pk), "--site", str(site))


@pytest.mark.django_db
def test_api_exports_for_a_site_or_a_registered_cluster(client, client_for, a_member):
    url = "/api/v1/spec/export/sbatch"
    plain = client.post(url, GANG, content_type="application/json").json()
    assert plain["to_set"] and "gpu:8" in plain["scripts"][0]["text"]

    site = {
        "partition": "e31",
        "gres": {"H100-80GB": "gpu:h100"},
        "deliver_command": "cp {name} {destination}",
    }
    body = {"description": GANG, "site": site}
    sited = client.post(url, body, content_type="application/json").json()
    assert "#SBATCH --gres=gpu:h100:8" in sited["scripts"][0]["text"]
    assert sited["to_set"] == []
    bad = client.post(url, {"description": GANG, "site": {"gres": {"H100-80GB": "gpu h100"}}},
                      content_type="application/json")  # fmt: skip
    assert bad.status_code == 400 and "not a GRES" in bad.json()["detail"]
    extra = client.post(url, {"description": GANG, "cluster": "x"}, content_type="application/json")
    assert extra.status_code == 400 and "not cluster" in extra.json()["detail"]

    dispatch.create_cluster(
        name="Tigris", partition="gpu", accelerator_map={"H100-80GB": "gpu:h100"}
    )
    # The clusters are the portal's: only someone logged in names one.
    anonymous = client.post(f"{url}?cluster=Tigris", GANG, content_type="application/json")
    assert anonymous.status_code == 401
    member = client_for(a_member)
    named = member.post(f"{url}?cluster=tigris", GANG, content_type="application/json")
    assert (
        named.status_code == 200 and "#SBATCH --partition=gpu" in named.json()["scripts"][0]["text"]
    )
    unknown = member.post(f"{url}?cluster=Nowhere", GANG, content_type="application/json")
    assert unknown.status_code == 404 and unknown.json()["detail"]
    both = member.post(f"{url}?cluster=Tigris", body, content_type="application/json")
    assert both.status_code == 400


@pytest.mark.django_db
def test_revision_download_for_a_registered_cluster(client_for, team_a, a_member, b_member):
    cluster, _ = dispatch.create_cluster(
        name="Tigris", partition="gpu", accelerator_map={"L40S": "gpu:l40s"}
    )
    job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    revision = services.submit(job=job, user=a_member)
    page = client_for(a_member).get(f"/jobs/{job.pk}/revisions/{revision.number}/").content.decode()
    assert '<label for="id_cluster">Write the sbatch scripts for</label>' in page
    assert f'<option value="{cluster.pk}">Tigris (partition gpu)</option>' in page

    url = f"/jobs/{job.pk}/revisions/{revision.number}/export.sbatch"
    response = client_for(a_member).get(url, {"cluster": cluster.pk})
    assert response.status_code == 200
    assert b"#SBATCH --partition=gpu" in response.content
    assert b"#SBATCH --gres=gpu:l40s:4" in response.content
    assert "-sbatch-tigris.txt" in response["Content-Disposition"]
    plain = client_for(a_member).get(url, {"cluster": ""})
    assert b"#SBATCH --gres=gpu:4\n" in plain.content and b"GRES type of L40S" in plain.content
    # Another team's job stays hidden, with or without a cluster; a cluster id that names
    # none (or is no id at all) answers 404, never a query error.
    assert client_for(b_member).get(url, {"cluster": cluster.pk}).status_code == 404
    for hostile in ("999999", "9" * 40, "1 OR 1=1", "²"):
        assert client_for(a_member).get(url, {"cluster": hostile}).status_code == 404


def test_a_line_break_in_a_description_value_adds_no_line_to_any_script():
    data = {
        "work": {"command": "true"},
        "request": {
            "accelerators": [
                {"type": "A\nrm -rf /", "count": 1},
                {"type": "B\nreboot", "count": 1},
            ],
            "node_features": ["ib", "nv\nreboot"],
            "instance_type": "x\nreboot",
        },
    }
    description, _ = jobformat.load(data)
    for site in (None, Site(partition="gpu", gres={"B\nreboot": "gpu:b"})):
        exported = slurm_export.export(description, site)
        texts = [s.text for s in exported.scripts] + [exported.submit_script()]
        for text in texts:
            for line in text.splitlines():
                assert not line.startswith(("rm ", "reboot")), line
        assert "#SBATCH --constraint=ib\n" in exported.script("run").text
        assert any(
            "“nv reboot” is no Slurm feature name" in " ".join(n.split()) for n in exported.notes
        )


def test_a_slurm_name_with_a_trailing_line_break_is_refused():
    with pytest.raises(jobformat.SpecReadError, match="partition"):
        slurm_export.site_from_data({"partition": "e31\n"})
    with pytest.raises(jobformat.SpecReadError, match="not a GRES"):
        slurm_export.site_from_data({"gres": {"H100": "gpu:h100\n"}})
