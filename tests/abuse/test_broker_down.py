"""With the broker down, whatever was saved stays saved and the answer is never a 500:
the outbox row is the promise, the beat sweep delivers it later (issue 11, item 3)."""

import pytest
from django.urls import reverse

from portal.celery import app as celery_app
from portal.models import Invitation, OutboundEmail

pytestmark = pytest.mark.django_db


def _fresh_pools():
    # Connections are pooled per broker URL: forget ours so the next send uses the URL now set.
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


@pytest.fixture
def broker_down():
    conf = celery_app.conf
    saved = (
        conf.task_always_eager,
        conf.broker_url,
        conf.broker_write_url,
        conf.task_publish_retry,
    )
    conf.task_always_eager = False
    # Nothing listens on the discard port.
    conf.broker_url = conf.broker_write_url = "redis://127.0.0.1:9/0"
    conf.task_publish_retry = False
    _fresh_pools()
    yield
    conf.task_always_eager, conf.broker_url, conf.broker_write_url, conf.task_publish_retry = saved
    _fresh_pools()


def test_an_invitation_is_saved_once_and_answered_kindly(
    client_for, a_admin, team_a, broker_down, django_capture_on_commit_callbacks
):
    client = client_for(a_admin)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("team_invite", args=[team_a.slug]), {"email": "new@a.example", "role": "member"}
        )
    assert response.status_code == 302
    assert Invitation.objects.filter(email="new@a.example").count() == 1
    email = OutboundEmail.objects.get(to="new@a.example")
    assert email.sent_at is None  # left for the sweep


def test_the_staff_simulator_button_says_the_queue_is_down(client_for, staff, run, broker_down):
    response = client_for(staff).post(reverse("run_simulate", args=[run.job_id]), follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert "task queue is down" in page, page[page.find("messages") : page.find("messages") + 400]
