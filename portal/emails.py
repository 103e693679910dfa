from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string

from .models import OutboundEmail


def absolute_url(path):
    return f"{settings.SITE_URL}{path}"


def queue_email(*, key, to, subject, template, context):
    """Record an e-mail and deliver it after the surrounding transaction commits.

    Calling twice with the same key sends one e-mail: the key names the event
    (e.g. "invitation:<uuid>"), not the attempt.
    """
    from .tasks import deliver_email

    body = render_to_string(template, {"site_url": settings.SITE_URL, **context})
    email, created = OutboundEmail.objects.get_or_create(
        dedupe_key=key[:200], defaults={"to": to, "subject": subject[:200], "body": body}
    )
    if created:
        transaction.on_commit(lambda: deliver_email.delay(email.pk))
    return email
