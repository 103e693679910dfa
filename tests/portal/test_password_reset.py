"""The password-reset page told known from unknown addresses by its timing: a known one
rendered and queued an e-mail in the request (issue 11, item 9). Now the page hands every
address to a task and answers the same; the task alone looks the address up."""

from unittest import mock

import pytest
from django.core import mail
from django.urls import reverse

from portal import passwords
from portal.models import OutboundEmail

pytestmark = pytest.mark.django_db(transaction=True)


def _post(client, address):
    with mock.patch.object(passwords.send_password_reset, "apply_async") as enqueued:
        response = client.post(reverse("password_reset"), {"email": address})
    return response, enqueued


def test_known_and_unknown_addresses_get_the_same_answer_and_the_same_work(client, make_user):
    make_user("known@example.com")
    known, known_enqueued = _post(client, "known@example.com")
    unknown, unknown_enqueued = _post(client, "nobody@example.com")
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    # Each request did one thing: hand the address to the task. Nothing was looked up,
    # written or sent in the request.
    assert known_enqueued.call_args.args[0] == ("known@example.com",)
    assert unknown_enqueued.call_args.args[0] == ("nobody@example.com",)
    assert OutboundEmail.objects.count() == 0 and mail.outbox == []


def test_the_request_does_not_look_the_address_up(client, django_assert_num_queries, make_user):
    make_user("known@example.com")
    with mock.patch.object(passwords.send_password_reset, "apply_async"):
        for address in ("known@example.com", "nobody@example.com"):
            with django_assert_num_queries(0):
                client.post(reverse("password_reset"), {"email": address})


def test_the_task_sends_to_a_known_address_only(make_user):
    make_user("known@example.com")
    passwords.send_password_reset("nobody@example.com")
    assert OutboundEmail.objects.count() == 0
    passwords.send_password_reset("known@example.com")
    [sent] = mail.outbox
    assert sent.to == ["known@example.com"]
    assert "http://testserver/accounts/password/reset/" in sent.body


def test_with_the_broker_down_the_request_still_queues_the_email(client, make_user):
    make_user("known@example.com")
    refused = mock.patch.object(
        passwords.send_password_reset, "apply_async", side_effect=OSError("broker down")
    )
    with refused:
        response = client.post(reverse("password_reset"), {"email": "known@example.com"})
    assert response.status_code == 302
    assert OutboundEmail.objects.filter(to="known@example.com").count() == 1
