"""A real Slurm cluster for tests: whether it is up, the agent in its own process, a portal
that can be taken down, and what sacct, squeue and scontrol say. A pytest plugin (tests/conftest.py
loads it): the fixtures `cluster`, `low_cluster`, `start_agent`, `flaky_portal`, `lose_node` and
`cancel_afterwards` and `whole_cluster`, for the Slurm tests beside it and the browser journey that dispatches to the
cluster. The nodes are whatever the partition has (four `e31-n*` from .ci/slurm-up, or one named
after this host where it fell back): tests ask `partition_nodes()`, never a name."""

import fcntl
import functools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.request import Request, urlopen

import pytest
from django.db import connection

from jobs.runs import dispatch as dispatch_mod
from jobs.runs.models import Dispatch, Run

ROOT = Path(__file__).resolve().parents[3]
PARTITION = "e31"
LOW_PARTITION = "e31-low"  # a lower PriorityTier: its jobs are requeued for an e31 job


@functools.cache
def slurm_problem():
    if not shutil.which("sbatch"):
        return "no sbatch on PATH (run `make slurm` as root)"
    try:
        out = subprocess.run(["sinfo", "-h", "-p", PARTITION, "-o", "%t"], capture_output=True,
                             text=True, timeout=10)  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"sinfo failed: {error}"
    states = out.stdout.split()
    if out.returncode or not any(s in ("idle", "mix", "alloc") for s in states):
        return f"partition {PARTITION} is not up ({out.stderr.strip() or states}): run `make slurm`"
    return ""


def partition_nodes(partition=PARTITION):
    """The partition's node names, in Slurm's order."""
    out = subprocess.run(["sinfo", "-h", "-N", "-p", partition, "-o", "%N"], capture_output=True,
                         text=True, timeout=20, check=True)  # fmt: skip
    return list(dict.fromkeys(out.stdout.split()))


def needs_nodes(count):
    """Skip (or fail under REQUIRE_SLURM=1) a test that needs `count` nodes the cluster lacks."""
    nodes = partition_nodes()
    if len(nodes) >= count:
        return nodes
    problem = (f"partition {PARTITION} has {len(nodes)} node(s), this test needs {count}: "
               "`make slurm` starts four where network namespaces can be made")  # fmt: skip
    if os.environ.get("REQUIRE_SLURM") == "1":
        pytest.fail(f"REQUIRE_SLURM=1 but {problem}")
    pytest.skip(f"NOT ENOUGH SLURM NODES: {problem}")


def hostnames(nodelist):
    """'e31-n[1-2]' -> ['e31-n1', 'e31-n2']."""
    out = subprocess.run(["scontrol", "show", "hostnames", nodelist], capture_output=True,
                         text=True, timeout=20, check=True)  # fmt: skip
    return out.stdout.split()


def _register(partition):
    cluster, token = dispatch_mod.create_cluster(
        name=f"local-{uuid.uuid4().hex[:8]}",
        partition=partition,
        accelerator_map={"H100-80GB": "gpu:h100"},
        stage_command="sleep 2 # copy {location} as {name}",
        deliver_command="sleep 2 # deliver {name} to {destination}",
    )
    cluster.token = token
    return cluster


@pytest.fixture
def cluster(db):
    """A registered cluster for the local partition; the stand-in data movers sleep."""
    return _register(PARTITION)


@pytest.fixture
def low_cluster(db):
    """The same machines through the preemptible partition, registered as a cluster of its own."""
    return _register(LOW_PARTITION)


