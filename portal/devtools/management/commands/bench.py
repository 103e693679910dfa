"""`manage.py bench --factor 100`: how fast each page is, at the demo scale and at N×.

It wipes and rebuilds the PostgreSQL database it is pointed at (hence `--wipe`; `make bench`
points it at its own database), loads the demo, starts gunicorn (2 sync workers, as `make
run`), logs in as each role and measures every page interleaved with a *floor* page (the
logged-in password page: the same middleware, navigation and a 5 KB template), so a busy
machine slows both alike and the ratio page/floor stays meaningful. Then it loads
`load_scale --factor N` on top and measures again, and times the scheduler's batch ingest.
Queries are counted in-process with Django's test client against the same database.

It prints one Markdown table: page, role, requests/s as a fraction of the floor at the
demo scale and at N×, p50 at N×, the slowdown from demo to N× (floor-normalised), queries
and bytes per page.

The slowdown from the baseline (5×: the smallest scale at which every list's first page is
full, so both scales show the same rows and the ratio is what grew with the data, not with
the page) to N× is measured apart, paired: a copy of the database as it was at the baseline
is served by a second gunicorn beside the N× one, and each page is timed on one then the
other, back to back, the order swapped each round. Measured in separate phases
minutes apart, a page's ratio moved by ±0.1–0.3 between runs of the same commit (other
processes, the CPU's clock); side by side the drift is the same on both and cancels."""

import json
import os
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from urllib.parse import urlsplit, urlunsplit

import psycopg
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from findings.models import Finding
from jobs import services as job_services
from jobs import spec
from jobs.models import JobDescription, JobStatus
from jobs.runs import services as run_services
from portal.demo import DEMO_PASSWORD
from portal.devtools.client import Session, form_fields, get, hammer
from portal.models import IntakeWindow, User

PARTNER, STAFF, ANON = "ada@northwind.example", "staff@e31.example", None


def pages():
    """(label, role, path): resolved against the database as it is now."""
    masks = JobDescription.objects.get(name="masks-v7-2027q1", team__slug="northwind-vision")
    draft = JobDescription.objects.get(name="nightly-reindex", team__slug="northwind-vision")
    finding = Finding.objects.filter(team__slug="northwind-vision").order_by("pk").first()
    window = IntakeWindow.objects.filter(closed_at__isnull=True).first()
    search = "status=new&q=staging"
    return [
        ("partner /jobs/", PARTNER, "/jobs/"),
        ("job page with run (timeline, ledger)", PARTNER, f"/jobs/{masks.pk}/"),
        ("guided step", PARTNER, f"/jobs/{draft.pk}/edit/work/"),
        ("partner /findings/", PARTNER, "/findings/"),
        ("finding page", PARTNER, f"/findings/{finding.pk}/"),
        ("staff home /", STAFF, "/"),
        ("staff triage /staff/findings/", STAFF, "/staff/findings/"),
        ("staff triage: filter + search + sort", STAFF, f"/staff/findings/?{search}&sort=oldest"),
        (
            "admin changelist, same filter + search + sort",
            STAFF,
            "/admin/findings/finding/?status__exact=new&q=staging&o=7",
        ),
        ("staff finding (triage page)", STAFF, f"/staff/findings/{finding.pk}/"),
        ("staff review queue", STAFF, "/staff/reviews/"),
        ("staff applications", STAFF, f"/staff/intake/windows/{window.pk}/applications/"),
        ("/problems/ (public)", ANON, "/problems/"),
        ("problem page with learned figures", ANON, "/problems/getting-data-to-compute/"),
        ("staff insights /staff/insights/", STAFF, "/staff/insights/"),
    ]


FLOOR = "/accounts/password/"


