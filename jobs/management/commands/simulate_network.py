from django.core.management.base import BaseCommand, CommandError

from jobs.runs import simulator
from jobs.runs.models import Run
from jobs.runs.tasks import simulate_run
from portal.outbox import enqueue


class Command(BaseCommand):
    help = (
        "Play the network for accepted jobs (marked simulated): rent, stage, run, output, release."
    )

    def add_arguments(self, parser):
        parser.add_argument("--job", type=int, action="append", help="Only these job ids.")
        parser.add_argument(
            "--bandwidth-gbps", type=float, default=10.0, help="Staging bandwidth, Gbit/s."
        )
        parser.add_argument("--preemption", type=float, default=simulator.DEFAULT_PREEMPTION)
        parser.add_argument(
            "--live",
            type=float,
            metavar="SPEED",
            help="Play through Celery in real time, SPEED seconds of job time per second (e.g. 3600).",
        )

    def handle(self, *args, job=None, bandwidth_gbps, preemption, live, **options):
        runs = Run.objects.select_related("revision", "job").exclude(
            state__in=["released", "failed", "cancelled"]
        )
        if job:
            runs = runs.filter(job_id__in=job)
        runs = list(runs)
        if not runs:
            raise CommandError("No accepted job is waiting to run.")
        for run in runs:
            if live:
                if not enqueue(simulate_run, run.pk, live):
                    raise CommandError("The task queue is down: start the broker and retry.")
                self.stdout.write(f"{run.job}: scheduled in Celery at {live:g}× speed.")
                continue
            run = simulator.play_now(run, bandwidth=bandwidth_gbps * 1.25e8, preemption=preemption)
            self.stdout.write(
                f"{run.job}: {run.get_state_display().lower()}, {run.restarts} restart(s), "
                f"{run.events.count()} events, {run.holds.count()} holds (simulated)."
            )
