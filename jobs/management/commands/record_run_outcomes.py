from django.core.management.base import BaseCommand

from jobs.runs.models import FINAL_STATES, Run
from jobs.runs.observed import record_outcome


class Command(BaseCommand):
    help = (
        "Write the RunOutcome (declared next to observed) of every ended run that has none, "
        "e.g. runs that ended before outcomes were recorded. Safe to run again."
    )

    def add_arguments(self, parser):
        parser.add_argument("--all", action="store_true", help="Rewrite existing outcomes too.")

    def handle(self, *args, **options):
        runs = Run.objects.filter(state__in=FINAL_STATES).select_related("job", "revision")
        if not options["all"]:
            runs = runs.filter(outcome__isnull=True)
        count = 0
        for run in runs.iterator(chunk_size=200):
            record_outcome(run)
            count += 1
        self.stdout.write(f"Recorded the outcome of {count} run{'s' * (count != 1)}.")
