"""`python manage.py slurm_benchmark`: how long a Slurm state change takes to reach the
portal, for a given poll interval, and what the agent costs per watched job.

It needs the local cluster (`make slurm`) and writes to the configured database: a team,
a cluster and a few small jobs named bench-*, all deleted at the end (--keep keeps them).
The portal is served in this process on a free port; the agent runs in a thread of this
process against it over HTTP, exactly as it would from a login node, so its counters (Slurm
commands, HTTP requests, CPU time of its thread and of the Slurm commands it ran) are read
directly. Not a test: a report."""

import resource
import statistics
import tempfile
import threading
import time
import uuid
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from django.core.management.base import BaseCommand, CommandError
from django.core.wsgi import get_wsgi_application
from django.db import connections

from jobs import services as job_services
from jobs.demo import small_slurm_job
from jobs.runs import dispatch as dispatch_mod
from jobs.runs.models import Event, Run
from jobs.slurm_agent.agent import Agent
from jobs.slurm_agent.portal import Portal
from jobs.slurm_agent.slurm import Slurm, SlurmError
from portal.models import Membership, Role, Team, User


class ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


class Command(BaseCommand):
    help = "Measure Slurm → portal latency and the agent's cost per watched job."

    def add_arguments(self, parser):
        parser.add_argument("--jobs", type=int, default=4, help="Jobs run at once (4).")
        parser.add_argument(
            "--interval", type=float, default=2.0, help="Agent poll interval (2 s)."
        )
        parser.add_argument("--seconds", type=int, default=4, help="Each job's run time (4 s).")
        parser.add_argument("--partition", default="e31")
        parser.add_argument("--keep", action="store_true", help="Keep the bench-* rows.")

    def handle(self, *args, jobs, interval, seconds, partition, keep, **options):
        workdir = tempfile.mkdtemp(prefix="e31-bench-")
        slurm = Slurm(partition=partition, workdir=workdir)
        try:
            slurm.partition_info()
        except SlurmError as error:
            raise CommandError(f"No Slurm cluster ({error}): run `make slurm` first.") from None
        tag = uuid.uuid4().hex[:6]
        team, users, cluster, token, runs = self.set_up(tag, jobs, seconds, partition)
        server = make_server("127.0.0.1", 0, get_wsgi_application(), ThreadingServer, QuietHandler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_port}"
        agent = Agent(Portal(url, token), slurm, interval=interval)
        cpu = {"thread": 0.0}

        def work():
            start = time.thread_time()
            agent.run_forever()
            cpu["thread"] = time.thread_time() - start
            connections.close_all()

        children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        thread = threading.Thread(target=work, daemon=True)
        began = time.monotonic()
        thread.start()
        try:
            for run in runs:
                dispatch_mod.dispatch(run=run, cluster=cluster, actor=users[0])
            deadline = time.monotonic() + 120 + seconds * 3
            while time.monotonic() < deadline:
                states = set(
                    Run.objects.filter(pk__in=[r.pk for r in runs]).values_list("state", flat=True)
                )
                if states <= {"released", "failed", "cancelled"}:
                    break
                time.sleep(0.5)
            else:
                self.stderr.write("Not every job ended in time; reporting what arrived.")
            # A few idle polls of the finished dispatches do not count as watching: stop now.
            agent.stopping = True
            thread.join(timeout=30)
            wall = time.monotonic() - began
            children = resource.getrusage(resource.RUSAGE_CHILDREN)
            self.report(runs, agent, interval, cpu, children_before, children, wall)
        finally:
            server.shutdown()
            if not keep:
                self.tear_down(team, users, cluster)

    def set_up(self, tag, count, seconds, partition):
        team = Team.objects.create(name=f"bench-{tag}", slug=f"bench-{tag}", organisation="bench")
        member = User.objects.create_user(f"bench-{tag}@example.invalid", uuid.uuid4().hex)
        Membership.objects.create(team=team, user=member, role=Role.ADMIN)
        staff = User.objects.create_user(f"bench-staff-{tag}@example.invalid", uuid.uuid4().hex,
                                         is_staff=True)  # fmt: skip
        cluster, token = dispatch_mod.create_cluster(
            name=f"bench-{tag}",
            partition=partition,
            accelerator_map={"H100-80GB": "gpu:h100"},
            stage_command="sleep 1 # {location}",
            deliver_command="sleep 1 # {destination}",
        )
        dispatch_mod.report_partition(
            cluster=cluster, **Slurm(partition=partition).partition_info()
        )
        cluster.refresh_from_db()
        runs = []
        for index in range(count):
            data = small_slurm_job(f"bench-{tag}-{index}", f"sleep {seconds}", gpus=1)
            job = job_services.create_draft(team=team, user=member, data=data)
            revision = job_services.submit(job=job, user=member, acknowledge_warnings=True)
            job_services.review(revision=revision, reviewer=staff, outcome="accepted")
            runs.append(Run.objects.select_related("revision", "job").get(job=job))
        return team, [staff, member], cluster, token, runs

    def tear_down(self, team, users, cluster):
        client = cluster.client
        Run.objects.filter(job__team=team).delete()  # dispatches, events, holds
        team.delete()  # jobs, revisions
        cluster.delete()
        client.delete()
        for user in users:
            user.delete()

    def report(self, runs, agent, interval, cpu, before, after, wall):
        events = list(Event.objects.filter(run__in=runs, client__isnull=False))
        # Slurm records whole seconds: an event happened somewhere in the second it names.
        lags = [(e.received_at - e.occurred_at).total_seconds() - 0.5 for e in events]
        children_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        watched = max(agent.watched, 1)
        out = self.stdout.write
        out(
            f"Slurm agent benchmark: {len(runs)} jobs at once, poll interval {interval:g} s, {wall:.0f} s in all"
        )
        if lags:
            out(
                f"  Slurm state change → portal: median {statistics.median(lags):.2f} s, "
                f"p95 {percentile(lags, 0.95):.2f} s, max {max(lags):.2f} s over {len(lags)} events "
                f"(expected about interval/2 + sacct + one HTTP post: {interval / 2:.2f} s + a little)"
            )
            by_kind = {}
            for event, lag in zip(events, lags, strict=True):
                by_kind.setdefault(event.kind, []).append(lag)
            out("  by event (median): " + ", ".join(
                f"{kind} {statistics.median(values):.2f} s" for kind, values in by_kind.items()))  # fmt: skip
        out("  sacct reads slurmdbd, which hears of a start or an end up to about a second after")
        out("  slurmctld; the job page polls every 3 s on top of that.")
        out(f"  polls: {agent.polls}, dispatches looked at: {agent.watched} "
            f"({agent.watched / max(agent.polls, 1):.1f} per poll)")  # fmt: skip
        out(f"  Slurm commands: {agent.slurm.calls} ({agent.slurm.calls / max(agent.polls, 1):.2f} per poll: "
            "one sacct for every watched job at once)")  # fmt: skip
        out(
            f"  HTTP requests: {agent.portal.requests} ({agent.portal.requests / watched:.2f} per watched job per poll)"
        )
        out(
            f"  agent CPU: {cpu['thread'] * 1000:.0f} ms in its thread, {children_cpu * 1000:.0f} ms "
            f"in Slurm commands; per watched job per poll: {cpu['thread'] * 1000 / watched:.2f} ms "
            f"+ {children_cpu * 1000 / watched:.2f} ms"
        )
