"""Benchmark of the scheduler's batch ingest: events per second through the whole HTTP
stack (middleware, token, JSON, one transaction per batch), into one run or across many.

    python manage.py bench_ingest --events 20000 --runs 1
    python manage.py bench_ingest --events 20000 --runs 100

It works on the configured database, in a team of its own (`bench-ingest-…`, members at
`example.invalid` so no e-mail is deliverable) that it deletes afterwards. The team has
six people, as Northwind Vision has at 100× (`--members`): each state a run reaches is a
notice and an e-mail for each of them, a good part of what a batch costs."""

import json
import time
import uuid
from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from jobs import jobformat, services
from jobs.models import JobDescription
from jobs.runs import services as run_services
from jobs.runs.models import Run, SchedulerClient
from portal.models import Membership, OutboundEmail, Role, Team, User


class Command(BaseCommand):
    help = "Measure scheduler batch ingest (events/s) into one run or across many."

    def add_arguments(self, parser):
        parser.add_argument("--events", type=int, default=20_000, help="Events in all.")
        parser.add_argument("--runs", type=int, default=1, help="Runs they are spread over.")
        parser.add_argument("--batch", type=int, default=500, help="Events per request.")
        parser.add_argument("--members", type=int, default=6, help="People in the team.")
        parser.add_argument("--keep", action="store_true", help="Keep the bench team and runs.")

    def handle(self, *args, events, runs, batch, members, keep, **options):
        if not (1 <= batch <= 500 and runs >= 1 and events >= batch and members >= 1):
            raise CommandError(
                "Use 1 ≤ --batch ≤ 500, --runs ≥ 1, --members ≥ 1 and --events ≥ --batch."
            )
        team, people, job_ids = _world(runs, members)
        client_row, token = run_services.create_client(name=f"bench {team.slug}")
        http = Client(headers={"authorization": f"Bearer {token}"}, HTTP_HOST="127.0.0.1")
        url = reverse("api:scheduler_batch")
        start = timezone.now() - timedelta(days=30)
        sent, seconds, worst = 0, 0.0, 0.0
        try:
            while sent < events:
                body = json.dumps({"events": _batch(job_ids, sent, batch, start)})
                began = time.perf_counter()
                response = http.post(url, body, content_type="application/json")
                took = time.perf_counter() - began
                if response.status_code != 200:
                    raise CommandError(f"HTTP {response.status_code}: {response.content[:300]!r}")
                results = response.json()["results"]
                if any(r.get("error") or r["status"] != "applied" for r in results):
                    raise CommandError(f"not every event applied: {results[:3]}")
                sent, seconds, worst = sent + batch, seconds + took, max(worst, took)
        finally:
            if not keep:
                _clean(team, people, client_row)
        self.stdout.write(
            f"{sent} events in {sent // batch} batches of {batch} into {runs} run(s) of a team "
            f"of {members}: "
            f"{seconds:.2f} s, {sent / seconds:,.0f} events/s, slowest batch {worst * 1000:.0f} ms"
        )


def _world(runs, members):
    slug = f"bench-ingest-{uuid.uuid4().hex[:8]}"
    with transaction.atomic():
        team = Team.objects.create(name=slug, slug=slug, organisation="benchmark")
        people = [
            User.objects.create_user(f"{slug}-{i}@example.invalid", None, full_name=f"Bench {i}")
            for i in range(members)
        ]
        staff = User.objects.create_user(f"{slug}-staff@example.invalid", None, is_staff=True)
        for i, person in enumerate(people):
            # Two admins, the rest members, as Northwind Vision.
            Membership.objects.create(
                team=team, user=person, role=Role.ADMIN if i < 2 else Role.MEMBER
            )
        user = people[0]
        job_ids = []
        for _ in range(runs):
            job = services.create_draft(team=team, user=user, data=jobformat.example_data())
            revision = services.submit(job=job, user=user)
            services.review(revision=revision, reviewer=staff, outcome="accepted")
            job_ids.append(job.pk)
    return team, [*people, staff], job_ids


def _batch(job_ids, sent, size, start):
    """Events in order, each run in turn: rented, then running and preempted (back to
    rented) alternately, so every event is applied and the runs keep changing state."""
    events = []
    for n in range(sent, sent + size):
        job_id, step = job_ids[n % len(job_ids)], n // len(job_ids)
        kind, requeue = ("rented", "") if step == 0 else ("running", "")
        if step > 0 and step % 2 == 0:
            kind, requeue = "preempted", "rented"
        events.append(
            {
                "job_id": job_id,
                "kind": kind,
                "requeue_to": requeue,
                "occurred_at": (start + timedelta(milliseconds=n)).isoformat(),
                "idempotency_key": f"bench:{n}",
            }
        )
    return events


def _clean(team, people, client_row):
    with transaction.atomic():
        Run.objects.filter(job__team=team).delete()  # first: a run protects its revision
        JobDescription.objects.filter(team=team).delete()
        team.delete()
        OutboundEmail.objects.filter(to__in=[p.email for p in people]).delete()
        User.objects.filter(pk__in=[p.pk for p in people]).delete()
        SchedulerClient.objects.filter(pk=client_row.pk).delete()
