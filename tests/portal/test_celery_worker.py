"""A real Celery worker, on the configured broker (Redis in CI, the filesystem
broker otherwise), delivers an e-mail that a service enqueued after commit."""

import re
import time
import uuid

import pytest
from celery.contrib.testing.worker import start_worker
from django.core import mail

from portal import services
from portal.celery import app as celery_app
from portal.intake.services import submit_application
from portal.models import OutboundEmail

from .intake.intake_helpers import application_data, make_window


@pytest.fixture
def real_worker(tmp_path):
    conf = celery_app.conf
    saved = {
        "task_always_eager": conf.task_always_eager,
        "task_default_queue": conf.task_default_queue,
        "broker_transport_options": dict(conf.broker_transport_options or {}),
    }
    conf.task_always_eager = False
    # A queue of our own, so a `make run` worker on the same broker cannot take the task.
    conf.task_default_queue = f"test-{uuid.uuid4().hex[:8]}"
    if conf.broker_url.startswith("filesystem://"):
        folder = str(tmp_path / "queue")
        (tmp_path / "queue").mkdir()
        (tmp_path / "control").mkdir()
        conf.broker_transport_options = {
            "data_folder_in": folder,
            "data_folder_out": folder,
            "control_folder": str(tmp_path / "control"),
        }
    # Earlier tests may have built the app's connection pool and queue table with the old
    # settings: drop both so the producer and the worker see the ones above.
    celery_app._pool = None
    celery_app.amqp.__dict__.pop("queues", None)
    celery_app.amqp._producer_pool = None
    with start_worker(
        celery_app, pool="solo", perform_ping_check=False, loglevel="WARNING"
    ) as worker:
        yield worker
    for key, value in saved.items():
        setattr(conf, key, value)


@pytest.mark.django_db(transaction=True)
def test_real_worker_delivers_invitation_email(real_worker, team_a, a_admin):
    services.invite(team=team_a, email="worker@example.com", role="member", invited_by=a_admin)
    deadline = time.monotonic() + 30
    while not mail.outbox and time.monotonic() < deadline:
        time.sleep(0.2)
    assert [m.to for m in mail.outbox] == [["worker@example.com"]]
    assert "/invitations/" in mail.outbox[0].body
    deadline = time.monotonic() + 5
    while (
        OutboundEmail.objects.filter(sent_at__isnull=True).exists() and time.monotonic() < deadline
    ):
        time.sleep(0.1)
    assert OutboundEmail.objects.get().sent_at is not None


@pytest.mark.django_db(transaction=True)
def test_real_worker_delivers_the_status_link_and_the_row_keeps_none(real_worker, client):
    make_window()
    token = submit_application(submission_token=uuid.uuid4(), data=application_data()).status_token
    deadline = time.monotonic() + 30
    while (
        OutboundEmail.objects.filter(sent_at__isnull=True).exists() and time.monotonic() < deadline
    ):
        time.sleep(0.2)
    email = OutboundEmail.objects.get()
    assert email.sent_at is not None
    assert token not in f"{email.body} {email.private_link} {email.dedupe_key}"
    (sent,) = mail.outbox
    link = re.search(r"http://testserver(/design-partners/applications/\S+/)", sent.body).group(1)
    assert token in link
    page = client.get(link)
    assert page.status_code == 200 and "Status: Received" in page.content.decode()
