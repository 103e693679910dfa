"""The pieces of `manage.py faults`: an SMTP sink that counts what reaches it, the processes of
a production set-up (gunicorn, a Celery worker) started and killed at will, PostgreSQL and Redis
stopped and always started again, and a steady load of people and a scheduler whose every
answer is kept, so each fault can be counted: requests during it, errors people saw, and what
was lost or arrived twice."""

import contextlib
import email
import http.client
import json
import os
import shutil
import signal
import socketserver
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

from portal.devtools.client import Session

# --- the mail server -------------------------------------------------------------------------


class _SmtpHandler(socketserver.StreamRequestHandler):
    """Just enough SMTP for Django's backend: greeting, EHLO, MAIL, RCPT, DATA, QUIT."""

    def reply(self, line):
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self):
        with contextlib.suppress(ConnectionError):  # a worker killed mid-message
            self._conversation()

    def _conversation(self):
        self.reply("220 faults sink")
        while line := self.rfile.readline():
            verb = line.decode("ascii", "replace").strip().split(" ", 1)[0].upper()
            if verb in ("EHLO", "HELO"):
                self.reply("250 faults sink")
            elif verb == "DATA":
                self.reply("354 end with a dot")
                self.server.sink.keep(self._message())
                self.reply("250 kept")
            elif verb == "QUIT":
                self.reply("221 bye")
                return
            else:  # MAIL, RCPT, RSET, NOOP
                self.reply("250 ok")

    def _message(self):
        lines = []
        while (line := self.rfile.readline()) not in (b".\r\n", b".\n", b""):
            lines.append(line[1:] if line.startswith(b"..") else line)
        return b"".join(lines)


class _Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True


class SmtpSink:
    """A local mail server on a free port; `received` counts each Message-ID that arrived."""

    def __init__(self):
        self.received = Counter()
        self.lock = threading.Lock()
        self.server = _Server(("127.0.0.1", 0), _SmtpHandler)
        self.server.sink = self
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def keep(self, raw):
        message_id = email.message_from_bytes(raw).get("Message-ID", "").strip()
        with self.lock:
            self.received[message_id] += 1

    def count(self):
        with self.lock:
            return sum(self.received.values())

    def close(self):
        self.server.shutdown()
        self.server.server_close()


# --- processes ---------------------------------------------------------------------------------


def _bin(name):
    return os.path.join(os.path.dirname(sys.executable), name)


def wait_for(check, seconds, step=0.2):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(step)
    return check()


class Processes:
    """gunicorn and a Celery worker in their own process groups (a kill takes the worker's
    pool children too), with the environment of a production set-up."""

    def __init__(self, env, port, log_dir, workers=2):
        self.env, self.port, self.workers = env, port, workers
        self.log_dir = log_dir
        self.server = self.worker = None

    def log(self, name):
        return os.path.join(self.log_dir, f"faults-{name}.log")

    def _start(self, command, name):
        with open(self.log(name), "ab") as log:
            return subprocess.Popen(
                command, env=self.env, start_new_session=True, stdout=log, stderr=log
            )

    def start_server(self):
        self.server = self._start(
            [
                _bin("gunicorn"),
                "portal.wsgi",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(self.workers),
                "--timeout",
                "60",
            ],
            "gunicorn",
        )

        def up():
            with contextlib.suppress(OSError, http.client.HTTPException):
                return Session("127.0.0.1", self.port, timeout=2).request("GET", "/healthz")
            return None

        if not wait_for(up, 30):
            raise RuntimeError("gunicorn did not start")

    def start_worker(self):
        self.worker = self._start(
            [_bin("celery"), "-A", "portal", "worker", "--concurrency", "2", "--loglevel", "INFO"],
            "worker",
        )

    def worker_alive(self):
        return self.worker is not None and self.worker.poll() is None

    def kill_worker(self):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.worker.pid, signal.SIGKILL)
        self.worker.wait(timeout=30)

    def stop(self):
        for process in (self.server, self.worker):
            if process is not None and process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)


