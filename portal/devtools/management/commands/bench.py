"""`manage.py bench --factor 100`: how fast each page is, at the demo scale and at N×,
against the targets of issue 27, each printed PASS or FAIL.

It wipes and rebuilds the PostgreSQL database it is pointed at (hence `--wipe`; `make bench`
points it at its own database), loads the demo, starts gunicorn (2 sync workers, as `make
run`), logs in as each role and measures every page interleaved with a *floor* page (the
logged-in password page: the same middleware, navigation and a 5 KB template), so a busy
machine slows both alike and the ratio page/floor stays meaningful (printed for information:
no target reads it). Then it loads `load_scale --factor N` on top and measures again, times
each page over sequential requests, and times the scheduler's batch ingest. Queries are
counted in-process with Django's test client against the same database, at each scale.

Server time is what gunicorn itself records for each request (`%(D)s` of its access log, from
the parsed request to the last byte written), read back from the log file the bench's own
gunicorn writes, each sequential request marked by a header the log prints. The client's time
over loopback would add its own parsing of the page and the connection's set-up (the sync
worker closes every connection after its response), which differ from page to page with its
size, not with the server; and the product is unchanged: the bench sends the header and asks
its own gunicorn for the log."""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from urllib.parse import urlsplit, urlunsplit

import psycopg
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from findings.models import Finding
from jobs import jobformat
from jobs import services as job_services
from jobs.models import JobDescription, JobStatus
from jobs.runs import services as run_services
from portal.demo import DEMO_PASSWORD
from portal.devtools.client import Session, form_fields, get, hammer, percentile
from portal.devtools.demo_pages import past_second_step, second_step_state
from portal.intake.models import IntakeWindow
from portal.models import User

PARTNER, STAFF, ANON = "ada@northwind.example", "staff@e31.example", None
TRIAGE = "staff triage: filter + search + sort"
ADMIN = "admin changelist, same filter + search + sort"


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
        (TRIAGE, STAFF, f"/staff/findings/?{search}&sort=oldest"),
        (ADMIN, STAFF, "/admin/findings/finding/?status__exact=new&q=staging&o=7"),
        ("staff finding (triage page)", STAFF, f"/staff/findings/{finding.pk}/"),
        ("staff review queue", STAFF, "/staff/reviews/"),
        ("staff applications", STAFF, f"/staff/intake/windows/{window.pk}/applications/"),
        ("/problems/ (public)", ANON, "/problems/"),
        ("problem page with learned figures", ANON, "/problems/getting-data-to-compute/"),
        ("staff insights /staff/insights/", STAFF, "/staff/insights/"),
    ]


FLOOR = "/accounts/password/"
FLOOR_LABEL = f"floor: {FLOOR} (logged in)"
AUTOSAVE = "autosave (guided step, htmx)"
# Rows no target reads: the floor is the control, the admin changelist what triage is set against.
NOT_TARGETS = {FLOOR_LABEL, ADMIN}

# Issue 27's targets, at 100× a busy program (milliseconds of server time, sequential requests).
P50_MS, P95_MS = 30, 80
PAIRED_MAX = 1.2  # time at N× over time at the baseline, paired median
ADMIN_TIMES = 10  # the admin changelist's p50 over triage's, same filter, search and sort
INGEST_MIN = 2000  # scheduler batch ingest, events per second (median batch), each case
MISS = " ✗"

# --quick: enough of each measurement to show the command works end to end, not to judge speed.
QUICK = {"seconds": 0.5, "rounds": 1, "paired_rounds": 2, "requests": 30, "ingest_rounds": 1}
# Unmeasured requests before a page's sequential run: each gunicorn worker's first visit
# prepares its statements and fills its caches.
WARM_UP = 10
# The admin changelist takes ~350 ms a request at 100×: its p50 is all the comparison reads.
REFERENCE_REQUESTS = 50
# gunicorn's access log line: the bench's mark on a sequential request (`-` on others), the
# status, and microseconds from the parsed request to the response's last byte written.
ACCESS_LOG_FORMAT = "%({x-bench}i)s %(s)s %(D)s"


def server_times(lines, tag):
    """[(status, milliseconds)] of the access log lines marked `tag`, in order."""
    times = []
    for line in lines:
        parts = line.split()
        if len(parts) == 3 and parts[0] == tag:
            times.append((int(parts[1]), int(parts[2]) / 1000))
    return times


