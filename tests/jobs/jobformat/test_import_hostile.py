"""Unreadable or hostile input gets a clear one-line error: never a crash or a hang."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from jobs import jobformat
from jobs.jobformat import SpecReadError

BILLION_LAUGHS = """
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
run: echo
"""


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("resources: [unclosed", "YAML cannot be read at line"),
        (BILLION_LAUGHS, "too many"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
        (b"\xff\xfe\xfd not utf-8", "not UTF-8"),
        ("x" * 50_000_000, "at most"),
        ("", "empty"),
        ("just a sentence", "not a job description"),
        ("[" * 5000 + "]" * 5000, "nested too deeply"),
        ("{" + ",".join(f'"k{i}": {i}' for i in range(60000)) + "}", "too many values"),
        ("!!python/object/apply:os.system ['echo pwned']", "YAML cannot be read"),
        ('{"work": ', "JSON cannot be read"),
    ],
)
def test_unreadable_input_is_refused_clearly(raw, message):
    with pytest.raises(SpecReadError, match=message) as error:
        jobformat.import_text(raw)
    assert "\n" not in str(error.value)


def test_a_script_without_directives_says_so_not_a_yaml_error(client_for, team_a, a_member):
    # Read as YAML, its `echo "start: $(date)"` line gave "The YAML cannot be read at line 6".
    path = Path(__file__).parent / "fixtures" / "cli" / "no_directives.sh"
    for fmt in ("auto", "sbatch"):
        with pytest.raises(SpecReadError, match="This script has no #SBATCH lines") as error:
            jobformat.import_text(path.read_bytes(), fmt)
        assert "YAML" not in str(error.value)
    upload = SimpleUploadedFile(path.name, path.read_bytes())
    response = client_for(a_member).post(
        reverse("job_new"), {"team": team_a.pk, "file": upload, "source_format": "auto"}
    )
    assert response.status_code == 400
    assert "This script has no #SBATCH lines" in response.content.decode()


def test_another_schedulers_script_is_named():
    path = Path(__file__).parent / "fixtures" / "cli" / "pbs_job.pbs"
    with pytest.raises(SpecReadError, match=r"This is a PBS/Torque script \(#PBS lines\)"):
        jobformat.import_text(path.read_bytes())


def test_forced_format_that_does_not_fit():
    with pytest.raises(SpecReadError, match="no #SBATCH"):
        jobformat.import_text("run: echo hi", "sbatch")
    with pytest.raises(SpecReadError, match="not a SkyPilot task"):
        jobformat.import_text("name: only", "skypilot")


def test_a_native_file_of_the_wrong_shape_is_read_with_issues():
    [result] = jobformat.import_text("work: 5\nrequest: {nodes: -3}\n", "native")
    codes = {(i.field, i.code) for i in result.issues}
    assert ("work", "invalid") in codes and ("request.nodes", "invalid") in codes


def test_a_line_that_looks_like_an_assignment_but_is_not_one_is_read_in_one_pass():
    # `X=aaaa…(` is no assignment (the value ends at no separator); a pattern that tried every
    # split of the value's characters would not return on it.
    body = "X=" + "a" * 5000 + "(\n"
    sbatch = f"#!/bin/bash\n#SBATCH -N 1\n{body}srun ./a\n"
    (result,) = jobformat.import_text(sbatch.encode(), filename="odd.sbatch")
    assert result.description.request.nodes == 1
    sky = "run: |\n  " + body + "  ./a\n"
    (result,) = jobformat.import_text(sky.encode(), filename="odd.yaml")
    assert result.description.work.command.startswith("X=")


def test_a_long_run_of_dashes_is_read_once_per_word():
    # `(--?[\w.-]+)` tried at every dash of `tee ------…` made reading it quadratic.
    text = "#!/bin/bash\n#SBATCH -N 1\ntee " + "-" * 20000 + " s3://b/x\n"
    (result,) = jobformat.import_text(text.encode(), filename="dashes.sbatch")
    assert result.description.request.nodes == 1