class Command(BaseCommand):
    help = "Benchmark every page at the demo scale and at --factor N (wipes the database)."

    def add_arguments(self, parser):
        parser.add_argument("--factor", type=int, default=100)
        parser.add_argument(
            "--baseline",
            type=int,
            default=5,
            help="also measure at this factor (each list's first page full); 0: skip",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--seconds", type=float, default=2.0, help="per sample")
        parser.add_argument("--rounds", type=int, default=3, help="interleaved samples")
        parser.add_argument(
            "--paired-rounds",
            type=int,
            default=7,
            help="rounds of the paired baseline/N× comparison (median reported)",
        )
        parser.add_argument("--concurrency", type=int, default=2)
        parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
        parser.add_argument("--port", type=int, default=8765)
        parser.add_argument("--wipe", action="store_true", help="consent to wipe the database")
        parser.add_argument("--out", default="", help="also write the table to this file")

    def handle(self, *args, **opts):
        if connection.vendor != "postgresql":
            raise CommandError("The benchmark runs on PostgreSQL: set DATABASE_URL.")
        if not opts["wipe"]:
            raise CommandError(
                f"This wipes the database {settings.DATABASES['default']['NAME']}: "
                "pass --wipe (make bench uses its own database)."
            )
        self.opts = opts
        self.ensure_database()
        self.log(f"Rebuilding {settings.DATABASES['default']['NAME']} with the demo data")
        self.rebuild()
        servers = [self.start_server()]
        copy = f"{settings.DATABASES['default']['NAME']}_baseline"
        paired = None
        try:
            demo = self.measure("demo")
            baseline, loaded = None, 0
            if 0 < opts["baseline"] < opts["factor"]:
                self.load(opts["baseline"], opts["seed"])
                baseline, loaded = self.measure(f"{opts['baseline']}×"), opts["baseline"]
                self.stop(servers.pop())
                self.copy_database(copy)
                servers.append(self.start_server())
            # The rest on top, with another seed: the same program, N times as busy.
            load_seconds = self.load(opts["factor"] - loaded, opts["seed"] + 1)
            scaled = self.measure(f"{opts['factor']}×")
            if baseline:
                servers.append(self.start_server(port=opts["port"] + 1, database=copy))
                paired = self.paired(opts["port"] + 1, opts["port"])
                self.stop(servers.pop())
            ingest = self.ingest()
        finally:
            for server in servers:
                self.stop(server)
            if baseline:
                self.admin_sql(f'DROP DATABASE IF EXISTS "{copy}"')
        table = self.table(demo, baseline, scaled, ingest, load_seconds, paired)
        self.stdout.write(table)
        if opts["out"]:
            with open(opts["out"], "w") as out:
                out.write(table)

    def load(self, factor, seed):
        self.log(f"Loading {factor}× more (load_scale --factor {factor} --seed {seed})")
        started = time.perf_counter()
        call_command("load_scale", factor=factor, seed=seed)
        # What autovacuum does to a live database: statistics for the planner, and the
        # visibility map that lets a bounded count read its index alone (bulk-loaded pages
        # are not marked all-visible until a vacuum passes).
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
        return time.perf_counter() - started

    def log(self, message):
        self.stderr.write(f"[bench {time.strftime('%H:%M:%S')}] {message}")

    # --- set-up --------------------------------------------------------------------------

    def admin_sql(self, sql, params=()):
        """Run `sql` on the server's `postgres` database (as the benchmark database's owner),
        outside a transaction, as CREATE/DROP DATABASE need; its first row."""
        db = settings.DATABASES["default"]
        params_ = {
            "dbname": "postgres",
            "user": db.get("USER") or None,
            "password": db.get("PASSWORD") or None,
            "host": db.get("HOST") or None,
            "port": db.get("PORT") or None,
            "autocommit": True,
        }
        with psycopg.connect(**{k: v for k, v in params_.items() if v is not None}) as admin:
            cursor = admin.execute(sql, params)
            return cursor.fetchone() if cursor.description else None

    def ensure_database(self):
        """Create the benchmark's database if it is not there yet."""
        name = settings.DATABASES["default"]["NAME"]
        if not self.admin_sql("SELECT 1 FROM pg_database WHERE datname = %s", [name]):
            self.admin_sql(f'CREATE DATABASE "{name}"')

    def copy_database(self, copy):
        """`copy`: the benchmark's database as it is now (no one may be connected to it)."""
        self.log(f"Copying the database as it is to {copy}")
        connection.close()
        name = settings.DATABASES["default"]["NAME"]
        self.admin_sql(f'DROP DATABASE IF EXISTS "{copy}"')
        self.admin_sql(f'CREATE DATABASE "{copy}" TEMPLATE "{name}"')

    def rebuild(self):
        with connection.cursor() as cursor:
            cursor.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
        call_command("migrate", verbosity=0, interactive=False)
        call_command("load_demo", verbosity=0)
        call_command("collectstatic", verbosity=0, interactive=False)
        # E-mails queued by the ingest's set-up need the embedded broker's folders.
        for folder in ("queue", "processed", "control"):
            os.makedirs(settings.VAR_DIR / "celery" / folder, exist_ok=True)

    def start_server(self, port=None, database=None):
        """gunicorn on `port` (the benchmark's own by default) serving `database` (the
        benchmark's by default: DATABASE_URL with another name)."""
        port = port or self.opts["port"]
        env = {**os.environ, "DEBUG": "0"}
        if database:
            url = urlsplit(os.environ["DATABASE_URL"])
            env["DATABASE_URL"] = urlunsplit(url._replace(path=f"/{database}"))
        bin_dir = os.path.dirname(sys.executable)
        command = [
            os.path.join(bin_dir, "gunicorn"),
            "portal.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(self.opts["workers"]),
            "--timeout",
            "120",
        ]
        server = subprocess.Popen(command, env=env)
        for _ in range(100):
            try:
                Session("127.0.0.1", port, timeout=2).request("GET", "/healthz")
                return server
            except OSError:
                time.sleep(0.2)
        self.stop(server)
        raise CommandError("gunicorn did not start.")

    def stop(self, server):
        server.terminate()
        server.wait(timeout=30)

    def sessions(self, port=None):
        port = port or self.opts["port"]
        return {
            PARTNER: Session("127.0.0.1", port).login(PARTNER, DEMO_PASSWORD),
            STAFF: Session("127.0.0.1", port).login(STAFF, DEMO_PASSWORD),
            ANON: Session("127.0.0.1", port),
        }

    # --- measuring -----------------------------------------------------------------------

    def queries(self, role, path):
        client = Client(HTTP_HOST="127.0.0.1")
        if role:
            client.force_login(
                User.objects.get(email=role), backend="django.contrib.auth.backends.ModelBackend"
            )
        client.get(path)
        with CaptureQueriesContext(connection) as captured:
            client.get(path)
        return len(captured)

    def measure(self, scale):
        sessions = self.sessions()
        seconds, concurrency = self.opts["seconds"], self.opts["concurrency"]
        floor_label = f"floor: {FLOOR} (logged in)"
        results = {floor_label: {"role": "partner", "ratios": [], "p50": [], "bytes": 0}}
        for label, role, _path in pages():
            results[label] = {"role": role or "anonymous", "ratios": [], "p50": [], "bytes": 0}
        self.log(f"Measuring {len(results)} pages at {scale}, {self.opts['rounds']} rounds")
        for _ in range(self.opts["rounds"]):
            for label, role, path in pages():
                floor_session = sessions[role] if role else sessions[PARTNER]
                floor = hammer(floor_session, get(FLOOR), seconds, concurrency)
                sample = hammer(sessions[role], get(path), seconds, concurrency)
                row = results[label]
                row["ratios"].append(sample.rps / floor.rps if floor.rps else 0)
                row["p50"].append(sample.percentile(50))
                row["bytes"] = sample.bytes
                row["errors"] = row.get("errors", 0) + sample.errors
                if floor_session is sessions[PARTNER]:
                    results[floor_label]["ratios"].append(1.0)
                    results[floor_label]["p50"].append(floor.percentile(50))
                    results[floor_label]["bytes"] = floor.bytes
        results[floor_label]["queries"] = self.queries(PARTNER, FLOOR)
        for label, role, path in pages():
            results[label]["queries"] = self.queries(role, path)
        results[self.AUTOSAVE] = self.autosave(sessions[PARTNER])
        for label, row in results.items():
            self.log(f"  {label}: {statistics.median(row['ratios']):.2f} × floor")
        return results

    AUTOSAVE = "autosave (guided step, htmx)"

    def paired(self, base_port, port):
        """{label: [time at N× / time at the baseline, one per round]}: each page, the
        autosave, and the floor (a control that should read 1.00) on the baseline's server
        and on N×'s, back to back, the first of the two swapped each round."""
        servers = {"base": self.sessions(base_port), "scaled": self.sessions(port)}
        seconds, concurrency = self.opts["seconds"], self.opts["concurrency"]
        # (label, role, the request's sender for a session, connections)
        measured = [
            (label, role, lambda _session, path=path: get(path), concurrency)
            for label, role, path in [(f"floor: {FLOOR} (logged in)", PARTNER, FLOOR), *pages()]
        ]
        # One connection: the autosave writes one row, two at once would wait for its lock.
        measured.append((self.AUTOSAVE, PARTNER, self.autosave_sender, 1))
        self.log(
            f"Pairing the baseline and N×: {len(measured)} pages, {self.opts['paired_rounds']} rounds"
        )
        senders = {
            (which, label): sender(sessions[role])
            for which, sessions in servers.items()
            for label, role, sender, _ in measured
        }
        # Each server's first visits fill its caches and prepared statements: not measured.
        for which, sessions in servers.items():
            for label, role, _sender, _ in measured:
                hammer(sessions[role], senders[which, label], 0.3, 1)
        results = {label: [] for label, *_ in measured}
        for round_ in range(self.opts["paired_rounds"]):
            order = ("base", "scaled") if round_ % 2 == 0 else ("scaled", "base")
            for label, role, _sender, connections in measured:
                samples = {
                    which: hammer(servers[which][role], senders[which, label], seconds, connections)
                    for which in order
                }
                for which, sample in samples.items():
                    if sample.errors:
                        raise CommandError(f"{label} failed {sample.errors} times ({which}).")
                rps = {which: sample.rps for which, sample in samples.items()}
                results[label].append(rps["base"] / rps["scaled"] if rps["scaled"] else 0)
        for label, ratios in results.items():
            self.log(f"  {label}: {statistics.median(ratios):.2f} (paired)")
        return results

    def autosave_sender(self, session):
        """The guided step's autosave as the browser posts it, as this session's form has it."""
        draft = JobDescription.objects.get(name="nightly-reindex", team__slug="northwind-vision")
        step = f"/jobs/{draft.pk}/edit/work/"
        _, page, _ = session.request("GET", step)
        fields = form_fields(page.decode(), "step-form")
        url = f"{step}autosave/"

        def send(s, conn):
            status, body, _ = s.form_post(url, fields, {"HX-Request": "true"}, conn=conn)
            return status, body

        return send

    def autosave(self, session):
        """p50/p99 of the guided step's autosave."""
        send = self.autosave_sender(session)
        floor = hammer(session, get(FLOOR), self.opts["seconds"], 1)
        sample = hammer(session, send, self.opts["seconds"] * 2, 1)
        return {
            "role": PARTNER,
            "ratios": [sample.rps / floor.rps if floor.rps else 0],
            "p50": [sample.percentile(50)],
            "p99": sample.percentile(99),
            "bytes": sample.bytes,
            "errors": sample.errors,
            "queries": "",
        }

    # One batch timed once let a single slow commit halve the figure: each case is timed on
    # several fresh sets of jobs and the median batch reported, with the slowest.
    INGEST_ROUNDS = 5

    def ingest(self):
        """Events per second through the batch API: 500 events into one run, and 500 across
        50 runs, each a fresh accepted job (the API's documented maximum batch), each case
        INGEST_ROUNDS times."""
        staff = User.objects.get(email=STAFF)
        _, token = run_services.create_client(name=f"bench {time.time()}", created_by=staff)
        session = Session("127.0.0.1", self.opts["port"], timeout=125)
        timings = {"one run": [], "50 runs": []}
        failures = {}
        for _ in range(self.INGEST_ROUNDS):
            jobs = self.accepted_jobs(51)
            cases = {"one run": [(jobs[0].pk, 500)], "50 runs": [(j.pk, 10) for j in jobs[1:]]}
            for name, plan in cases.items():
                events = []
                for job_id, n in plan:
                    events += self.lifecycle(job_id, n)
                status, took = self.post_batch(session, token, events)
                if status == 200:
                    timings[name].append((len(events), took))
                else:
                    failures[name] = f"failed: HTTP {status} after {took:.1f} s"
        results = {}
        for name, runs in timings.items():
            if name in failures:
                results[name] = failures[name]
            else:
                rates = sorted(n / took for n, took in runs)
                results[name] = (
                    f"{statistics.median(rates):,.0f} events/s, median of {len(rates)} batches "
                    f"of {runs[0][0]} (slowest {rates[0]:,.0f})"
                )
            self.log(f"  ingest, {name}: {results[name]}")
        return results

    def accepted_jobs(self, count):
        partner = User.objects.get(email=PARTNER)
        staff = User.objects.get(email=STAFF)
        jobs = []
        for i in range(count):
            job = job_services.create_draft(
                team=partner.memberships.first().team,
                user=partner,
                data={**spec.example_data(), "name": f"bench-ingest-{time.time()}-{i}"},
            )
            revision = job_services.submit(job=job, user=partner)
            job_services.review(revision=revision, reviewer=staff, outcome="accepted")
            jobs.append(job)
        assert all(JobDescription.objects.get(pk=j.pk).status == JobStatus.ACCEPTED for j in jobs)
        return jobs

    def post_batch(self, session, token, events):
        """(HTTP status, seconds) of one batch sent to the scheduler API."""
        body = json.dumps({"events": events})
        started = time.perf_counter()
        try:
            status, _, _ = session.request(
                "POST",
                "/api/v1/scheduler/events",
                body=body,
                headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            )
        except OSError:
            status = 599
        return status, time.perf_counter() - started

    def lifecycle(self, job_id, n):
        """n legal events: rented, running, then preempted back to rented and running again."""
        at = timezone.now() - timedelta(days=1)
        kinds = ["rented", "running"]
        while len(kinds) < n:
            kinds += ["preempted", "running"]
        events = []
        for i, kind in enumerate(kinds[:n]):
            event = {
                "job_id": job_id,
                "kind": kind,
                "occurred_at": (at + timedelta(seconds=i)).isoformat(),
                "idempotency_key": f"bench:{job_id}:{i}",
            }
            if kind == "preempted":
                event["requeue_to"] = "rented"
            events.append(event)
        return events

    # --- the table -----------------------------------------------------------------------

    @staticmethod
    def paired_cell(paired, label, floor_normalised):
        """The paired median with its range, or (a row the pairing does not time) the
        floor-normalised ratio, marked so."""
        ratios = (paired or {}).get(label)
        if not ratios:
            value = "—" if floor_normalised is None else f"{floor_normalised:.2f}"
            return f"{value} (vs floor)"
        return f"{statistics.median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f})"

    def table(self, demo, baseline, scaled, ingest, load_seconds, paired=None):
        factor, base = self.opts["factor"], self.opts["baseline"]

        def ratio(results, label):
            row = (results or {}).get(label)
            return statistics.median(row["ratios"]) if row and row["ratios"] else None

        def text(value):
            return "—" if value is None else f"{value:.2f}"

        def slower(before, after):
            return None if not before or not after else before / after

        head = ["page", "role", "demo: × floor"]
        if baseline:
            head.append(f"{base}×: × floor")
        head += [f"{factor}×: × floor", f"{factor}×: p50"]
        if baseline:
            head.append(f"time {factor}× / {base}×")
        head += [f"time {factor}× / demo", "queries"]
        if baseline:
            head.append(f"bytes at {base}×")
        head.append(f"bytes at {factor}×")
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for label, row in scaled.items():
            now = ratio(scaled, label)
            cells = [label, row["role"].split("@")[0], text(ratio(demo, label))]
            if baseline:
                cells.append(text(ratio(baseline, label)))
            errors = f" ({row['errors']} errors)" if row.get("errors") else ""
            p50 = f"{statistics.median(row['p50']) * 1000:.0f} ms"
            if "p99" in row:
                p50 += f" (p99 {row['p99'] * 1000:.0f} ms)"
            cells += [text(now) + errors, p50]
            if baseline:
                cells.append(self.paired_cell(paired, label, slower(ratio(baseline, label), now)))
            cells += [text(slower(ratio(demo, label), now)), str(row["queries"])]
            if baseline:
                cells.append(f"{baseline[label]['bytes'] / 1024:.1f} KB")
            cells.append(f"{row['bytes'] / 1024:.1f} KB")
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
        if paired:
            over = [label for label, ratios in paired.items() if statistics.median(ratios) > 1.1]
            lines.append(
                f"Time {factor}× / {base}× is paired: the page on a copy of the {base}× database "
                f"and on the {factor}× one, back to back, median of {self.opts['paired_rounds']} "
                f"rounds (lowest–highest); over 1.1: {', '.join(over) or 'none'}.  "
            )
        for name, result in ingest.items():
            lines.append(f"Scheduler batch ingest at {factor}×, {name}: {result}.  ")
        lines.append(
            f"load_scale to {factor}×: {load_seconds:.0f} s. Floor: the logged-in "
            f"{FLOOR} page. Time {factor}× / demo is floor-normalised (page/floor at one scale "
            f"over the other). {self.opts['rounds']} rounds × {self.opts['seconds']:g} s per sample, "
            f"{self.opts['concurrency']} connections, gunicorn {self.opts['workers']} sync "
            "workers."
        )
        return "\n".join(lines) + "\n"
