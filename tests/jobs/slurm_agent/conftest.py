"""Tests against the real Slurm cluster that `.ci/slurm-up` (`make slurm`) starts.

Without a cluster they are skipped, loudly; REQUIRE_SLURM=1 (CI) makes that a failure.
The agent runs as its own process (python -m jobs.slurm_agent) and talks to a live
server over HTTP, as it would on a cluster's login node; nothing of Slurm is mocked.
The cluster's fixtures and helpers are in cluster.py (the browser journey uses them too)."""

import os

import pytest

from tests.jobs.slurm_agent.cluster import slurm_problem

PROBLEM = slurm_problem()


def pytest_collection_modifyitems(config, items):
    if not PROBLEM or os.environ.get("REQUIRE_SLURM") == "1":
        return
    marker = pytest.mark.skip(reason=f"NO SLURM CLUSTER: {PROBLEM}")
    for item in items:
        if "tests/jobs/slurm_agent" in str(item.path):
            item.add_marker(marker)


def pytest_terminal_summary(terminalreporter):
    if PROBLEM:
        terminalreporter.write_sep(
            "!", f"NO SLURM CLUSTER: the Slurm tests did not run ({PROBLEM})", red=True
        )


@pytest.fixture(autouse=True)
def _slurm_is_up():
    if PROBLEM:
        pytest.fail(f"REQUIRE_SLURM=1 but {PROBLEM}")
