import csv
import os
from collections import namedtuple
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.servers.basehttp import WSGIServer
from django.db import connections
from django.test.testcases import LiveServerThread
from hypothesis import settings as hypothesis_settings

from jobs import jobformat, services
from jobs.demo import small_slurm_job
from jobs.runs.models import Run
from portal.celery import app as celery_app
from portal.models import Role, Team
from tests.users import PASSWORD
from tests.users import log_in as _log_in
from tests.users import make_user as _make_user

# A real Slurm cluster's fixtures (`cluster`, `start_agent`, `flaky_portal`): the Slurm tests
# and the browser journey that dispatches to the cluster both use them.
pytest_plugins = ["tests.jobs.slurm_agent.cluster"]

# Property tests: 100 examples each in the everyday suite (their inputs cost more to generate
# than the code under test costs to run); HYPOTHESIS_PROFILE=thorough tries 2,000 each.
hypothesis_settings.register_profile("default", max_examples=100, deadline=None)
hypothesis_settings.register_profile("thorough", max_examples=2000, deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# The workspace's sample of real job files, beside the clone (CI has it). Tests that read it are
# marked `shared_corpus`: a clone elsewhere skips them, saying so; REQUIRE_SHARED_CORPUS=1 (CI)
# makes that a failure. They take the folder as `shared_corpus`, its files as
# `shared_corpus_files`, or are run once per file by asking for `shared_corpus_file`.
SHARED_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
CorpusFile = namedtuple("CorpusFile", "path category")


def shared_corpus_absent():
    if SHARED_CORPUS.is_dir():
        return ""
    return f"../shared/corpus is not beside this clone ({SHARED_CORPUS}); CI runs these"


def shared_corpus_listed():
    """Every file the corpus's MANIFEST.csv files list, in their order; none without it."""
    rows = []
    for manifest in sorted(SHARED_CORPUS.glob("*/MANIFEST.csv")):
        with manifest.open() as handle:
            for row in csv.DictReader(handle):
                rows.append(CorpusFile(manifest.parent / row["flat_name"], row["category"]))
    return rows


def pytest_generate_tests(metafunc):
    if "shared_corpus_file" in metafunc.fixturenames:
        files = shared_corpus_listed()
        metafunc.parametrize("shared_corpus_file", files, ids=[f.path.name for f in files])


def pytest_collection_modifyitems(config, items):
    reason = shared_corpus_absent()
    if not reason or os.environ.get("REQUIRE_SHARED_CORPUS") == "1":
        return
    for item in items:
        if item.get_closest_marker("shared_corpus"):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.hookimpl(tryfirst=True)  # before an empty parameter set's skip
def pytest_runtest_setup(item):
    reason = shared_corpus_absent()
    required = os.environ.get("REQUIRE_SHARED_CORPUS") == "1"
    if reason and required and item.get_closest_marker("shared_corpus"):
        pytest.fail(f"REQUIRE_SHARED_CORPUS=1 but {reason}", pytrace=False)


@pytest.fixture(scope="session")
def shared_corpus():
    return SHARED_CORPUS


@pytest.fixture(scope="session")
def shared_corpus_files():
    return shared_corpus_listed()


class _OneRequestAtATime(WSGIServer):
    """The live server for an in-memory SQLite database: every request thread of Django's
    threaded server shares the test's one connection, so two requests at once (an autosave
    while the form is posted) start a transaction inside the other's. Served one by one, in
    the server's own thread, which Django's LiveServerThread gives the shared connection."""

    def __init__(self, *args, connections_override=None, **kwargs):
        super().__init__(*args, **kwargs)


@pytest.fixture(scope="session", autouse=True)
def _serial_live_server_on_memory_sqlite():
    # SQLite test databases are in memory (no TEST NAME is set); the check runs before they exist.
    if any(c.vendor == "sqlite" for c in connections.all()):
        LiveServerThread.server_class = _OneRequestAtATime


@pytest.fixture(autouse=True)
def _fresh_cache():
    # Rate-limit counts from one test must not refuse the next (tests use local memory).
    cache.clear()


@pytest.fixture(autouse=True)
def _fast_and_eager(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.SITE_URL = "http://testserver"
    # Tasks run in-process unless a test starts a real worker.
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager = False


@pytest.fixture
def password():
    """Every test user's password."""
    return PASSWORD


@pytest.fixture
def make_user(db):
    """make_user(email, *, staff=False, team=None, role=Role.MEMBER): a user with `password`."""
    return _make_user


@pytest.fixture
def team_a(db):
    return Team.objects.create(name="Team A", slug="team-a", organisation="A Corp")


@pytest.fixture
def team_b(db):
    return Team.objects.create(name="Team B", slug="team-b", organisation="B Corp")


@pytest.fixture
def a_admin(team_a):
    return _make_user("admin@a.example", team=team_a, role=Role.ADMIN)


@pytest.fixture
def a_member(team_a):
    return _make_user("member@a.example", team=team_a)


@pytest.fixture
def b_member(team_b):
    return _make_user("member@b.example", team=team_b, role=Role.ADMIN)


@pytest.fixture
def staff(db):
    return _make_user("staff@e31.example", staff=True)


@pytest.fixture
def client_for(client):
    """Log a client in as someone (force_login skips the throttled backend), past the second
    step: staff as if they had typed their code, partners as people who have not set it up
    (tests/portal/test_second_factor.py logs in through both steps)."""

    def login_as(user):
        client.logout()
        if user is not None:
            _log_in(client, user)
        return client

    return login_as


@pytest.fixture
def accepted(team_a, a_member, staff):
    """Team A's complete example job, submitted and accepted: it has a run."""
    job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    revision = services.submit(job=job, user=a_member)
    services.review(revision=revision, reviewer=staff, outcome="accepted")
    return job


@pytest.fixture
def run(accepted):
    return Run.objects.select_related("revision", "job").get(job=accepted)


@pytest.fixture
def small_job():
    """small_job(name, command="sleep 3", **options): a small Slurm job's description data."""

    def make(name, command="sleep 3", **options):
        return small_slurm_job(name, command, **options)

    return make


@pytest.fixture
def accepted_run(db):
    """accepted_run(team, member, staff, data): `data` submitted (warnings acknowledged) and
    accepted; its run."""

    def accept(team, member, staff, data):
        job = services.create_draft(team=team, user=member, data=data)
        revision = services.submit(job=job, user=member, acknowledge_warnings=True)
        services.review(revision=revision, reviewer=staff, outcome="accepted")
        return Run.objects.select_related("revision", "job").get(job=job)

    return accept
