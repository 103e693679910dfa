import os
from pathlib import Path

import pytest
from django.core.cache import cache
from hypothesis import settings as hypothesis_settings

from jobs import jobformat, services
from jobs.runs.models import Run
from portal.celery import app as celery_app
from portal.models import Membership, Role, Team, User

PASSWORD = "correct horse battery staple"

# Property tests: 100 examples each in the everyday suite (their inputs cost more to generate
# than the code under test costs to run); HYPOTHESIS_PROFILE=thorough tries 2,000 each.
hypothesis_settings.register_profile("default", max_examples=100, deadline=None)
hypothesis_settings.register_profile("thorough", max_examples=2000, deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# The workspace's sample of real job files, beside the clone (CI has it). A clone elsewhere
# skips the tests that read it, saying so; REQUIRE_SHARED_CORPUS=1 (CI) makes that a failure.
SHARED_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def needs_shared_corpus():
    if SHARED_CORPUS.is_dir():
        return pytest.mark.shared_corpus
    reason = f"../shared/corpus is not beside this clone ({SHARED_CORPUS}); CI runs these"
    if os.environ.get("REQUIRE_SHARED_CORPUS") == "1":
        raise RuntimeError(f"REQUIRE_SHARED_CORPUS=1 but {reason}")
    return pytest.mark.skip(reason=reason)


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


def make_user(email, *, staff=False, team=None, role=Role.MEMBER):
    user = User.objects.create_user(
        email, PASSWORD, is_staff=staff, is_superuser=staff, full_name=email.split("@")[0]
    )
    if team is not None:
        Membership.objects.create(team=team, user=user, role=role)
    return user


@pytest.fixture
def team_a(db):
    return Team.objects.create(name="Team A", slug="team-a", organisation="A Corp")


@pytest.fixture
def team_b(db):
    return Team.objects.create(name="Team B", slug="team-b", organisation="B Corp")


@pytest.fixture
def a_admin(team_a):
    return make_user("admin@a.example", team=team_a, role=Role.ADMIN)


@pytest.fixture
def a_member(team_a):
    return make_user("member@a.example", team=team_a)


@pytest.fixture
def b_member(team_b):
    return make_user("member@b.example", team=team_b, role=Role.ADMIN)


@pytest.fixture
def staff(db):
    return make_user("staff@e31.example", staff=True)


@pytest.fixture
def client_for(client):
    """Log a client in as someone (force_login skips the throttled backend)."""

    def login_as(user):
        client.logout()
        if user is not None:
            client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
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
