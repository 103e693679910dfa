import io
import json
import sys
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command

from jobs import jobformat

# Our own small files: the CLI is tested without ../shared beside the clone.
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "cli"
EXAMPLE = Path(jobformat.__file__).parent / "example.yaml"


def run(*args, stdin=None, monkeypatch=None):
    out, err = io.StringIO(), io.StringIO()
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    code = 0
    try:
        call_command("jobspec", *args, stdout=out, stderr=err)
    except SystemExit as exit_:
        code = exit_.code
    return code, out.getvalue(), err.getvalue()


def test_schema_is_json_schema():
    code, out, _ = run("schema")
    schema = json.loads(out)
    assert code == 0 and schema["$id"] == "/spec/v1/schema.json"
    assert set(schema["properties"]) >= {"work", "data", "request", "output", "realtime"}


def test_lint_clean_file_exits_0():
    code, out, _ = run("lint", str(EXAMPLE))
    assert code == 0
    assert "0 errors, 0 warnings" in out


def test_lint_exits_1_on_errors_and_names_them():
    code, out, _ = run("lint", str(FIXTURES / "serve.yaml"))
    assert code == 1
    assert "not_a_network_job" in out and "missing_deadline" in out


def test_lint_json():
    code, out, _ = run(
        "lint",
        str(FIXTURES / "single_gpu.slurm"),
        "--json",
    )
    payload = json.loads(out)
    assert code == 1 and {"field", "level", "code", "message", "problem"} <= set(
        payload["issues"][0]
    )


def test_import_prints_yaml_then_issues_and_reads_stdin(monkeypatch):
    text = "#!/bin/bash\n#SBATCH --nodes=2-4\n#SBATCH --gres=gpu:a100:8\n#SBATCH --time=1-12:00:00\npython train.py\n"
    code, out, _ = run("import", "-", stdin=text, monkeypatch=monkeypatch)
    assert code == 0
    description_yaml, _, issues = out.partition("# ---- precision check ----")
    data = yaml.safe_load(description_yaml)
    assert data["request"]["nodes"] == 4 and data["request"]["min_nodes"] == 2
    assert data["request"]["accelerators"] == [{"type": "a100", "count": 8}]
    assert data["request"]["maximum"] == "1-12:00:00"  # as typed
    assert "missing_deadline" in issues


def test_import_json_is_one_object(monkeypatch):
    code, out, _ = run("import", str(FIXTURES / "train.yaml"), "--json")
    payload = json.loads(out)
    assert code == 0 and set(payload) >= {"description", "issues"}


def test_unreadable_input_exits_2_with_one_line():
    code, _, err = run("import", "/no/such/file.yaml")
    assert code == 2 and err.strip().startswith("error: Cannot read") and err.count("\n") <= 1


@pytest.mark.django_db
def test_export_stored_jobs(team_a):
    from jobs.models import JobDescription

    job = JobDescription.objects.create(team=team_a, name="x", data=jobformat.example_data())
    code, out, _ = run("export", str(job.pk))
    assert code == 0 and yaml.safe_load(out)["name"] == "masks-v7-2027q1"
    code, out, _ = run("export", str(job.pk), "--json")
    assert json.loads(out)["request"]["estimate"] == "36h"
