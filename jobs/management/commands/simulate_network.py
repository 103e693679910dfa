from argparse import ArgumentTypeError
from datetime import UTC, datetime

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
        parser.add_argument(
            "--start",
            type=_when,
            help="When the runs' job time starts (ISO 8601, UTC if no offset; default now). "
            "Never before a job's acceptance: an earlier time is moved to it.",
        )

    def handle(self, *args, job=None, bandwidth_gbps, preemption, live, start=None, **options):
        runs = Run.objects.select_related("revision", "job").exclude(
            state__in=["released", "failed", "cancelled"]
        )
        if job:
            runs = runs.filter(job_id__in=job)
        runs = list(runs)
        if not runs:
            raise CommandError("No accepted job is waiting to run.")
        for run in runs:
            moved = simulator.moved_start(run, start)
            if live:
                if not enqueue(simulate_run, run.pk, live, start.isoformat() if start else None):
                    raise CommandError("The task queue is down: start the broker and retry.")
                self.stdout.write(f"{run.job}: scheduled in Celery at {live:g}× speed.{moved}")
                continue
            run = simulator.play_now(
                run, start=start, bandwidth=bandwidth_gbps * 1.25e8, preemption=preemption
            )
            self.stdout.write(
                f"{run.job}: {run.get_state_display().lower()}, {run.restarts} restart(s), "
                f"{run.events.count()} events, {run.holds.count()} holds (simulated).{moved}"
            )


def _when(text):
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        raise ArgumentTypeError(f"{text!r} is not a time (e.g. 2027-03-01T09:00)") from None
    return value if value.tzinfo else value.replace(tzinfo=UTC)
