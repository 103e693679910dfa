import pytest

from jobs import services, spec
from jobs.models import Run


@pytest.fixture
def accepted(team_a, a_member, staff):
    """Team A's complete example job, submitted and accepted: it has a run."""
    job = services.create_draft(team=team_a, user=a_member, data=spec.example_data())
    revision = services.submit(job=job, user=a_member)
    services.review(revision=revision, reviewer=staff, outcome="accepted")
    return job


@pytest.fixture
def run(accepted):
    return Run.objects.select_related("revision", "job").get(job=accepted)
