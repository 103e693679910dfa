"""`manage.py faults`: what people, the scheduler and the outbox see when a part of the
production set-up fails under load. Development tooling (`make faults`, docs/security.md,
"Faults"); not a test, and not for a shared machine's busy hours: it restarts the local
PostgreSQL and stops the local Redis, which every other user of them feels.

It serves the portal with gunicorn on PostgreSQL, Redis as broker and cache, one Celery worker
and a local SMTP sink, and keeps a steady load (a partner and staff reading pages, a partner
commenting and inviting, a scheduler posting events) while it:

- restarts PostgreSQL (pg_ctlcluster restart): requests during it, errors people saw (a 5xx
  other than the 503 "try again" page with Retry-After, or no answer), events, comments and
  e-mails lost or doubled;
- stops Redis for --redis-seconds: the same figures, and whether the worker is alive after
  and delivers again;
- kills the Celery worker (SIGKILL, its pool too) while it delivers --emails e-mails: every one
  delivered once a new worker runs, duplicates counted.

- kills the Slurm agent (SIGKILL) --agent-kills times while it polls, submits and posts for
  --slurm-jobs small jobs on the local cluster (`make slurm`; skipped, and said so, without one):
  every job must end, each phase submitted to Slurm once.

PostgreSQL and Redis are always started again, whatever fails (try/finally)."""

import contextlib
import os
import socket
import tempfile
import time
import uuid
from collections import Counter
from datetime import timedelta

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from jobs.models import Comment
from jobs.runs import dispatch as dispatch_mod
from jobs.runs import services as run_services
from jobs.runs.models import Dispatch, Event, Run
from jobs.slurm_agent.slurm import Slurm, SlurmError
from portal import outbox
from portal.devtools import faults
from portal.devtools.client import Session
from portal.devtools.demo_pages import past_second_step
from portal.models import OutboundEmail, User

from .bench_ingest import _batch, _clean, _world
from .slurm_benchmark import Command as SlurmBenchmark