def baseline_for(factor):
    """5× (each list's first page full), or half a smaller factor (a check run); 0: none."""
    return 5 if factor > 5 else factor // 2


def ms(value):
    return f"{value:.1f} ms"


def ingest_text(result):
    if "failed" in result:
        return result["failed"]
    return (
        f"{result['rate']:,.0f} events/s, median of {result['batches']} batches of "
        f"{result['events']} (slowest {result['slowest']:,.0f})"
    )


def verdicts(server, queries, paired, ingest, factor, base):
    """[(passed, line)], one per target of issue 27, passed None when this run could not
    measure it. `server`: {label: {"p50", "p95" (ms), "errors"}}; `queries`: {label: (count
    at the baseline or None, count at N×)}; `paired`: {label: [ratios]} or None; `ingest`:
    {case: {"rate": events/s} or {"failed": why}}."""
    targets = {label: row for label, row in server.items() if label not in NOT_TARGETS}
    results = []

    for key, limit in (("p50", P50_MS), ("p95", P95_MS)):
        over = [f"{label} {ms(row[key])}" for label, row in targets.items() if row[key] > limit]
        over += [
            f"{label} ({row['errors']} errors)" for label, row in targets.items() if row["errors"]
        ]
        slowest = max(targets, key=lambda label: targets[label][key])
        detail = (
            f"over: {'; '.join(over)}" if over else f"slowest {slowest} {ms(targets[slowest][key])}"
        )
        results.append(
            (not over, f"server time {key} ≤ {limit} ms on every page at {factor}×: {detail}")
        )

    counted = {
        label: counts
        for label, counts in queries.items()
        if label != FLOOR_LABEL and isinstance(counts[1], int)
    }
    if not base:
        results.append((None, "same queries at the baseline and at N×: not measured (no baseline)"))
    else:
        differ = [
            f"{label} {before} → {after}"
            for label, (before, after) in counted.items()
            if before != after
        ]
        detail = f"differ: {'; '.join(differ)}" if differ else f"{len(counted)} pages"
        results.append((not differ, f"same queries at {base}× and at {factor}×: {detail}"))

    name = f"time {factor}× / {base}× ≤ {PAIRED_MAX} on every page (paired median)"
    if not paired:
        results.append((None, f"{name}: not measured (no baseline)"))
    else:
        medians = {
            label: statistics.median(ratios)
            for label, ratios in paired.items()
            if label not in NOT_TARGETS
        }
        over = [f"{label} {value:.2f}" for label, value in medians.items() if value > PAIRED_MAX]
        worst = max(medians, key=medians.get)
        detail = f"over: {'; '.join(over)}" if over else f"highest {worst} {medians[worst]:.2f}"
        results.append((not over, f"{name}: {detail}"))

    if TRIAGE in server and ADMIN in server:
        triage, admin = server[TRIAGE]["p50"], server[ADMIN]["p50"]
        times = admin / triage if triage else 0
        results.append(
            (
                times >= ADMIN_TIMES,
                f"triage ≥ {ADMIN_TIMES}× faster than the Django admin changelist (same filter, "
                f"search and sort; server p50): {times:.0f}× ({ms(triage)} against {ms(admin)})",
            )
        )

    cases = []
    passed = True
    for case, result in ingest.items():
        if "failed" in result:
            passed = False
            cases.append(f"{case} {result['failed']}")
        else:
            passed = passed and result["rate"] >= INGEST_MIN
            cases.append(f"{case} {result['rate']:,.0f}")
    results.append(
        (passed, f"scheduler batch ingest ≥ {INGEST_MIN:,} events/s: {', '.join(cases)}")
    )
    return results


def verdict_lines(results):
    """One line a target, then the run's verdict."""
    word = {True: "PASS", False: "FAIL", None: "NOT MEASURED"}
    lines = [f"- {word[passed]}: {text}" for passed, text in results]
    missed = sum(1 for passed, _ in results if passed is False)
    unmeasured = sum(1 for passed, _ in results if passed is None)
    if missed:
        lines.append(f"\nFAIL: {missed} of {len(results)} targets missed.")
    else:
        measured = len(results) - unmeasured
        lines.append(
            f"\nPASS: {measured} of {len(results)} targets met"
            + (f" ({unmeasured} not measured)." if unmeasured else ".")
        )
    return lines