class AgentProcess:
    """`python -m jobs.slurm_agent` in its own process, started and killed by the test."""

    def __init__(self, url, token, workdir, interval=0.5, partition="", accounting="auto",
                 no_slurmdbd=False):  # fmt: skip
        self.args = [sys.executable, "-m", "jobs.slurm_agent", "--url", url,
                     "--interval", str(interval), "--workdir", str(workdir),
                     "--accounting", accounting,
                     *(["--partition", partition] if partition else [])]  # fmt: skip
        self.env = {**os.environ, "E31_AGENT_TOKEN": token}
        if no_slurmdbd:
            # The agent's sacct answers as Slurm's does on a cluster built without slurmdbd
            # (AccountingStorageType=accounting_storage/none); the rest is the real cluster.
            shadow = Path(workdir) / "no-slurmdbd"
            shadow.mkdir(parents=True, exist_ok=True)
            script = shadow / "sacct"
            script.write_text("#!/bin/sh\necho 'sacct: error: Slurm accounting storage is "
                              "disabled' >&2\nexit 1\n")  # fmt: skip
            script.chmod(0o755)
            self.env["PATH"] = f"{shadow}:{self.env.get('PATH', '')}"
        self.log = Path(workdir) / f"agent-{uuid.uuid4().hex[:6]}.log"
        self.process = None

    def start(self):
        Path(self.log).parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.log, "a")  # noqa: SIM115 - the child process writes to it
        self.process = subprocess.Popen(self.args, cwd=ROOT, env=self.env, stdout=handle,
                                        stderr=subprocess.STDOUT)  # fmt: skip
        return self

    def kill(self):
        """SIGKILL: no chance to tidy up, as when a login node reboots."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def output(self):
        return self.log.read_text() if self.log.exists() else ""


@pytest.fixture
def start_agent(live_server, tmp_path):
    agents = []

    def start(cluster, url=None, interval=0.5, accounting="auto", no_slurmdbd=False):
        agent = AgentProcess(url or live_server.url, cluster.token, tmp_path / "agent", interval,
                             cluster.partition, accounting, no_slurmdbd)  # fmt: skip
        agents.append(agent)
        return agent.start()

    yield start
    for agent in agents:
        agent.stop()


class FlakyPortal:
    """A forwarding proxy in front of the live server that can be taken down: while down it
    answers 503 (or only for paths containing `fail_paths`), as a portal behind a load
    balancer does during a deploy."""

    def __init__(self, target):
        self.target = target.rstrip("/")
        self.down = False
        self.fail_paths = ()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _forward(self):
                if proxy.down or any(p in self.path for p in proxy.fail_paths):
                    self.send_response(503)
                    self.end_headers()
                    return
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
                request = Request(proxy.target + self.path, data=body, method=self.command,
                                  headers=headers)  # fmt: skip
                try:
                    with urlopen(request, timeout=30) as response:  # noqa: S310
                        status, payload = response.status, response.read()
                except Exception as error:  # noqa: BLE001 - HTTPError carries the answer
                    status = getattr(error, "code", 502)
                    payload = error.read() if hasattr(error, "read") else b""
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PUT = _forward  # noqa: N815

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


@pytest.fixture
def flaky_portal(live_server):
    proxy = FlakyPortal(live_server.url)
    yield proxy
    proxy.close()


def wait_for(predicate, timeout=60, message="condition", agent=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.25)
    log = agent.output()[-3000:] if agent else ""
    raise AssertionError(f"timed out after {timeout} s waiting for {message}\n{log}")


def run_state(run):
    connection.close()  # a fresh read of what the live server committed
    return Run.objects.get(pk=run.pk).state


def dispatch_of(run):
    return Dispatch.objects.filter(run=run).first()


def sacct(job_id, fields="JobIDRaw,State,Start,End,ElapsedRaw,AllocTRES"):
    out = subprocess.run(
        ["sacct", "-D", "-X", "-n", "-P", "-j", str(job_id), f"--format={fields}"],
        capture_output=True, text=True, check=True, env={**os.environ, "TZ": "UTC"},
    )  # fmt: skip
    return [dict(zip(fields.split(","), line.split("|"), strict=True))
            for line in out.stdout.splitlines()]  # fmt: skip


def scontrol(*args):
    subprocess.run(["scontrol", *args], check=True, capture_output=True, timeout=20)


def squeue_state(job_id):
    out = subprocess.run(["squeue", "-h", "-j", str(job_id), "-o", "%T"], capture_output=True,
                         text=True, timeout=20)  # fmt: skip
    return out.stdout.strip()


@pytest.fixture
def cancel_afterwards():
    """A list of Slurm job ids the test started: cancelled at teardown, pass or fail, so that
    nothing of it holds the cluster every other test shares."""
    jobs = []
    yield jobs
    if jobs:
        subprocess.run(["scancel", *jobs], capture_output=True, timeout=30)


@pytest.fixture
def lose_node():
    """lose_node(name): the node dies (every process of its namespace is killed: slurmd, the
    jobs' slurmstepd and the jobs) and is marked down, as an operator or the health check does.
    At teardown, pass or fail, `.ci/slurm-up` starts its slurmd again and the node is resumed."""
    lost = []

    def lose(name):
        lost.append(name)
        pids = subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True,
                              timeout=20, check=True).stdout.split()  # fmt: skip
        assert pids, f"no process in the namespace of node {name}"
        subprocess.run(["kill", "-KILL", *pids], capture_output=True, timeout=20)
        scontrol("update", f"NodeName={name}", "State=DOWN", "Reason=e31 test: node lost")

    yield lose
    if lost:
        subprocess.run(["bash", str(ROOT / ".ci" / "slurm-up")], capture_output=True, timeout=120)
        for name in lost:
            subprocess.run(["scontrol", "update", f"NodeName={name}", "State=RESUME"],
                           capture_output=True, timeout=20)  # fmt: skip


@pytest.fixture
def whole_cluster():
    """One multi-node test at a time on this machine (xdist workers, other suites): each takes
    most of the nodes, one takes a node down, one holds two; side by side they wait for each
    other past their time limits. A lock file every process on the machine sees."""
    with open(Path(tempfile.gettempdir()) / "e31-slurm-nodes.lock", "a") as handle:
        deadline = time.monotonic() + 600
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    pytest.fail("another test has held the cluster's nodes for 10 minutes")
                time.sleep(0.5)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