PASSWORD = "fault suite password 7"
SETTLE = 3.0  # seconds after a fault still counted as "during" it (the first retries)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Command(BaseCommand):
    help = (
        "Restart PostgreSQL, stop Redis and kill a Celery worker under load; print what was lost."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--faults",
            default="postgres,redis,worker,agent",
            help="Comma-separated, in order: postgres, redis, worker, agent.",
        )
        parser.add_argument("--steady-seconds", type=float, default=10.0, help="Load before each.")
        parser.add_argument("--redis-seconds", type=float, default=30.0)
        parser.add_argument("--emails", type=int, default=100, help="For the worker fault.")
        parser.add_argument("--slurm-jobs", type=int, default=6, help="For the agent fault.")
        parser.add_argument("--agent-kills", type=int, default=5, help="For the agent fault.")
        parser.add_argument("--partition", default="e31", help="For the agent fault.")

    def handle(self, *args, **opts):
        wanted = [f.strip() for f in opts["faults"].split(",") if f.strip()]
        unknown = set(wanted) - {"postgres", "redis", "worker", "agent"}
        if unknown:
            raise CommandError(f"Unknown fault(s): {', '.join(sorted(unknown))}.")
        if connection.vendor != "postgresql":
            raise CommandError("Point DATABASE_URL at PostgreSQL (make faults does).")
        if not settings.CELERY_BROKER_URL.startswith("redis://"):
            raise CommandError("Point CELERY_BROKER_URL at Redis (make faults does).")
        self.opts = opts
        self.cluster = faults.postgres_cluster()
        if "postgres" in wanted and self.cluster is None:
            raise CommandError("No local PostgreSQL cluster (pg_lsclusters) to restart.")
        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        log_dir = settings.VAR_DIR
        log_dir.mkdir(parents=True, exist_ok=True)
        for name in ("gunicorn", "worker", "agent"):
            (log_dir / f"faults-{name}.log").unlink(missing_ok=True)
        self.sink = faults.SmtpSink()
        port = free_port()
        env = {
            **os.environ,
            "DEBUG": "0",
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(self.sink.port),
            "EMAIL_USE_TLS": "0",
        }
        self.processes = faults.Processes(env, port, log_dir)
        self.port = port
        self.started = timezone.now()
        team, people, job_ids = _world(1, 3)
        client_row, token = run_services.create_client(name=f"faults {team.slug}")
        try:
            self.processes.start_server()
            self.processes.start_worker()
            self.load = self.make_load(port, team, people, job_ids[0], token)
            self.load.start(
                [
                    reverse("job_list"),
                    reverse("job_detail", args=[job_ids[0]]),
                    f"/teams/{team.slug}/",
                ],
                [reverse("home"), reverse("staff_teams"), reverse("job_detail", args=[job_ids[0]])],
            )
            results = []
            for fault in wanted:
                time.sleep(opts["steady_seconds"])
                results.append(getattr(self, f"fault_{fault}")())
            time.sleep(opts["steady_seconds"])
            self.load.stop()
            self.write_report(results, job_ids[0])
        finally:
            with contextlib.suppress(AttributeError):
                self.load.stop()
            self.processes.stop()
            self.sink.close()
            with contextlib.suppress(Exception):
                _clean(team, people, client_row)

    # --- the world and its load ----------------------------------------------------------------

    def make_load(self, port, team, people, job_id, token):
        admin, partner, staff = people[0], people[2], people[-1]
        for person in (admin, partner, staff):
            person.set_password(PASSWORD)
            person.save(update_fields=["password"])
        sessions = {}
        for person in (admin, partner, staff):
            session = Session("127.0.0.1", port, timeout=30).login(person.email, PASSWORD)
            past_second_step(session.cookies["sessionid"], User.objects.get(pk=person.pk))
            sessions[person.pk] = session
        start = timezone.now() - timedelta(days=1)
        return faults.Load(
            port,
            partner=sessions[partner.pk],
            staff=sessions[staff.pk],
            admin=sessions[admin.pk],
            token=token,
            job_id=job_id,
            team_slug=team.slug,
            events=lambda n: _batch([job_id], n, 1, start)[0],
        )

    # --- the faults ----------------------------------------------------------------------------

    def during(self, name, began, ended, **extra):
        answers = self.load.between(began, ended + SETTLE)
        return {
            "fault": name,
            "seconds": ended - began,
            "requests": len(answers),
            "503 try again": sum(a.status == 503 and a.retry_after for a in answers),
            "errors seen": sum(a.seen_as_error and a.status != 599 for a in answers),
            "no answer": sum(a.status == 599 for a in answers),
            "error kinds": sorted({f"{a.kind} {a.status}" for a in answers if a.seen_as_error}),
            **extra,
        }

    def fault_postgres(self):
        self.stdout.write(f"PostgreSQL {' '.join(self.cluster)}: restarting…")
        began = time.monotonic()
        faults.restart_postgres(self.cluster)
        ended = time.monotonic()
        connection.close()
        return self.during("PostgreSQL restarted", began, ended)

    def fault_redis(self):
        redis = faults.Redis()
        seconds = self.opts["redis_seconds"]
        self.stdout.write(f"Redis: stopped for {seconds:.0f} s…")
        began = time.monotonic()
        try:
            redis.stop()
            time.sleep(seconds)
        finally:
            redis.start()
        ended = time.monotonic()
        alive = self.processes.worker_alive()
        # A new e-mail after the outage: the worker (if alive) must deliver it.
        probe = self.queue_emails(1, "redis-after")[0]
        delivered = faults.wait_for(lambda: self.received(probe), 60)
        return self.during(
            "Redis stopped",
            began,
            ended,
            **{
                "worker alive after": alive,
                "worker's unrecoverable errors": self.worker_gave_up(),
                "an e-mail after it delivered": delivered,
            },
        )

    def fault_worker(self):
        count = self.opts["emails"]
        if not self.processes.worker_alive():  # an earlier fault ended it: said in its line
            self.processes.start_worker()
        before = self.sink.count()
        self.stdout.write(f"Celery worker: killed while it delivers {count} e-mails…")
        rows = self.queue_emails(count, "worker")
        faults.wait_for(lambda: self.sink.count() - before >= count // 4, 60, step=0.01)
        began = time.monotonic()
        self.processes.kill_worker()
        at_kill = sum(self.received(r) > 0 for r in rows)
        self.processes.start_worker()
        faults.wait_for(lambda: all(self.received(r) for r in rows), 60)
        ended = time.monotonic()
        delivered = sum(self.received(r) > 0 for r in rows)
        return self.during(
            "Celery worker killed",
            began,
            ended,
            **{
                "e-mails": count,
                "delivered before the kill": at_kill,
                f"delivered within {ended - began:.0f} s": delivered,
                "left to the sweep (held by the killed worker)": count - delivered,
                "sent twice so far": sum(max(0, self.received(r) - 1) for r in rows),
            },
        )

    def fault_agent(self):
        """The Slurm agent killed (SIGKILL) again and again while it polls, submits and posts;
        each time a new one starts. Every dispatch must reach its end with one Slurm job per
        phase."""
        partition = self.opts["partition"]
        workdir = tempfile.mkdtemp(prefix="e31-faults-")
        try:
            Slurm(partition=partition, workdir=workdir).partition_info()
        except SlurmError as error:
            self.stdout.write(f"Slurm agent: skipped, no cluster reachable ({error}).")
            return {"fault": "Slurm agent killed", "skipped": True}
        bench = SlurmBenchmark()
        tag = uuid.uuid4().hex[:6]
        count = self.opts["slurm_jobs"]
        team, users, cluster, token, runs = bench.set_up(tag, count, 3, partition)
        self.stdout.write(f"Slurm agent: killed {self.opts['agent_kills']} times mid-poll…")
        agent = faults.Agent(self.processes, self.port, token, partition, workdir)
        try:
            agent.start()
            for run in runs:
                dispatch_mod.dispatch(run=run, cluster=cluster, actor=users[0])
            began = time.monotonic()
            kills = agent.kill_while_polling(self.opts["agent_kills"])
            ended = time.monotonic()
            ids = [r.pk for r in runs]
            done = faults.wait_for(
                lambda: (
                    set(Run.objects.filter(pk__in=ids).values_list("state", flat=True))
                    <= {"released", "failed", "cancelled"}
                ),
                180,
                step=1,
            )
            dispatches = list(Dispatch.objects.filter(run__in=ids))
            names = faults.slurm_job_names(f"e31-{d.key}-" for d in dispatches)
            phases = sum(len(d.scripts) for d in dispatches)
            return self.during(
                "Slurm agent killed mid-poll",
                began,
                ended,
                **{
                    "jobs": count,
                    "kills": kills,
                    "all ended": done,
                    "states": dict(
                        Counter(Run.objects.filter(pk__in=ids).values_list("state", flat=True))
                    ),
                    "Slurm jobs submitted": sum(names.values()),
                    "of phases": phases,
                    "submitted twice": sum(n - 1 for n in names.values() if n > 1),
                    "phases never submitted": phases - len(names),
                },
            )
        finally:
            agent.stop()
            with contextlib.suppress(Exception):
                bench.tear_down(team, users, cluster)

    def worker_gave_up(self):
        """The worker's own word for exiting on a broker error (issue 32's AttributeError)."""
        with open(self.processes.log("worker"), errors="replace") as log:
            return sum("Unrecoverable error" in line for line in log)

    # --- e-mails -------------------------------------------------------------------------------

    def queue_emails(self, count, label):
        run = uuid.uuid4().hex[:8]
        messages = [
            outbox.Message(
                key=f"faults:{label}:{run}:{n}",
                to=f"faults-{label}-{n}@example.invalid",
                subject=f"Fault suite {label} {n}",
                body="An e-mail of the fault suite.",
            )
            for n in range(count)
        ]
        ids = outbox.queue_emails(messages)
        return list(OutboundEmail.objects.filter(pk__in=ids).order_by("pk"))

    def received(self, row):
        return self.sink.received.get(outbox.message_id(row), 0)

    def drain(self):
        """Every e-mail of the run delivered: those whose hand-off to the broker failed wait for
        beat's 10-minute sweep, whose work is done here at once (and counted)."""
        rows = lambda: OutboundEmail.objects.filter(created_at__gte=self.started)  # noqa: E731
        faults.wait_for(lambda: not rows().filter(sent_at__isnull=True).exists(), 60)
        stuck = list(rows().filter(sent_at__isnull=True).values_list("pk", flat=True))
        for email_id in stuck:
            outbox.enqueue(outbox.deliver_email, email_id)
        faults.wait_for(lambda: not rows().filter(sent_at__isnull=True).exists(), 60)
        everything = list(rows())
        counts = [self.received(r) for r in everything]
        return {
            "e-mails": len(everything),
            "waited for the sweep": len(stuck),
            "lost": sum(c == 0 for c in counts),
            "sent twice": sum(max(0, c - 1) for c in counts),
        }

    # --- the report ----------------------------------------------------------------------------

    def write_report(self, results, job_id):
        events = Event.objects.filter(run__job_id=job_id, idempotency_key__startswith="bench:")
        stored = counted(events.values_list("idempotency_key", flat=True))
        acked = self.load.event_keys
        comments = counted(
            Comment.objects.filter(submission_token__in=self.load.comments).values_list(
                "submission_token", flat=True
            )
        )
        mail = self.drain()
        answers = self.load.answers
        out = self.stdout.write
        out("")
        out(f"Load: {len(answers)} requests in all ({self.describe_kinds(answers)}).")
        for r in results:
            if r.get("skipped"):
                out(f"- {r['fault']}: skipped (no Slurm cluster reachable).")
                continue
            extra = {
                k: v
                for k, v in r.items()
                if k
                not in {
                    "fault",
                    "seconds",
                    "requests",
                    "503 try again",
                    "errors seen",
                    "no answer",
                    "error kinds",
                }
            }
            out(
                f"- {r['fault']} ({r['seconds']:.1f} s): {r['requests']} requests during it "
                f"(+{SETTLE:.0f} s), {r['503 try again']} answered 503 with Retry-After, "
                f"{r['errors seen']} errors people saw, {r['no answer']} without an answer"
                + (f" [{', '.join(r['error kinds'])}]" if r["error kinds"] else "")
                + "".join(f"; {k}: {v}" for k, v in extra.items())
            )
        out(
            f"Scheduler events: {len(acked)} acknowledged, "
            f"{sum(1 for k in acked if not stored.get(k))} lost, "
            f"{sum(1 for v in stored.values() if v > 1)} stored twice."
        )
        out(
            f"Comments: {len(self.load.comments)} saved, "
            f"{sum(1 for t in self.load.comments if not comments.get(t))} lost, "
            f"{sum(1 for v in comments.values() if v > 1)} saved twice; "
            f"invitations: {len(self.load.invited)}."
        )
        out(
            f"E-mails: {mail['e-mails']} queued, {mail['lost']} lost, {mail['sent twice']} sent "
            f"twice, {mail['waited for the sweep']} waited for the 10-minute sweep."
        )

    @staticmethod
    def describe_kinds(answers):
        kinds = counted(a.kind for a in answers)
        return ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))


def counted(values):
    return Counter(str(v) for v in values)
