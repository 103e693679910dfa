"""`manage.py recount`: put every kept count right from the rows themselves: the unread
badges (per user and membership) with each job's unread comments, each unsolved
problem's findings and teams, each team's jobs in each status, and which revisions await
review (the review queue's flag). The services keep them on write; this is for after
writes that bypass them (a bulk import, a hand edit in the database shell). Safe to repeat."""

from django.core.management.base import BaseCommand

from findings.counts import recount_problems
from jobs.awaiting import recount_awaiting
from jobs.counts import recount_statuses
from jobs.unread import recount_unread


class Command(BaseCommand):
    help = "Recount the unread badges, problem and job status counts, review flags from the rows."

    def handle(self, *args, **options):
        recount_unread()
        recount_problems()
        recount_awaiting()
        recount_statuses()
        self.stdout.write(
            self.style.SUCCESS(
                "Unread badges, problem and job status counts, review flags recounted."
            )
        )