class Command(BaseCommand):
    help = "Benchmark every page at the demo scale and at --factor N (wipes the database)."
    # The checks read the database's features, and the database may not exist yet: the
    # command creates it (ensure_database) before anything else touches it.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--factor", type=int, default=100)
        parser.add_argument(
            "--baseline",
            type=int,
            default=None,
            help="also measure at this factor (default 5, each list's first page full; "
            "half the factor below 6); 0: skip",
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
        parser.add_argument(
            "--requests", type=int, default=200, help="sequential requests per page at N×"
        )
        parser.add_argument("--ingest-rounds", type=int, default=5, help="batches per case")
        parser.add_argument("--concurrency", type=int, default=2)
        parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
        parser.add_argument("--port", type=int, default=8765)
        parser.add_argument("--wipe", action="store_true", help="consent to wipe the database")
        parser.add_argument(
            "--quick",
            action="store_true",
            help="short samples, to check the command works (a few minutes at factor 2)",
        )
        parser.add_argument("--out", default="", help="also write the report to this file")

    def handle(self, *args, **opts):
        if connection.vendor != "postgresql":
            raise CommandError("The benchmark runs on PostgreSQL: set DATABASE_URL.")
        if not opts["wipe"]:
            raise CommandError(
                f"This wipes the database {settings.DATABASES['default']['NAME']}: "
                "pass --wipe (make bench uses its own database)."
            )
        if opts["quick"]:
            opts.update(QUICK)
        if opts["baseline"] is None:
            opts["baseline"] = baseline_for(opts["factor"])
        self.opts = opts
        self.logs = tempfile.mkdtemp(prefix="bench-")
        self.ensure_database()
        self.log(f"Rebuilding {settings.DATABASES['default']['NAME']} with the demo data")
        self.rebuild()
        servers = [self.start_server()]
        copy = self.baseline_database()
        baseline, paired = None, None
        try:
            demo = self.measure("demo")
            loaded = 0
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
            # Timed with the N× server alone: the baseline's gunicorn is stopped by now.
            server = self.sequential(opts["port"])
            ingest = self.ingest()
        finally:
            for running in servers:
                self.stop(running)
            if baseline:
                self.admin_sql(f'DROP DATABASE IF EXISTS "{copy}"')
            shutil.rmtree(self.logs, ignore_errors=True)
        report = self.table(demo, baseline, scaled, server, ingest, load_seconds, paired)
        self.stdout.write(report)
        if opts["out"]:
            with open(opts["out"], "w") as out:
                out.write(report)

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

    def baseline_database(self):
        """The copy of the database at the baseline scale that the paired comparison serves."""
        return f"{settings.DATABASES['default']['NAME']}_baseline"

    def admin_sql(self, sql, params=(), dbname="postgres"):
        """Run `sql` on the server's `postgres` database (or `dbname`), as the benchmark
        database's owner, outside a transaction, as CREATE/DROP DATABASE need; its first row."""
        db = settings.DATABASES["default"]
        params_ = {
            "dbname": dbname,
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

    def access_log(self, port):
        return os.path.join(self.logs, f"access-{port}.log")

    def start_server(self, port=None, database=None):
        """gunicorn on `port` (the benchmark's own by default) serving `database` (the
        benchmark's by default: DATABASE_URL with another name). Every server logs each
        request, so the log's cost is the same on both sides of the paired comparison."""
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
            "--access-logfile",
            self.access_log(port),
            "--access-logformat",
            ACCESS_LOG_FORMAT,
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

    def sessions(self, port=None, database=None):
        """Logged in on the server at `port`, whose database is `database` (the benchmark's
        own by default: the baseline's server has a copy of its own, where its sessions are)."""
        port = port or self.opts["port"]
        sessions = {ANON: Session("127.0.0.1", port)}
        for email in (PARTNER, STAFF):
            sessions[email] = Session("127.0.0.1", port).login(email, DEMO_PASSWORD)
            key, user = sessions[email].cookies["sessionid"], User.objects.get(email=email)
            if database is None:
                past_second_step(key, user)
            else:
                self.past_second_step_on(database, key, user)
        return sessions

    def past_second_step_on(self, database, session_key, user):
        """past_second_step for a session kept in another database (the baseline's copy)."""
        store = SessionStore()
        read = "SELECT session_data FROM django_session WHERE session_key = %s"
        (data,) = self.admin_sql(read, [session_key], dbname=database)
        session = store.decode(data)
        session.update(second_step_state(user))
        write = "UPDATE django_session SET session_data = %s WHERE session_key = %s"
        self.admin_sql(write, [store.encode(session), session_key], dbname=database)

    # --- measuring -----------------------------------------------------------------------

    def queries(self, role, path):
        client = Client(HTTP_HOST="127.0.0.1")
        if role:
            user = User.objects.get(email=role)
            client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
            past_second_step(client.session.session_key, user)
        client.get(path)
        with CaptureQueriesContext(connection) as captured:
            client.get(path)
        return len(captured)

    def measure(self, scale):
        """{label: {"role", "ratios" (requests/s over the floor's, a round each), "bytes",
        "errors", "queries"}}: each page hammered against the floor, then its queries."""
        sessions = self.sessions()
        seconds, concurrency = self.opts["seconds"], self.opts["concurrency"]
        floor_label = FLOOR_LABEL
        results = {floor_label: {"role": "partner", "ratios": [], "bytes": 0}}
        for label, role, _path in pages():
            results[label] = {"role": role or "anonymous", "ratios": [], "bytes": 0}
        self.log(f"Measuring {len(results)} pages at {scale}, {self.opts['rounds']} rounds")
        for _ in range(self.opts["rounds"]):
            for label, role, path in pages():
                floor_session = sessions[role] if role else sessions[PARTNER]
                floor = hammer(floor_session, get(FLOOR), seconds, concurrency)
                sample = hammer(sessions[role], get(path), seconds, concurrency)
                row = results[label]
                row["ratios"].append(sample.rps / floor.rps if floor.rps else 0)
                row["bytes"] = sample.bytes
                row["errors"] = row.get("errors", 0) + sample.errors
                if floor_session is sessions[PARTNER]:
                    results[floor_label]["ratios"].append(1.0)
                    results[floor_label]["bytes"] = floor.bytes
        results[floor_label]["queries"] = self.queries(PARTNER, FLOOR)
        for label, role, path in pages():
            results[label]["queries"] = self.queries(role, path)
        results[AUTOSAVE] = self.autosave(sessions[PARTNER])
        for label, row in results.items():
            self.log(f"  {label}: {statistics.median(row['ratios']):.2f} × floor")
        return results

    def paired(self, base_port, port):
        """{label: [time at N× / time at the baseline, one per round]}: each page, the
        autosave, and the floor (a control that should read 1.00) on the baseline's server
        and on N×'s, back to back, the first of the two swapped each round."""
        servers = {
            "base": self.sessions(base_port, self.baseline_database()),
            "scaled": self.sessions(port),
        }
        seconds, concurrency = self.opts["seconds"], self.opts["concurrency"]
        # (label, role, the request's sender for a session, connections)
        measured = [
            (label, role, lambda _session, path=path: get(path), concurrency)
            for label, role, path in [(FLOOR_LABEL, PARTNER, FLOOR), *pages()]
        ]
        # One connection: the autosave writes one row, two at once would wait for its lock.
        measured.append((AUTOSAVE, PARTNER, self.autosave_sender, 1))
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

    def autosave_sender(self, session, headers=None):
        """The guided step's autosave as the browser posts it, as this session's form has it."""
        draft = JobDescription.objects.get(name="nightly-reindex", team__slug="northwind-vision")
        step = f"/jobs/{draft.pk}/edit/work/"
        _, page, _ = session.request("GET", step)
        fields = form_fields(page.decode(), "step-form")
        url = f"{step}autosave/"

        def send(s, conn):
            extra = {"HX-Request": "true", **(headers or {})}
            status, body, _ = s.form_post(url, fields, extra, conn=conn)
            return status, body

        return send

    def autosave(self, session):
        """The guided step's autosave against the floor, one connection."""
        send = self.autosave_sender(session)
        floor = hammer(session, get(FLOOR), self.opts["seconds"], 1)
        sample = hammer(session, send, self.opts["seconds"] * 2, 1)
        return {
            "role": PARTNER,
            "ratios": [sample.rps / floor.rps if floor.rps else 0],
            "bytes": sample.bytes,
            "errors": sample.errors,
            "queries": "",
        }

    def sequential(self, port):
        """{label: {"p50", "p95" (ms of server time), "client_p50", "requests", "errors"}}:
        each page, the autosave and the floor, `--requests` times one after another on one
        client connection, timed by gunicorn's access log (see the module's docstring)."""
        sessions = self.sessions(port)
        log = self.access_log(port)
        measured = [(FLOOR_LABEL, PARTNER, FLOOR), *pages(), (AUTOSAVE, PARTNER, None)]
        self.log(f"Timing {len(measured)} pages, {self.opts['requests']} sequential requests each")
        results = {}
        for index, (label, role, path) in enumerate(measured):
            session = sessions[role]
            tag = f"bench-{index}"
            marked = {"X-Bench": tag}
            if path is None:
                warm, send = self.autosave_sender(session), self.autosave_sender(session, marked)
            else:
                warm, send = get(path), get(path, marked)
            requests = self.opts["requests"]
            if label == ADMIN:
                requests = min(requests, REFERENCE_REQUESTS)
            conn = session.connection()
            try:
                for _ in range(WARM_UP):
                    warm(session, conn)
                offset = os.path.getsize(log)
                client = []
                for _ in range(requests):
                    started = time.perf_counter()
                    send(session, conn)
                    client.append((time.perf_counter() - started) * 1000)
            finally:
                conn.close()
            times = self.read_log(log, offset, tag, requests)
            server = [took for _, took in times]
            results[label] = {
                "p50": percentile(server, 50),
                "p95": percentile(server, 95),
                "client_p50": percentile(client, 50),
                "requests": requests,
                "errors": sum(1 for status, _ in times if status >= 400),
            }
            row = results[label]
            self.log(
                f"  {label}: server p50 {ms(row['p50'])}, p95 {ms(row['p95'])} "
                f"(client p50 {ms(row['client_p50'])})"
                + (f", {row['errors']} errors" if row["errors"] else "")
            )
        return results

    def read_log(self, log, offset, tag, expected):
        """The access log's lines marked `tag` after `offset`: gunicorn writes a request's
        line after its response, so the last may lag the client by a moment."""
        for _ in range(50):
            with open(log, encoding="utf-8", errors="replace") as lines:
                lines.seek(offset)
                times = server_times(lines, tag)
            if len(times) >= expected:
                return times
            time.sleep(0.1)
        raise CommandError(f"gunicorn logged {len(times)} of {expected} requests marked {tag}.")

    # One batch timed once let a single slow commit halve the figure: each case is timed on
    # several fresh sets of jobs and the median batch reported, with the slowest.
    def ingest(self):
        """Events per second through the batch API: 500 events into one run, and 500 across
        50 runs, each a fresh accepted job (the API's documented maximum batch), each case
        --ingest-rounds times. {case: {"rate", "slowest", "batches", "events"} or {"failed"}}."""
        staff = User.objects.get(email=STAFF)
        _, token = run_services.create_client(name=f"bench {time.time()}", created_by=staff)
        session = Session("127.0.0.1", self.opts["port"], timeout=125)
        timings = {"one run": [], "50 runs": []}
        failures = {}
        for _ in range(self.opts["ingest_rounds"]):
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
                results[name] = {"failed": failures[name]}
            else:
                rates = sorted(n / took for n, took in runs)
                results[name] = {
                    "rate": statistics.median(rates),
                    "slowest": rates[0],
                    "batches": len(rates),
                    "events": runs[0][0],
                }
            self.log(f"  ingest, {name}: {ingest_text(results[name])}")
        return results

    def accepted_jobs(self, count):
        partner = User.objects.get(email=PARTNER)
        staff = User.objects.get(email=STAFF)
        jobs = []
        for i in range(count):
            job = job_services.create_draft(
                team=partner.memberships.first().team,
                user=partner,
                data={**jobformat.example_data(), "name": f"bench-ingest-{time.time()}-{i}"},
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

    # --- the report ----------------------------------------------------------------------

    @staticmethod
    def paired_cell(paired, label, floor_normalised):
        """The paired median with its range, marked when over the target, or (a row the
        pairing does not time) the floor-normalised ratio, marked so."""
        ratios = (paired or {}).get(label)
        if not ratios:
            value = "—" if floor_normalised is None else f"{floor_normalised:.2f}"
            return f"{value} (vs floor)"
        median = statistics.median(ratios)
        miss = MISS if median > PAIRED_MAX and label not in NOT_TARGETS else ""
        return f"{median:.2f} ({min(ratios):.2f}–{max(ratios):.2f}){miss}"

    @staticmethod
    def time_cell(row, key, limit, label):
        """A server time, marked when a target page is over its limit, with its errors."""
        miss = MISS if row[key] > limit and label not in NOT_TARGETS else ""
        errors = f" ({row['errors']} errors)" if row["errors"] else ""
        return f"{ms(row[key])}{miss}{errors}"

    @staticmethod
    def queries_cell(before, after):
        """Queries at the baseline and at N× (marked when they differ), or at N× alone."""
        if not isinstance(after, int):
            return "—"
        if before is None:
            return str(after)
        return f"{before} / {after}" + (MISS if before != after else "")

    def table(self, demo, baseline, scaled, server, ingest, load_seconds, paired=None):
        factor, base = self.opts["factor"], self.opts["baseline"]

        def ratio(results, label):
            row = (results or {}).get(label)
            return statistics.median(row["ratios"]) if row and row["ratios"] else None

        def text(value):
            return "—" if value is None else f"{value:.2f}"

        def slower(before, after):
            return None if not before or not after else before / after

        queries = {
            label: (baseline[label]["queries"] if baseline else None, row["queries"])
            for label, row in scaled.items()
        }
        head = ["page", "role", f"{factor}×: server p50", f"{factor}×: server p95"]
        if baseline:
            head += [f"time {factor}× / {base}×", f"queries {base}× / {factor}×"]
        else:
            head.append("queries")
        head.append("demo: × floor")
        if baseline:
            head.append(f"{base}×: × floor")
        head += [f"{factor}×: × floor", f"time {factor}× / demo"]
        if baseline:
            head.append(f"bytes at {base}×")
        head.append(f"bytes at {factor}×")
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for label, row in scaled.items():
            now = ratio(scaled, label)
            cells = [
                label,
                row["role"].split("@")[0],
                self.time_cell(server[label], "p50", P50_MS, label),
                self.time_cell(server[label], "p95", P95_MS, label),
            ]
            if baseline:
                cells.append(self.paired_cell(paired, label, slower(ratio(baseline, label), now)))
            cells.append(self.queries_cell(*queries[label]))
            cells.append(text(ratio(demo, label)))
            if baseline:
                cells.append(text(ratio(baseline, label)))
            errors = f" ({row['errors']} errors)" if row.get("errors") else ""
            cells += [text(now) + errors, text(slower(ratio(demo, label), now))]
            if baseline:
                cells.append(f"{baseline[label]['bytes'] / 1024:.1f} KB")
            cells.append(f"{row['bytes'] / 1024:.1f} KB")
            lines.append("| " + " | ".join(cells) + " |")

        heading = f"Targets (issue 27) at {factor}×"
        if factor != 100:
            heading += " (they are set at 100×)"
        if self.opts["quick"]:
            heading += "; a --quick run: short samples, to check the command works"
        results = verdicts(server, queries, paired, ingest, factor, base)
        lines += ["", heading + ":", "", *verdict_lines(results), ""]

        requests = self.opts["requests"]
        lines.append(
            f"Server time: gunicorn's own record of each request (its access log's `%(D)s`, "
            f"from the parsed request to the response's last byte), {requests} sequential "
            f"requests a page after {WARM_UP} unmeasured ones (the admin changelist, the "
            f"reference: {min(requests, REFERENCE_REQUESTS)}); p95 is the nearest rank. "
            f"{MISS.strip()}: over its target; the floor and the admin changelist have none.  "
        )
        if paired:
            lines.append(
                f"Time {factor}× / {base}× is paired: the page on a copy of the {base}× database "
                f"and on the {factor}× one, back to back, median of {self.opts['paired_rounds']} "
                f"rounds (lowest–highest); the floor is the control (it should read 1.00).  "
            )
        for name, result in ingest.items():
            lines.append(f"Scheduler batch ingest at {factor}×, {name}: {ingest_text(result)}.  ")
        lines.append(
            f"load_scale to {factor}×: {load_seconds:.0f} s. × floor (for information, no "
            f"target): requests/s of the page over the logged-in {FLOOR} page's, "
            f"{self.opts['rounds']} rounds × {self.opts['seconds']:g} s per sample, "
            f"{self.opts['concurrency']} connections; time {factor}× / demo is floor-normalised "
            f"(page/floor at one scale over the other). gunicorn {self.opts['workers']} sync "
            "workers."
        )
        return "\n".join(lines) + "\n"
