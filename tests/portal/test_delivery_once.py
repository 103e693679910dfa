"""Delivery is at least once; the SMTP step is made as idempotent as the receiving side
allows (issue 11, item 9): one Message-ID per outbox row on every attempt, and a row is
locked from the SMTP exchange until it is marked sent, so two workers never send it at once."""

import threading
import uuid

import pytest
from django.core import mail
from django.db import connection, transaction

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
