"""Staff dispatch an accepted job to the local Slurm cluster from its page; the partner
watches it reach released, with the Slurm job ids and a ledger of measured figures."""

import os
import re

import pytest

from jobs.runs.models import Cluster
from tests.jobs.slurm_agent.cluster import slurm_problem, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _needs_slurm():
    problem = slurm_problem()
    if problem:
        if os.environ.get("REQUIRE_SLURM") == "1":
            pytest.fail(f"REQUIRE_SLURM=1 but {problem}")
        pytest.skip(f"NO SLURM CLUSTER: {problem}")


def test_staff_dispatch_and_the_partner_watches_measured_figures(
    new_page, team_a, a_member, staff, cluster, start_agent, log_in, accepted_run, small_job
):
    run = accepted_run(team_a, a_member, staff, small_job("slurm-in-the-browser", "sleep 4"))
    agent = start_agent(cluster, interval=1)
    wait_for(lambda: Cluster.objects.get(pk=cluster.pk).reported_at, 30, "the report", agent)

    desk = new_page()
    log_in(desk, staff)
    desk.page.goto(f"/jobs/{run.job_id}/")
    desk.page.get_by_label("Cluster").select_option(label=f"{cluster.name} (partition e31)")
    desk.page.get_by_role("button", name="Dispatch to the cluster").click()
    desk.page.get_by_text(re.compile(f"was dispatched to {cluster.name}")).wait_for()
    assert desk.errors == []

    watcher = new_page(width=360)
    page = watcher.page
    log_in(watcher, a_member)
    page.goto(f"/jobs/{run.job_id}/")
    page.get_by_text(re.compile(f"Dispatched to {cluster.name}")).first.wait_for()
    page.get_by_role("heading", name=re.compile("On the network: (running|output)")).wait_for(
        timeout=60_000
    )
    page.get_by_text(re.compile(r"Slurm jobs: staging \d+, run \d+, output \d+")).wait_for(
        timeout=120_000  # sbatch of three steps on a cluster shared with the rest of the suite
    )
    watcher.check_accessibility()
    page.get_by_role("heading", name=re.compile("On the network: released")).wait_for(
        timeout=60_000
    )
    section = page.locator("#run-live")
    assert section.get_attribute("hx-trigger") is None  # final: polling stopped
    assert f"real: {cluster.name}" in section.inner_text()
    assert "Held figures are measured" in section.inner_text()
    held = page.get_by_role("row", name=re.compile(r"Held: running .*\(measured\)"))
    # A job of seconds is held for seconds (or minutes), not "0.0 h".
    assert re.search(r"\t\d+(\.\d)? (s|min)\t", held.inner_text()), held.inner_text()
    assert page.get_by_text(re.compile(r"\(run\) COMPLETED after \d+ s")).count() >= 1
    watcher.check_accessibility()
    assert watcher.errors == []
