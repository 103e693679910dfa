"""Parsers stay linear and bounded on hostile input (issue 11, item 1)."""

import time

import pytest

from jobs import spec
from jobs.spec import sbatch


def best_of(fn, repeats=5):
    # CPU time of this process, not the wall clock: on a shared machine the wall clock also
    # counts the time other processes held the core, which made a ratio of two runs flaky.
    times = []
    for _ in range(repeats):
        began = time.process_time()
        fn()
        times.append(time.process_time() - began)
    return min(times)


def script(length):
    return f"#!/bin/bash\n#SBATCH --comment={'x' * length}\n#SBATCH --nodes=2\npython t.py\n"


def test_a_long_sbatch_line_costs_time_linear_in_its_length():
    # A ratio, not a time: four times the line may cost about four times as much (a
    # quadratic parser cost sixteen).
    small = best_of(lambda: sbatch.parse_options(script(60_000)))
    big = best_of(lambda: sbatch.parse_options(script(240_000)))
    assert big < 8 * max(small, 1e-4), (small, big)
    assert sbatch.parse_options(script(240_000))["nodes"] == "2"


@pytest.mark.parametrize("option", ["--comment=", '--comment="a ', "--comment='", "-J "])
def test_a_huge_sbatch_line_imports_without_harm(option):
    text = f"#!/bin/bash\n#SBATCH {option}{'y' * 990_000}\n#SBATCH --nodes=3\nsrun x\n"
    results = spec.import_text(text, "sbatch")
    assert results and results[0].description.request.nodes == 3
