"""The applicant's status link is in the confirmation e-mail as sent, never in the portal's
stored copy once it is delivered: the token is stored only as a hash, and the outbound
e-mail row loses the link on delivery (or after a day undelivered)."""

import importlib
import re
import smtplib
from datetime import timedelta
from unittest import mock

import pytest
from django.apps import apps
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from portal import outbox, services
from portal.models import OutboundEmail

from .intake.intake_helpers import form_data, make_window

pytestmark = pytest.mark.django_db

APPLY = "/design-partners/apply/"
LINK = re.compile(r"http://testserver(/design-partners/applications/([^/\s]+)/)")


def stored_text(email):
    """Every column of the row, as a database reader would see them."""
    return " ".join(str(getattr(email, f.attname)) for f in OutboundEmail._meta.fields)


def apply(client, capture, *, deliver=True):
    make_window()
    with capture(execute=deliver):
        response = client.post(APPLY, form_data())
    assert response.status_code == 302
    return response["Location"], OutboundEmail.objects.get()


def test_after_delivery_the_row_holds_no_token_and_the_sent_link_opens_the_status_page(
    client, django_capture_on_commit_callbacks
):
    location, email = apply(client, django_capture_on_commit_callbacks)
    (sent,) = mail.outbox
    path, token = LINK.search(sent.body).groups()
    assert path == location
    email.refresh_from_db()
    assert email.sent_at is not None  # staff can see it went out
    assert token not in stored_text(email)
    assert "/design-partners/applications/" not in email.body
    assert outbox.PRIVATE_LINK_REMOVED in email.body
    # The stored copy is the message sent, with the link replaced: still an audit of it.
    assert email.body == sent.body.replace(
        LINK.search(sent.body).group(0), outbox.PRIVATE_LINK_REMOVED
    )
    page = client.get(path)
    assert page.status_code == 200 and "Status: Received" in page.content.decode()


def test_before_delivery_the_body_holds_a_mark_and_a_failed_try_keeps_the_link_for_the_retry(
    client, django_capture_on_commit_callbacks
):
    location, email = apply(client, django_capture_on_commit_callbacks, deliver=False)
    token = location.rstrip("/").rsplit("/", 1)[1]
    assert token not in email.body and outbox.PRIVATE_LINK_MARK in email.body
    down = mock.patch.object(
        outbox.EmailMessage, "send", side_effect=smtplib.SMTPServerDisconnected("x")
    )
    with down, pytest.raises(smtplib.SMTPServerDisconnected):
        outbox.deliver_email.run(email.pk)
    email.refresh_from_db()
    assert email.sent_at is None and email.private_link.endswith(f"/{token}/")
    outbox.deliver_email.run(email.pk)
    assert token in mail.outbox[0].body
    email.refresh_from_db()
    assert email.sent_at is not None and token not in stored_text(email)


def test_a_link_undelivered_for_a_day_is_erased_by_the_sweep(
    client, django_capture_on_commit_callbacks
):
    location, email = apply(client, django_capture_on_commit_callbacks, deliver=False)
    token = location.rstrip("/").rsplit("/", 1)[1]
    OutboundEmail.objects.filter(pk=email.pk).update(created_at=timezone.now() - timedelta(days=2))
    outbox.resend_stuck_emails()
    email.refresh_from_db()
    assert token not in stored_text(email)
    assert outbox.PRIVATE_LINK_EXPIRED in email.body and email.sent_at is None


def test_other_emails_are_stored_as_written(team_a, a_admin):
    services.invite(team=team_a, email="new@example.com", role="member", invited_by=a_admin)
    email = OutboundEmail.objects.get()
    assert "/invitations/" in email.body and email.private_link == ""


def test_staff_see_that_the_confirmation_went_out_without_the_link(
    client, client_for, staff, django_capture_on_commit_callbacks
):
    location, email = apply(client, django_capture_on_commit_callbacks)
    application_id = email.dedupe_key.rsplit(":", 1)[1]
    page = client_for(staff).get(reverse("staff_intake_application", args=[application_id]))
    html = page.content.decode()
    section = html[html.index('id="emails-h"') :]
    assert "We received your design-partner application" in section
    assert "sent " in section and "not sent yet" not in section
    assert location not in html
    admin = client_for(staff).get(reverse("admin:portal_outboundemail_change", args=[email.pk]))
    assert admin.status_code == 200
    assert location not in admin.content.decode()


def test_the_migration_takes_links_out_of_rows_written_before_it():
    migration = importlib.import_module("portal.migrations.0011_outbound_private_link")
    sent = OutboundEmail.objects.create(
        dedupe_key="intake-received:1",
        to="a@example.com",
        subject="s",
        body="Follow it here:\nhttp://x.example/design-partners/applications/SENTTOKEN/\n\nBye",
        sent_at=timezone.now(),
    )
    waiting = OutboundEmail.objects.create(
        dedupe_key="intake-received:2",
        to="b@example.com",
        subject="s",
        body="Follow it here:\nhttp://x.example/design-partners/applications/WAITTOKEN/\n",
    )
    migration.take_status_links_out_of_stored_emails(apps, None)
    sent.refresh_from_db()
    waiting.refresh_from_db()
    assert "SENTTOKEN" not in stored_text(sent) and outbox.PRIVATE_LINK_REMOVED in sent.body
    assert "WAITTOKEN" not in waiting.body and outbox.PRIVATE_LINK_MARK in waiting.body
    outbox.deliver_email.run(waiting.pk)
    assert "http://x.example/design-partners/applications/WAITTOKEN/" in mail.outbox[-1].body


def test_a_password_reset_link_is_kept_out_of_the_row_the_same_way(
    client, django_capture_on_commit_callbacks, make_user
):
    make_user("forgot@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("password_reset"), {"email": "forgot@example.com"})
    (sent,) = mail.outbox
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", sent.body).group(1)
    token = link.rstrip("/").rsplit("/", 1)[1]
    email = OutboundEmail.objects.get()
    assert token not in stored_text(email)  # neither the body nor the dedupe key
    assert outbox.PRIVATE_LINK_REMOVED in email.body
    response = client.get(link, follow=True)
    assert "new_password1" in response.content.decode()  # the link sent still works
