"""Parsers read hostile input whole and stay bounded (issue 11, item 1). That their time
grows in proportion to the input is `python -m portal.devtools.jobformat_bench`'s to measure, not a test's."""

import pytest

from jobs import jobformat
from jobs.jobformat import sbatch


def script(length):
    return f"#!/bin/bash\n#SBATCH --comment={'x' * length}\n#SBATCH --nodes=2\npython t.py\n"


def test_the_directive_after_a_long_sbatch_line_is_read():
    assert sbatch.parse_options(script(240_000))["nodes"] == "2"


@pytest.mark.parametrize("option", ["--comment=", '--comment="a ', "--comment='", "-J "])
def test_a_huge_sbatch_line_imports_without_harm(option):
    text = f"#!/bin/bash\n#SBATCH {option}{'y' * 990_000}\n#SBATCH --nodes=3\nsrun x\n"
    results = jobformat.import_text(text, "sbatch")
    assert results and results[0].description.request.nodes == 3
