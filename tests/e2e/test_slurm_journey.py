"""Staff dispatch an accepted job to the local Slurm cluster from its page; the partner
watches it reach released, with the Slurm job ids and a ledger of measured figures. And the
whole of it from the clusters page: staff register a cluster, run the command the page shows
(the one-file agent, from a folder outside the checkout), dispatch a job that goes past its
memory, and the partner reads the efficiency figures and the cause."""

import os
import re
import signal
import subprocess
import time
import uuid

import pytest

from jobs.runs.models import Cluster
from jobs.slurm_agent.build import build
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


# A second of CPU, then 300 MiB against the 100 MiB declared: the cluster kills it (signal 9,
# OverMemoryKill) and the agent classes it out of memory with its peak.
HOG = (
    'python3 -c \'import time; exec("while time.process_time() < 1: pass"); '
    "a = [bytearray(2**20) for _ in range(300)]; time.sleep(5)'"
)


@pytest.fixture
def pasted(tmp_path):
    """pasted(command): the command run in a shell from a login folder outside the checkout,
    holding the one-file agent, as an operator pastes it; stopped at teardown."""
    login = tmp_path / "login-node"
    login.mkdir()
    build(login / "e31-slurm-agent.pyz")
    started = []

    def paste(command):
        log = open(login / "agent.log", "a")  # noqa: SIM115 - the agent writes to it
        process = subprocess.Popen(  # noqa: S602 - the page's own command, as pasted
            f"exec {command}",
            shell=True,
            cwd=login,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(login)},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        started.append((process, log))
        return process

    yield paste
    for process, log in started:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        log.close()
    # Whatever the agent left on the cluster, pass or fail: its jobs run in its workdir.
    listed = subprocess.run(["squeue", "-h", "-o", "%i|%Z"], capture_output=True, text=True,
                            timeout=20).stdout.splitlines()  # fmt: skip
    mine = [line.split("|")[0] for line in listed if str(login) in line]
    if mine:
        subprocess.run(["scancel", *mine], capture_output=True, timeout=30)


def test_staff_connect_a_cluster_from_its_page_and_the_partner_reads_why_it_failed(
    new_page, team_a, a_member, staff, log_in, accepted_run, small_job, settings, live_server,
    pasted,
):  # fmt: skip
    settings.SITE_URL = live_server.url  # the portal the page's command names
    data = small_job("slurm-past-memory", HOG, staging=False, memory_per_node="100 MiB")
    run = accepted_run(team_a, a_member, staff, data)
    name = f"journey-{uuid.uuid4().hex[:6]}"

    desk = new_page()
    page = desk.page
    log_in(desk, staff)
    page.goto("/staff/clusters/")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Slurm partition").fill("e31")
    page.get_by_label("Accelerator types → the cluster's GRES").fill("H100-80GB -> gpu:h100")
    page.get_by_label("Staging command (optional)").fill("true")
    page.get_by_label("Delivery command (optional)").fill("true")
    page.get_by_role("button", name="Register the cluster and create its agent's token").click()
    page.get_by_text(f"The agent's token for {name} (shown once)").wait_for()
    desk.check_accessibility()
    command = page.locator("pre.agent-command").first.inner_text().strip()
    assert command.startswith("python3 e31-slurm-agent.pyz --url " + live_server.url)
    agent = pasted(f"{command} --interval 1")

    # The clusters page, opened again, says the agent has reported its partition once it has.
    row = page.get_by_role("row", name=re.compile(name))
    deadline = time.monotonic() + 120
    while "per node" not in row.inner_text():
        assert agent.poll() is None, "the pasted agent stopped"
        assert time.monotonic() < deadline, row.inner_text()
        page.wait_for_timeout(1000)
        page.goto("/staff/clusters/")
    assert "alive" in row.inner_text() and "Agent version" in row.inner_text()

    page.goto(f"/jobs/{run.job_id}/")
    page.get_by_label("Cluster").select_option(label=f"{name} (partition e31)")
    page.get_by_role("button", name="Dispatch to the cluster").click()
    page.get_by_text(re.compile(f"was dispatched to {name}")).wait_for()
    assert desk.errors == []

    watcher = new_page()
    partner = watcher.page
    log_in(watcher, a_member)
    partner.goto(f"/jobs/{run.job_id}/")
    partner.get_by_role("heading", name=re.compile("On the network: failed")).wait_for(
        timeout=180_000  # sbatch, the kill and the batch step's peak, on a shared machine
    )
    ending = partner.locator("#run-ending").inner_text()
    assert re.search(r"ran out of memory: its peak was [\d.,]+ MiB against the 100 MiB it "
                     r"declared per node\.", ending), ending  # fmt: skip
    memory = partner.get_by_role("row", name=re.compile("^Peak memory per node"))
    assert "Killed out of memory: its peak was" in memory.inner_text()
    cpu = partner.get_by_role("row", name=re.compile("^CPU efficiency"))
    assert re.search(r"Kept its 1 CPU busy [\d.]+ % of the time it held them", cpu.inner_text())
    assert "Accelerator use: not measured on this cluster." in partner.content()
    watcher.check_accessibility()
    assert watcher.errors == []
    assert agent.poll() is None
