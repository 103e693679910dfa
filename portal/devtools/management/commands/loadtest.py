"""Load test: N concurrent clients for S seconds against a running portal (gunicorn), on
the public pages and the scheduler API. Reports requests, errors and latency percentiles.

    python manage.py loadtest --url http://127.0.0.1:8000 --clients 200 --seconds 60

It needs the portal's database (the same DATABASE_URL as the server): it makes a team of its
own with one accepted job and a scheduler client, and removes them afterwards. Not a test:
run it by hand (README, "Load")."""

import http.client
import json
import threading
import time
import uuid
from datetime import timedelta
from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from jobs.runs import services as run_services
from jobs.runs.models import Run

from .bench_ingest import _clean, _world

PUBLIC = ["/", "/design-partners/", "/problems/", "/spec/v1/schema.json", "/accounts/login/"]


class Command(BaseCommand):
    help = "Concurrent clients on the public pages and the scheduler API; prints p50/p99."

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000")
        parser.add_argument("--clients", type=int, default=200)
        parser.add_argument("--seconds", type=float, default=60.0)

    def handle(self, *args, url, clients, seconds, **options):
        if clients < 1 or seconds <= 0:
            raise CommandError("Use --clients ≥ 1 and --seconds > 0.")
        team, people, job_ids = _world(1)
        run = Run.objects.get(job_id=job_ids[0])
        client_row, token = run_services.create_client(name=f"loadtest {uuid.uuid4().hex[:6]}")
        when = (timezone.now() - timedelta(hours=1)).isoformat()
        target = urlsplit(url)
        stop = time.monotonic() + seconds
        results, lock = [], threading.Lock()
        threads = [
            threading.Thread(
                target=_client,
                args=(i, target, token, run.job_id, when, stop, results, lock),
                daemon=True,
            )
            for i in range(clients)
        ]
        began = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        took = time.monotonic() - began
        _clean(team, people, client_row)
        self.stdout.write(_report(results, clients, took))


def _client(index, target, token, job_id, when, stop, results, lock):
    connection = None
    n = 0
    mine = []
    while time.monotonic() < stop:
        n += 1
        if connection is None:
            connection = http.client.HTTPConnection(target.hostname, target.port or 80, timeout=30)
        kind = "api" if n % 3 == 0 else "page"
        began = time.monotonic()
        try:
            if kind == "page":
                connection.request("GET", PUBLIC[(index + n) % len(PUBLIC)])
            elif n % 2:
                connection.request(
                    "GET", f"/api/v1/scheduler/jobs/{job_id}",
                    headers={"Authorization": f"Bearer {token}"},
                )  # fmt: skip
            else:
                # One key per client: the first is written (rented, then rejected as a repeat
                # of the move), the rest are the idempotent path.
                body = json.dumps({"kind": "rented", "idempotency_key": f"loadtest:{index}",
                                   "occurred_at": when})  # fmt: skip
                connection.request(
                    "POST", f"/api/v1/scheduler/jobs/{job_id}/events", body,
                    headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
                )  # fmt: skip
            response = connection.getresponse()
            response.read()
            ok = response.status < 500 and response.status not in (429,)
            status = response.status
        except (OSError, http.client.HTTPException) as error:
            ok, status = False, type(error).__name__
            connection.close()
            connection = None
        mine.append((kind, time.monotonic() - began, ok, status))
    with lock:
        results.extend(mine)


def _percentile(values, p):
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def _report(results, clients, took):
    lines = [f"{clients} clients for {took:.0f} s: {len(results)} requests, "
             f"{len(results) / took:,.0f}/s"]  # fmt: skip
    for kind in ("page", "api"):
        times = [t for k, t, _, _ in results if k == kind]
        errors = [s for k, _, ok, s in results if k == kind and not ok]
        lines.append(
            f"  {kind:4}: {len(times)} requests, {len(errors)} errors"
            + (f" ({sorted(set(map(str, errors)))[:5]})" if errors else "")
            + f", p50 {_percentile(times, 50) * 1000:.0f} ms, p99 {_percentile(times, 99) * 1000:.0f} ms"
        )
    return "\n".join(lines)