class Agent:
    """The Slurm agent as its own process (as on a login node), against the suite's gunicorn."""

    def __init__(self, processes, port, token, partition, workdir):
        self.processes = processes
        self.command = [
            sys.executable, "-m", "jobs.slurm_agent", "--url", f"http://127.0.0.1:{port}",
            "--token", token, "--partition", partition, "--workdir", workdir, "--interval", "1",
        ]  # fmt: skip
        self.process = None

    def start(self):
        self.process = self.processes._start(self.command, "agent")

    def kill_while_polling(self, times):
        """SIGKILL at staggered moments of its 1 s poll, a new agent started after each."""
        for n in range(times):
            time.sleep(1.3 + 0.37 * n)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
            self.start()
        return times

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)


def slurm_job_names(prefixes):
    """How many Slurm jobs (sacct, today) carry each name that starts with one of `prefixes`."""
    prefixes = tuple(prefixes)
    listed = _run(["sacct", "-n", "-X", "-P", "-a", "-S", "now-1days", "-o", "JobName%200"])
    return Counter(
        name for name in (line.strip() for line in listed.stdout.splitlines())
        if name.startswith(prefixes)
    )  # fmt: skip


def _run(command):
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)


def postgres_cluster():
    """(version, name) of the first local cluster, as pg_lsclusters lists it."""
    if not shutil.which("pg_lsclusters"):
        return None
    for line in _run(["pg_lsclusters", "--no-header"]).stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            return parts[0], parts[1]
    return None


def restart_postgres(cluster):
    """pg_ctlcluster's restart (fast: sessions are cut), then started again whatever
    happened, so the machine never stays without its database."""
    command = ["pg_ctlcluster", "--skip-systemctl-redirect", *cluster]
    try:
        result = _run([*command, "restart"])
        if result.returncode:
            raise RuntimeError(f"pg_ctlcluster restart: {result.stderr.strip()}")
    finally:
        if "online" not in _run(["pg_lsclusters", "--no-header", *cluster]).stdout:
            _run([*command, "start"])


@dataclass
class Redis:
    """The local Redis, stopped with SHUTDOWN SAVE (its data kept for every other user of
    it) and started again with the settings it ran with."""

    host: str = "127.0.0.1"
    port: int = 6379
    config: dict = field(default_factory=dict)

    def cli(self, *args):
        return _run(["redis-cli", "-h", self.host, "-p", str(self.port), *args])

    def up(self):
        return self.cli("ping").stdout.strip() == "PONG"

    def stop(self):
        for key in ("bind", "dir", "dbfilename", "logfile", "save", "appendonly"):
            values = self.cli("config", "get", key).stdout.splitlines()
            self.config[key] = values[1] if len(values) > 1 else ""
        dump = os.path.join(self.config["dir"], self.config["dbfilename"] or "dump.rdb")
        self.dump = None if os.path.exists(dump) else dump
        self.cli("shutdown", "save")
        if not wait_for(lambda: not self.up(), 10):
            raise RuntimeError("Redis did not stop")

    def start(self):
        if self.up():
            return
        c = self.config
        command = ["redis-server", "--daemonize", "yes", "--port", str(self.port)]
        command += ["--bind", *(c.get("bind") or self.host).split()]
        command += ["--save", c.get("save", ""), "--appendonly", c.get("appendonly") or "no"]
        for key in ("dir", "dbfilename", "logfile"):
            if c.get(key):
                command += [f"--{key}", c[key]]
        _run(command)
        if not wait_for(self.up, 30):
            raise RuntimeError("Redis did not start again: start it by hand")
        if getattr(self, "dump", None):
            # Loaded now; left behind, a later start of this Redis would bring back today's queue.
            with contextlib.suppress(OSError):
                os.unlink(self.dump)


# --- the load ----------------------------------------------------------------------------------


