"""Delivery is at least once; the SMTP step is made as idempotent as the receiving side
allows (issue 11, item 9): one Message-ID per outbox row on every attempt, and a row is
locked from the SMTP exchange until it is marked sent, so two workers never send it at once."""

import threading
import uuid
from datetime import timedelta

import pytest
from django.core import mail
from django.db import OperationalError, connection, transaction

from portal import outbox
from portal.celery import app as celery_app
from portal.models import OutboundEmail
from portal.outbox import deliver_email


def _row(**extra):
    return OutboundEmail.objects.create(
        dedupe_key=f"t:{uuid.uuid4()}", to="ada@a.example", subject="Hello", body="Hi.", **extra
    )


@pytest.mark.django_db
def test_a_resend_after_a_crash_carries_the_same_message_id():
    email = _row()
    deliver_email(email.pk)
    # The worker died after the SMTP server accepted it, before the row said so.
    OutboundEmail.objects.filter(pk=email.pk).update(sent_at=None)
    deliver_email(email.pk)
    first, again = mail.outbox
    assert first.extra_headers["Message-ID"] == again.extra_headers["Message-ID"]
    assert first.message()["Message-ID"] == again.message()["Message-ID"]
    other = _row()
    deliver_email(other.pk)
    assert mail.outbox[-1].message()["Message-ID"] != first.message()["Message-ID"]


@pytest.mark.django_db
def test_a_delivered_row_is_not_sent_again():
    email = _row()
    deliver_email(email.pk)
    deliver_email(email.pk)
    assert len(mail.outbox) == 1
    email.refresh_from_db()
    assert email.attempts == 1 and email.sent_at is not None


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL (CI)")
@pytest.mark.django_db(transaction=True)
def test_a_row_being_sent_by_one_worker_is_skipped_by_another():
    email = _row()
    locked, release = threading.Event(), threading.Event()

    def first_worker_sending():
        try:
            with transaction.atomic():
                OutboundEmail.objects.select_for_update().get(pk=email.pk)
                locked.set()
                release.wait(10)
        finally:
            connection.close()

    worker = threading.Thread(target=first_worker_sending)
    worker.start()
    assert locked.wait(10)
    deliver_email(email.pk)  # the second worker: skips the row, sends nothing
    assert mail.outbox == []
    release.set()
    worker.join()
    deliver_email(email.pk)
    assert len(mail.outbox) == 1


@pytest.fixture
def retried_at_once(monkeypatch):
    """The task's retries run in this process one after another (Celery's apply() follows a
    retry's signature when the task's error is not propagated), without the backoff."""
    monkeypatch.setattr(deliver_email, "retry_backoff", False)
    monkeypatch.setattr(deliver_email, "default_retry_delay", 0)
    celery_app.conf.task_eager_propagates = False
    yield
    celery_app.conf.task_eager_propagates = True


@pytest.mark.django_db
def test_a_database_lost_after_the_server_took_the_message_does_not_send_it_twice(
    monkeypatch, retried_at_once
):
    """PostgreSQL restarted between the SMTP server's yes and the row's update: the retry only
    marks the row sent, and the sweep finds nothing left to send."""
    email = _row()
    record = outbox._record_sent
    failures = []

    def database_gone_once(row, sent_at):
        if not failures:
            failures.append(sent_at)
            raise OperationalError("server closed the connection unexpectedly")
        record(row, sent_at)

    monkeypatch.setattr(outbox, "_record_sent", database_gone_once)
    deliver_email.apply(args=[email.pk])
    email.refresh_from_db()
    assert len(mail.outbox) == 1
    assert email.sent_at == failures[0]
    OutboundEmail.objects.filter(pk=email.pk).update(
        created_at=email.created_at - timedelta(hours=1)
    )
    outbox.resend_stuck_emails()
    assert len(mail.outbox) == 1


@pytest.mark.django_db
def test_a_database_lost_before_sending_is_retried(monkeypatch, retried_at_once):
    email = _row()
    calls = []
    send = outbox._send

    def database_gone_once(row):
        calls.append(row.pk)
        if len(calls) == 1:
            raise OperationalError("terminating connection due to administrator command")
        send(row)

    # The lock is taken, then the database goes away before the message is built.
    monkeypatch.setattr(outbox, "_send", database_gone_once)
    deliver_email.apply(args=[email.pk])
    email.refresh_from_db()
    assert len(calls) == 2 and len(mail.outbox) == 1 and email.sent_at is not None
