"""Who sent each event, as the run's table says it: the scheduler by its name, a staff
member by the name people read (their full name, else their email), nobody as a dash."""

from datetime import timedelta

import pytest
from django.utils import timezone

from jobs.runs import services
from jobs.runs.models import Event

pytestmark = pytest.mark.django_db


def labels(run):
    return [e.actor_label for e in run.events.with_senders()]


def test_each_sender_is_named_as_people_read_it(run, staff, make_user):
    named = make_user("named@e31.example", staff=True)
    named.full_name = "Nadia Named"
    named.save(update_fields=["full_name"])
    staff.full_name = ""
    staff.save(update_fields=["full_name"])
    scheduler, _ = services.create_client(name="Lab scheduler", simulated=True)
    start = timezone.now()
    senders = [(None, scheduler), (named, None), (staff, None), (None, None)]
    for i, (person, client) in enumerate(senders):
        Event.objects.create(
            run=run,
            kind="rented",
            occurred_at=start + timedelta(minutes=i),
            idempotency_key=f"k{i}",
            actor=person,
            client=client,
            simulated=client is not None,
        )

    assert labels(run) == [
        "scheduler Lab scheduler (simulated)",
        "staff Nadia Named",
        "staff staff@e31.example",
        "—",
    ]


def test_a_deleted_staff_member_leaves_a_dash(run, make_user):
    gone = make_user("gone@e31.example", staff=True)
    Event.objects.create(
        run=run, kind="rented", occurred_at=timezone.now(), idempotency_key="k", actor=gone
    )
    gone.delete()
    assert labels(run) == ["—"]
