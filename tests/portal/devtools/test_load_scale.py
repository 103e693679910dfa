"""`load_scale` at the smallest factor (the 100× runs belong to the benchmark, not the suite)."""

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction

from findings.models import Finding
from jobs import counts
from jobs.awaiting import awaiting
from jobs.models import FieldSignal, JobDescription, Revision
from jobs.runs.models import FINAL_STATES, Event, Run, RunOutcome
from jobs.selectors import unread_recounted
from portal import badges
from portal.intake.models import IntakeApplication
from portal.models import Team, User
from portal.selectors import memberships_for

pytestmark = pytest.mark.django_db


def _fingerprint():
    return (
        list(JobDescription.objects.order_by("name").values_list("name", "status")[:50]),
        list(Finding.objects.order_by("title").values_list("title", "status", "kind")[:50]),
        Event.objects.count(),
    )


class Rollback(Exception):
    pass


def test_load_scale_makes_a_busy_program_the_same_way_each_time():
    call_command("load_scale", factor=1, seed=7)
    first = _fingerprint()
    assert Team.objects.count() == 3
    assert JobDescription.objects.count() == 200 and Finding.objects.count() == 500
    assert IntakeApplication.objects.count() == 30
    # Runs are replayable histories: every run's state is its last applied event's.
    for run in Run.objects.prefetch_related("events")[:20]:
        events = sorted(run.events.all(), key=lambda e: e.occurred_at)
        assert not events or events[-1].to_state == run.state
    # What the program learns is there too: an outcome per ended run, field signals.
    ended = Run.objects.filter(state__in=FINAL_STATES).count()
    assert ended and RunOutcome.objects.count() == ended
    assert FieldSignal.objects.exclude(job__status="draft").count() == FieldSignal.objects.count()
    assert FieldSignal.objects.count() > 100
    # The badges were recounted after the bulk writes.
    for user in User.objects.all()[:20]:
        assert badges.badge(user, list(memberships_for(user))) == unread_recounted(user)
    # The teams' status counts were counted after the bulk writes.
    assert counts.kept() == counts.counted() and counts.kept()
    # The review queue's flags are set as the services set them.
    flagged = Revision.objects.filter(awaiting_review=True)
    assert flagged.exists() and set(flagged) == set(Revision.objects.filter(awaiting()))
    with pytest.raises(CommandError, match="already loaded"):
        call_command("load_scale", factor=1, seed=7)

    with pytest.raises(Rollback), transaction.atomic():
        IntakeApplication.objects.all().delete()
        Run.objects.all().delete()
        JobDescription.objects.all().delete()
        Finding.objects.all().delete()
        Team.objects.all().delete()
        User.objects.all().delete()
        Event.objects.all().delete()
        call_command("load_scale", factor=1, seed=7)
        assert _fingerprint() == first
        raise Rollback
