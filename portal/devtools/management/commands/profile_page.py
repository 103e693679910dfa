"""`manage.py profile_page PATH --as EMAIL`: where one page's time goes, in this process.

Requests the page through Django's test client (no server, no network) a number of times
after a few unmeasured ones, and prints the median (and the fastest) per request of: the
whole request, the time spent in the database (every statement, timed around its
execution), the template rendering less the queries run inside it, and the rest
(middleware, the view's own Python). With --cpu, the CPU time of this process instead of
the time on the clock (steadier when other work shares the machine). With --sql, each
statement of the last request with its time; with --profile, the functions that took
longest over every measured request (cProfile: cumulative, then own time).

Not the benchmark (docs/speed.md): a quick look at one page, to compare before and after a
change under the same conditions. Point DATABASE_URL at the database to read."""

import cProfile
import pstats
import statistics
import sys
import time
from contextlib import contextmanager

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.template.backends.django import Template
from django.test import Client

from portal.devtools.demo_pages import past_second_step
from portal.models import User


class Timer:
    """Database time (every statement) and template time (outermost render) of a request."""

    def __init__(self, clock):
        self.clock = clock
        self.sql, self.render, self.render_sql, self.statements = 0.0, 0.0, 0.0, []
        self._rendering = 0

    def reset(self):
        self.sql, self.render, self.render_sql, self.statements = 0.0, 0.0, 0.0, []

    def __call__(self, execute, sql, params, many, context):
        started = self.clock()
        try:
            return execute(sql, params, many, context)
        finally:
            spent = self.clock() - started
            self.sql += spent
            if self._rendering:
                self.render_sql += spent
            self.statements.append((spent, sql))

    @contextmanager
    def rendering(self):
        self._rendering += 1
        started = self.clock()
        try:
            yield
        finally:
            self._rendering -= 1
            if not self._rendering:
                self.render += self.clock() - started


class Command(BaseCommand):
    help = "Time one page in-process: database, templates, the rest (median per request)."

    def add_arguments(self, parser):
        parser.add_argument("path")
        parser.add_argument("--as", dest="email", help="log in as this user first")
        parser.add_argument("--requests", type=int, default=50)
        parser.add_argument("--warm-up", type=int, default=5)
        parser.add_argument("--sql", action="store_true", help="list the last request's SQL")
        parser.add_argument(
            "--cpu",
            action="store_true",
            help="this process's CPU time, not wall-clock time: steadier on a busy machine "
            "(the database server's own work is then not counted)",
        )
        parser.add_argument("--profile", type=int, default=0, metavar="N", help="top N functions")

    def handle(self, *args, path, email, requests, warm_up, sql, cpu, profile, **options):
        client = Client(HTTP_HOST="127.0.0.1")
        if email:
            try:
                user = User.objects.get(email=email)
            except User.DoesNotExist:
                raise CommandError(f"No user {email}.") from None
            client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
            # Staff pages answer a redirect to the second step until the session has passed it.
            past_second_step(client.session.session_key, user)
        clock = time.thread_time if cpu else time.perf_counter
        timer = Timer(clock)
        original = Template.render

        def render(template, *a, **kw):
            with timer.rendering():
                return original(template, *a, **kw)

        Template.render = render
        profiler = cProfile.Profile() if profile else None
        rows = []
        try:
            with connection.execute_wrapper(timer):
                for i in range(warm_up + requests):
                    timer.reset()
                    if profiler and i >= warm_up:
                        profiler.enable()
                    started = clock()
                    response = client.get(path)
                    total = clock() - started
                    if profiler and i >= warm_up:
                        profiler.disable()
                    if response.status_code != 200:
                        raise CommandError(f"{path} answered {response.status_code}.")
                    if i >= warm_up:
                        rows.append(
                            (
                                total,
                                timer.sql,
                                timer.render - timer.render_sql,
                                len(response.content),
                            )
                        )
        finally:
            Template.render = original

        def ms(index):
            # The fastest too: on a machine others share, the least disturbed request.
            median, fastest = statistics.median(r[index] for r in rows), min(r[index] for r in rows)
            return f"{median * 1000:6.2f} ms (fastest {fastest * 1000:.2f})"

        rest = statistics.median(r[0] - r[1] - (r[2]) for r in rows) * 1000
        self.stdout.write(
            f"{path} as {email or 'anonymous'}: {len(rows)} requests, "
            f"{len(timer.statements)} queries, {rows[-1][3]:,} bytes"
            f"{' (CPU time of this process)' if cpu else ''}\n"
            f"  request   {ms(0)}\n"
            f"  database  {ms(1)}\n"
            f"  templates {ms(2)} (less their queries)\n"
            f"  the rest  {rest:6.2f} ms (middleware, the view's Python)"
        )
        if sql:
            for spent, statement in timer.statements:
                self.stdout.write(f"  {spent * 1000:6.2f} ms  {statement[:400]}")
        if profiler:
            # Straight to the terminal: the command's own stream ends every write with a line.
            stats = pstats.Stats(profiler, stream=sys.stdout)
            stats.sort_stats("cumulative").print_stats(profile)
            stats.sort_stats("tottime").print_stats(profile)
