"""The e-mail outbox: every e-mail is a row written in the same transaction as the change
that caused it, then delivered by a Celery task after commit. The row is the promise: if
the broker is down when the transaction commits, the beat sweep sends it later."""

import functools
import hashlib
import logging
import smtplib
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMessage
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import Value
from django.db.models.functions import Replace
from django.template.loader import render_to_string
from django.utils import timezone

from . import bulk
from .models import OutboundEmail
from .validators import fold

log = logging.getLogger(__name__)


def absolute_url(path):
    return f"{settings.SITE_URL}{path}"


@dataclass(frozen=True)
class Message:
    key: str
    to: str
    subject: str
    body: str


# A private link (a status link whose token is stored only as a hash) is never written into
# the stored body: the template prints this mark, delivery puts the link in its place in the
# message it sends, then erases the link and leaves the second mark, so the row stays an
# audit of what was sent without holding a usable link.
PRIVATE_LINK_MARK = "[private link: put in when the e-mail is sent]"
PRIVATE_LINK_REMOVED = "[private link removed after delivery]"
PRIVATE_LINK_EXPIRED = "[private link removed: the e-mail was not delivered within a day]"


def render_body(template, context):
    return render_to_string(template, {"site_url": settings.SITE_URL, **context})


def queue_email(*, key, to, subject, template, context, private_link=""):
    """Record an e-mail and deliver it after the surrounding transaction commits.

    Calling twice with the same key sends one e-mail: the key names the event
    (e.g. "invitation:<uuid>"), not the attempt. A `private_link` is printed where the
    template says `{{ private_link }}` in the message sent, and is not kept after it.
    """
    if private_link:
        context = {**context, "private_link": PRIVATE_LINK_MARK}
    body = render_body(template, context)
    email, created = OutboundEmail.objects.get_or_create(
        dedupe_key=key[:200],
        defaults={
            "to": to,
            "subject": fold(subject)[:200],
            "body": body,
            "private_link": private_link,
        },
    )
    if created:
        _deliver_after_commit([email.pk])
    return email


def queue_emails(messages):
    """Several e-mails in one query whatever their number (same rules as queue_email).
    Returns the ids of those newly queued."""
    wanted = {}
    for m in messages:
        wanted.setdefault(m.key[:200], m)
    # A key already queued (an earlier call, a replayed batch, a concurrent writer that
    # committed first) is skipped by the database, and only the rows written now come
    # back to be delivered: each e-mail is delivered once whoever wrote it.
    ids = bulk.insert(
        OutboundEmail,
        ("dedupe_key", "to", "subject", "body"),
        [(key, m.to, fold(m.subject)[:200], m.body) for key, m in wanted.items()],
        returning=True,
        conflict_nothing=True,
    )
    _deliver_after_commit(ids)
    return ids


def enqueue(task, *args, countdown=None, **kwargs) -> bool:
    """Send a task to the broker; False, logged, when the broker cannot take it.

    Every enqueue in the project goes through here (tests/portal/test_broker_down.py keeps
    it so). By then the change is committed, or nothing was written: a broker fault must
    never turn a saved change into an error page, nor ask the person to send it again.
    What the task was for is kept by a row (the outbox row, swept by `resend_stuck_emails`)
    or left for the caller to say (it gets False)."""
    try:
        task.apply_async(args, kwargs, countdown=countdown)
    except Exception:  # kombu's OperationalError, redis' ConnectionError, a full disk...
        log.warning("could not enqueue %s%s", task.name, args, exc_info=True)
        return False
    return True


def after_commit(function, *args):
    """`function(*args)` once the surrounding transaction commits (at once outside one). By
    then the change is saved: an error it raises is logged, not turned into an error page."""
    transaction.on_commit(functools.partial(function, *args), robust=True)


def enqueue_after_commit(task, *args, **kwargs):
    """`enqueue` once the surrounding transaction commits (at once outside one)."""
    transaction.on_commit(lambda: enqueue(task, *args, **kwargs))


def _deliver_after_commit(ids):
    # A lost enqueue is not lost mail: the row stays unsent and the sweep sends it.
    if len(ids) == 1:
        enqueue_after_commit(deliver_email, ids[0])
    elif ids:
        enqueue_after_commit(deliver_emails, ids)


@shared_task
def deliver_emails(email_ids):
    """Fan out: one delivery task per e-mail, each with its own retries."""
    for email_id in email_ids:
        enqueue(deliver_email, email_id)


