"""A job's console log is where its printing goes, not something it produces: the importers
keep it as a note, and a file that declares no output says so instead of inventing one."""

from jobs import jobformat


def _one(text, filename):
    (result,) = jobformat.import_text(text.encode(), filename=filename)
    return result


def _errors_on_output(result):
    return {
        i.code
        for i in result.issues
        if i.level == jobformat.Level.ERROR and i.field == "output.artifacts"
    }


SCRIPT_WITH_LOGS_ONLY = """#!/bin/bash
#SBATCH --job-name=train
#SBATCH --nodes=1
#SBATCH --gres=gpu:4
#SBATCH --output=logs/%x-%j.out
#SBATCH -e logs/%x-%j.err
srun python train.py --epochs 3
"""


def test_sbatch_output_and_error_are_the_console_not_artifacts():
    result = _one(SCRIPT_WITH_LOGS_ONLY, "train.sbatch")
    assert result.description.output.artifacts is None
    notes = "\n".join(result.notes)
    assert "--output logs/%x-%j.out: the job's console log" in notes
    assert "--error logs/%x-%j.err: the job's error messages" in notes
    assert "not represented in the format" not in notes  # neither is an unknown directive


def test_sbatch_with_no_other_output_says_the_output_is_not_declared():
    result = _one(SCRIPT_WITH_LOGS_ONLY, "train.sbatch")
    assert any(note.startswith("Output not declared") for note in result.notes)
    assert "missing_output" in _errors_on_output(result)  # the checklist asks for it


def test_sbatch_short_output_option_is_read_the_same():
    result = _one("#!/bin/bash\n#SBATCH -o run.log\nsrun ./a.out\n", "run.sbatch")
    assert result.description.output.artifacts is None
    assert any(note.startswith("--output run.log: the job's console log") for note in result.notes)


def test_sbatch_output_beside_a_real_output_keeps_only_the_real_one():
    script = (
        SCRIPT_WITH_LOGS_ONLY + "aws s3 cp --recursive results/ s3://northwind-results/run-3/\n"
    )
    result = _one(script, "train.sbatch")
    destinations = [a.destination for a in result.description.output.artifacts]
    assert destinations == ["s3://northwind-results/run-3/"]
    assert not any(note.startswith("Output not declared") for note in result.notes)
    assert "missing_output" not in _errors_on_output(result)


def test_skypilot_console_redirects_are_not_artifacts():
    # SkyPilot keeps the console itself (sky logs); a redirect to a file on the node is
    # not something delivered either. Only the bucket the job writes to is.
    task = """name: train
resources:
  accelerators: A100:8
run: |
  python train.py --save-dir s3://northwind-ckpt-free/out 2>&1 | tee train.log
  python eval.py > eval.log 2>&1
"""
    result = _one(task, "task.yaml")
    destinations = [a.destination for a in result.description.output.artifacts]
    assert destinations == ["s3://northwind-ckpt-free/out"]


def test_skypilot_with_no_output_invents_none():
    task = "name: bench\nresources:\n  accelerators: A100:1\nrun: python bench.py > bench.log\n"
    result = _one(task, "task.yaml")
    assert result.description.output.artifacts is None
    assert "missing_output" in _errors_on_output(result)
