import logging
import smtplib
from datetime import timedelta

from celery import shared_task
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from .models import OutboundEmail

log = logging.getLogger(__name__)


@shared_task(
    autoretry_for=(smtplib.SMTPException, OSError),
    retry_backoff=30,
    retry_backoff_max=1800,
    retry_jitter=True,
    max_retries=8,
)
def deliver_email(email_id):
    with transaction.atomic():
        email = OutboundEmail.objects.select_for_update().filter(pk=email_id).first()
        if email is None or email.sent_at is not None:
            return  # gone, or already delivered by an earlier attempt
        email.attempts += 1
        email.save(update_fields=["attempts"])
    try:
        send_mail(email.subject, email.body, None, [email.to])
    except Exception as exc:
        OutboundEmail.objects.filter(pk=email_id).update(last_error=str(exc)[:2000])
        raise
    OutboundEmail.objects.filter(pk=email_id).update(sent_at=timezone.now(), last_error="")


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
        deliver_email.delay(email_id)
    if ids:
        log.info("re-enqueued %d undelivered e-mails", len(ids))
    return len(ids)


@shared_task
def close_due_intake_windows():
    """Beat, every minute: record the close of an intake window whose closing time passed.
    The page already shows it closed (the state is computed); this records who/what closed it."""
    from .intake_services import close_due_windows

    closed = close_due_windows()
    if closed:
        log.info("closed intake windows %s at their closing time", closed)
    return closed