def message_id(email):
    """The same Message-ID on every attempt at one row: if a worker dies after the SMTP
    server accepted the message but before the row says so, the resend carries the first
    one's id, and servers and mail clients that deduplicate on it show one e-mail."""
    digest = hashlib.sha256(email.dedupe_key.encode()).hexdigest()[:20]
    domain = urlsplit(settings.SITE_URL).hostname or "localhost"
    return f"<outbox.{email.pk}.{digest}@{domain}>"


# A database restart or failover: the task waits and tries again, like an SMTP hiccup.
DATABASE_DOWN = (OperationalError, InterfaceError)


@shared_task(
    bind=True,
    autoretry_for=(smtplib.SMTPException, OSError, *DATABASE_DOWN),
    retry_backoff=30,
    retry_backoff_max=1800,
    retry_jitter=True,
    max_retries=8,
)
def deliver_email(self, email_id, delivered_at=None):
    # The row stays locked while the SMTP server takes the message and until it is marked
    # sent, so two workers (a retry and the sweep's copy) never send one row at once: the
    # second skips a row being sent, then finds it sent. Holding the transaction for the
    # length of one SMTP exchange (at most the backend's timeout) is the price.
    if delivered_at is not None:
        _mark_sent(email_id, datetime.fromisoformat(delivered_at))
        return
    failure, sent_at = None, None
    try:
        with transaction.atomic():
            email = (
                OutboundEmail.objects.select_for_update(skip_locked=True)
                .filter(pk=email_id)
                .first()
            )
            if email is None or email.sent_at is not None:
                return  # gone, already delivered, or being delivered by another worker now
            email.attempts += 1
            try:
                _send(email)
            except Exception as exc:
                email.last_error = str(exc)[:2000]
                email.save(update_fields=["attempts", "last_error"])
                failure = exc
            else:
                sent_at = timezone.now()
                _record_sent(email, sent_at)
    except DATABASE_DOWN as exc:
        if sent_at is None:
            raise  # nothing went out: autoretry sends it later
        # The server has the message and only the row does not say so (the database went away
        # between the two): the retries mark it sent and do not send it again.
        log.warning("e-mail %s sent but not yet marked sent: %s", email_id, exc)
        raise self.retry(
            kwargs={"email_id": email_id, "delivered_at": sent_at.isoformat()}, exc=exc
        ) from None
    if failure is not None:
        log.warning("e-mail %s to %s failed: %s", email_id, email.to, failure)
        raise failure


def _send(email):
    body = email.body
    if email.private_link:
        body = body.replace(PRIVATE_LINK_MARK, email.private_link)
    # The one place an e-mail is built: a line break left in a header by older data (a team
    # name, a title) would make it undeliverable forever, so headers are one line.
    EmailMessage(
        fold(email.subject),
        body,
        None,
        [fold(email.to)],
        headers={"Message-ID": message_id(email)},
    ).send()


def _record_sent(email, sent_at):
    email.sent_at, email.last_error = sent_at, ""
    fields = ["attempts", "sent_at", "last_error"]
    if email.private_link:
        # Delivered: the copy kept says the link was there, and no longer holds it.
        email.body = email.body.replace(PRIVATE_LINK_MARK, PRIVATE_LINK_REMOVED)
        email.private_link = ""
        fields += ["body", "private_link"]
    email.save(update_fields=fields)


def _mark_sent(email_id, sent_at):
    with transaction.atomic():
        email = OutboundEmail.objects.select_for_update().filter(pk=email_id).first()
        if email is not None and email.sent_at is None:
            _record_sent(email, sent_at)


@shared_task
def resend_stuck_emails():
    """Safety net for an enqueue lost between commit and the broker (e.g. broker down)."""
    stale = timezone.now() - timedelta(minutes=10)
    day_ago = timezone.now() - timedelta(days=1)
    ids = list(
        OutboundEmail.objects.filter(
            sent_at__isnull=True, created_at__lt=stale, created_at__gt=day_ago
        ).values_list("pk", flat=True)[:500]
    )
    for email_id in ids:
        enqueue(deliver_email, email_id)
    if ids:
        log.info("re-enqueued %d undelivered e-mails", len(ids))
    # Older than the sweep's day nothing sends them any more: a private link they still
    # hold is only a risk now, so it goes.
    OutboundEmail.objects.filter(sent_at__isnull=True, created_at__lte=day_ago).exclude(
        private_link=""
    ).update(
        private_link="",
        body=Replace("body", Value(PRIVATE_LINK_MARK), Value(PRIVATE_LINK_EXPIRED)),
    )
    return len(ids)
