"""Password-reset e-mail, sent from a task.

The reset page must not tell whether an address has an account, not even by how long it
takes to answer: looking the address up, making the token and writing the e-mail happen in
the task, so the page does the same work (one enqueue) for every address."""

import hashlib
import logging

from celery import shared_task
from django.contrib.auth.forms import PasswordResetForm
from django.template.loader import render_to_string
from django.urls import reverse

from .outbox import absolute_url, enqueue, queue_email

log = logging.getLogger(__name__)


class OutboxPasswordResetForm(PasswordResetForm):
    """Django's reset form, but each e-mail is an outbox row delivered after commit."""

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ):
        subject = " ".join(render_to_string(subject_template_name, context).split())
        uid, token = context["uid"], context.pop("token")
        # The link works as a password for a day: it goes out in the message, and neither the
        # stored copy nor its key holds it (the key names the request by the token's hash).
        link = absolute_url(
            reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})
        )
        digest = hashlib.sha256(token.encode()).hexdigest()[:32]
        queue_email(
            key=f"password-reset:{uid}:{digest}",
            to=to_email,
            subject=subject,
            template=email_template_name,
            context=context,
            private_link=link,
        )


@shared_task
def send_password_reset(email):
    """The e-mail with a reset link, if `email` belongs to an active account; nothing else."""
    form = OutboxPasswordResetForm({"email": email})
    if form.is_valid():
        form.save(domain_override="portal")  # links are built from SITE_URL (render_body)


def request_password_reset(email):
    """What the page does, the same for every address."""
    if not enqueue(send_password_reset, email):
        # The broker is down: do it here, or the person gets no e-mail at all. Answering a
        # little slower for a known address during an outage is the lesser harm.
        log.warning("password reset for one address handled in the request: broker down")
        send_password_reset(email)