@dataclass
class Answer:
    at: float
    kind: str
    status: int  # 599: no answer (connection refused or cut)
    retry_after: bool

    @property
    def seen_as_error(self):
        """What a person would call a failure: a 5xx other than our "try again in a moment"
        (503 with Retry-After), or no answer at all."""
        return self.status >= 500 and not (self.status == 503 and self.retry_after)


class Load:
    """Partners and staff reading pages, a partner commenting and inviting, a scheduler posting
    events, each in its own thread, until stopped. A write that gets no success answer is
    sent again with the same token or key, as the site's script and the scheduler clients do."""

    def __init__(self, port, *, partner, staff, admin, token, job_id, team_slug, events):
        self.port = port
        self.partner, self.staff, self.admin = partner, staff, admin
        self.token, self.job_id, self.team_slug = token, job_id, team_slug
        self.events = events  # events(n) -> the n-th event of the scheduler's stream
        self.answers, self.lock = [], threading.Lock()
        self.comments, self.invited, self.event_keys = [], [], []
        self.running = threading.Event()
        self.threads = []

    def _keep(self, kind, status, headers):
        answer = Answer(
            time.monotonic(), kind, status, bool(headers and headers.get("Retry-After"))
        )
        with self.lock:
            self.answers.append(answer)
        return answer

    def _send(self, kind, session, method, path, **options):
        try:
            if method == "FORM":
                status, _, headers = session.form_post(path, options["fields"])
            else:
                status, _, headers = session.request(method, path, **options)
        except (OSError, http.client.HTTPException):
            status, headers = 599, None
        return self._keep(kind, status, headers)

    def _until_done(self, kind, session, method, path, ok, **options):
        while self.running.is_set():
            if self._send(kind, session, method, path, **options).status in ok:
                return True
            time.sleep(0.2)
        return False

    def _reader(self, kind, session, paths, pause):
        n = 0
        while self.running.is_set():
            self._send(kind, session, "GET", paths[n % len(paths)])
            n += 1
            time.sleep(pause)

    def _commenter(self):
        n = 0
        while self.running.is_set():
            token = str(uuid.uuid4())
            fields = {"body": f"Fault suite comment {n}", "submission_token": token}
            path = f"/jobs/{self.job_id}/comments/"
            if self._until_done("comment", self.partner, "FORM", path, {302}, fields=fields):
                self.comments.append(token)
            n += 1
            time.sleep(3)

    def _inviter(self):
        while self.running.is_set():
            address = f"faults-{uuid.uuid4().hex[:10]}@example.invalid"
            fields = {"email": address, "role": "member"}
            path = f"/teams/{self.team_slug}/invite/"
            if self._until_done("invite", self.admin, "FORM", path, {302}, fields=fields):
                self.invited.append(address)
            time.sleep(3)

    def _scheduler(self):
        session = Session("127.0.0.1", self.port, timeout=30)
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        n = 0
        while self.running.is_set():
            event = self.events(n)
            body = json.dumps({"events": [event]})
            path = "/api/v1/scheduler/events"
            if self._until_done("event", session, "POST", path, {200}, body=body, headers=headers):
                self.event_keys.append(event["idempotency_key"])
            n += 1
            time.sleep(0.1)

    def start(self, partner_pages, staff_pages):
        self.running.set()
        work = [
            (self._reader, ("partner page", self.partner, partner_pages, 0.05)),
            (self._reader, ("staff page", self.staff, staff_pages, 0.05)),
            (self._commenter, ()),
            (self._inviter, ()),
            (self._scheduler, ()),
        ]
        self.threads = [threading.Thread(target=f, args=a, daemon=True) for f, a in work]
        for thread in self.threads:
            thread.start()

    def stop(self):
        self.running.clear()
        for thread in self.threads:
            thread.join(timeout=60)

    def between(self, start, end):
        with self.lock:
            return [a for a in self.answers if start <= a.at <= end]
