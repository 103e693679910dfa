"""manage.py bench_ingest: it measures a team like a real one and leaves nothing behind."""

import io

import pytest
from django.core.management import call_command

from jobs.models import JobDescription
from jobs.runs.models import Event, SchedulerClient
from portal.models import Membership, Notice, OutboundEmail, Team, User

pytestmark = pytest.mark.django_db


def bench(*flags):
    out = io.StringIO()
    call_command("bench_ingest", "--events=40", "--runs=2", "--batch=20", *flags, stdout=out)
    return out.getvalue()


def test_its_team_is_six_people_each_told_of_each_run():
    out = bench("--keep")
    assert "40 events in 2 batches of 20 into 2 run(s) of a team of 6:" in out
    team = Team.objects.get(slug__startswith="bench-ingest-")
    assert Membership.objects.filter(team=team).count() == 6
    assert Event.objects.filter(status="applied").count() == 40
    # Both runs went from submitted to running: a notice and an e-mail for each person.
    assert Notice.objects.filter(team=team).count() == 2 * 6
    assert OutboundEmail.objects.filter(dedupe_key__startswith="run:").count() == 2 * 6


def test_it_leaves_nothing_behind():
    assert "events/s" in bench("--members=3")
    assert not Team.objects.exists() and not User.objects.exists()
    assert not JobDescription.objects.exists() and not Event.objects.exists()
    assert not SchedulerClient.objects.exists() and not OutboundEmail.objects.exists()
    assert not Notice.objects.exists()
