"""With the broker down, whatever was saved stays saved and the answer is never a 500:
the outbox row is the promise, the beat sweep delivers it later (issue 11, item 3).

`test_every_action_that_sends_mail_survives_a_dead_broker` runs each action that writes an
e-mail (or enqueues a task) with nothing listening at the broker's address, after commit
for real (transaction=True). `test_every_enqueue_goes_through_the_one_safe_helper` keeps
new code from calling `.delay()` where a broker fault would become an error page."""

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from findings.models import FindingNote, StatusChange
from jobs import jobformat
from jobs import services as job_services
from jobs.models import Comment, Review, Revision
from jobs.runs import services as run_services
from jobs.runs.models import Event
from portal.celery import app as celery_app
from portal.intake import services as intake_services
from portal.intake.models import IntakeApplication
from portal.models import Invitation, OutboundEmail, Team
from portal.outbox import resend_stuck_emails
from tests.findings.helpers import file as file_finding
from tests.portal.intake.intake_helpers import form_data, make_window, submit

ROOT = Path(__file__).resolve().parents[2]


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
        conf.broker_transport_options,
    )
    conf.task_always_eager = False
    # Nothing listens on the discard port.
    conf.broker_url = conf.broker_write_url = "redis://127.0.0.1:9/0"
    conf.task_publish_retry = False
    # One connection attempt, not kombu's default of retrying for the connect timeout (4 s).
    conf.broker_transport_options = {"max_retries": 1}
    _fresh_pools()
    yield
    (
        conf.task_always_eager,
        conf.broker_url,
        conf.broker_write_url,
        conf.task_publish_retry,
        conf.broker_transport_options,
    ) = saved
    _fresh_pools()


# Each action: (who acts, set-up) -> (method, url, data); then what it must have saved once
# and the address an e-mail row must wait for. Set-ups get the suite's fixtures by name.


def _invite(f):
    return "post", reverse("team_invite", args=[f["team_a"].slug]), {"email": "new@a.example", "role": "member"}  # fmt: skip


def _resend(f):
    invitation = Invitation.objects.create(
        team=f["team_a"], email="again@a.example", role="member", invited_by=f["a_admin"],
        sent_at=timezone.now(), expires_at=timezone.now() + timedelta(days=7),
    )  # fmt: skip
    return "post", reverse("invitation_resend", args=[f["team_a"].slug, invitation.pk]), {}


def _create_team(f):
    data = {"name": "Queue Down", "organisation": "Q", "admin_email": "first@q.example"}
    return "post", reverse("staff_teams"), data


def _apply(f):
    make_window()
    return "post", reverse("intake_apply"), form_data(contact_email="applicant@o.example")


def _release(f):
    window = make_window()
    application = submit(contact_email="decided@o.example").application
    intake_services.stage_decision(
        application=application, decision="declined", reason="Not a batch job.", by=f["staff"]
    )
    return "post", reverse("staff_intake_release", args=[window.pk]), {}


def _password_reset(f):
    return "post", reverse("password_reset"), {"email": f["a_member"].email}


def _submit(f):
    job = job_services.create_draft(
        team=f["team_a"], user=f["a_member"], data=jobformat.example_data()
    )
    return "post", reverse("job_submit", args=[job.pk]), {}


def _review(f):
    job = job_services.create_draft(
        team=f["team_a"], user=f["a_member"], data=jobformat.example_data()
    )
    job_services.submit(job=job, user=f["a_member"])
    return "post", reverse("revision_review", args=[job.pk, 1]), {"outcome": "accepted"}


def _comment(f):
    job = job_services.create_draft(
        team=f["team_a"], user=f["a_member"], data=jobformat.example_data()
    )
    return "post", reverse("comment_create", args=[job.pk]), {"body": "Before or after compression?"}  # fmt: skip


def _triage(f):
    finding = file_finding(f["team_a"], f["a_member"])
    data = {"to_status": "declined", "version": finding.version, "note": "Not a network problem."}
    return "post", reverse("staff_finding_status", args=[finding.pk]), data


def _staff_answer(f):
    finding = file_finding(f["team_a"], f["a_member"])
    data = {"note": "Which bucket was it?", "visibility": "response", "version": finding.version}
    return "post", reverse("staff_finding_note", args=[finding.pk]), data


def _run_move(f):
    return "post", reverse("run_move", args=[f["run"].job_id]), {"kind": "rented", "note": "Nodes."}


def _scheduler_event(f):
    token = run_services.create_client(name="agent")[1]
    body = {"kind": "rented", "idempotency_key": "k1", "note": "",
            "occurred_at": (timezone.now() - timedelta(hours=1)).isoformat()}  # fmt: skip
    url = f"/api/v1/scheduler/jobs/{f['run'].job_id}/events"
    return "api", url, (token, body)


ACTIONS = {
    # name: (who, set-up, what is saved once, who waits for the e-mail)
    "invite": (
        "a_admin",
        _invite,
        lambda: Invitation.objects.filter(email="new@a.example"),
        "new@a.example",
    ),  # fmt: skip
    "resend an invitation": (
        "a_admin",
        _resend,
        lambda: Invitation.objects.filter(email="again@a.example"),
        "again@a.example",
    ),  # fmt: skip
    "staff create a team": (
        "staff",
        _create_team,
        lambda: Team.objects.filter(name="Queue Down"),
        "first@q.example",
    ),  # fmt: skip
    "apply": (
        None,
        _apply,
        lambda: IntakeApplication.objects.filter(contact_email="applicant@o.example"),
        "applicant@o.example",
    ),  # fmt: skip
    "release decisions": (
        "staff",
        _release,
        lambda: IntakeApplication.objects.filter(
            contact_email="decided@o.example", status="declined"
        ),
        "decided@o.example",
    ),  # fmt: skip
    "reset a password": (None, _password_reset, None, "member@a.example"),
    "submit a job": ("a_member", _submit, lambda: Revision.objects.all(), "staff@e31.example"),
    "review a job": ("staff", _review, lambda: Review.objects.all(), "member@a.example"),
    "comment": ("a_member", _comment, lambda: Comment.objects.all(), "staff@e31.example"),
    "triage a finding": (
        "staff",
        _triage,
        lambda: StatusChange.objects.filter(to_status="declined"),
        "member@a.example",
    ),  # fmt: skip
    "answer a finding": (
        "staff",
        _staff_answer,
        lambda: FindingNote.objects.all(),
        "member@a.example",
    ),  # fmt: skip
    "move a run by hand": (
        "staff",
        _run_move,
        lambda: Event.objects.filter(kind="rented"),
        "member@a.example",
    ),  # fmt: skip
    "scheduler event": (
        None,
        _scheduler_event,
        lambda: Event.objects.filter(kind="rented"),
        "member@a.example",
    ),  # fmt: skip
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", list(ACTIONS))
def test_every_action_that_sends_mail_survives_a_dead_broker(
    name, request, client_for, team_a, a_admin, a_member, staff
):
    who, set_up, saved, waits = ACTIONS[name]
    fixtures = {"team_a": team_a, "a_admin": a_admin, "a_member": a_member, "staff": staff}
    if name in ("move a run by hand", "scheduler event"):
        fixtures["run"] = request.getfixturevalue("run")
    method, url, data = set_up(fixtures)
    already = set(OutboundEmail.objects.values_list("pk", flat=True))
    request.getfixturevalue("broker_down")
    client = client_for(fixtures[who] if who else None)
    if method == "api":
        token, body = data
        response = client.post(
            url, json.dumps(body), content_type="application/json",
            headers={"Authorization": f"Bearer {token}"},
        )  # fmt: skip
    else:
        response = client.post(url, data)
    assert response.status_code < 500, response.content.decode()[:500]
    assert response.status_code in (200, 302), response.content.decode()[:2000]
    if saved is not None:
        assert saved().count() == 1
    waiting = OutboundEmail.objects.exclude(pk__in=already).filter(to=waits)
    assert waiting.count() == 1, list(OutboundEmail.objects.values_list("to", "subject"))
    assert waiting.get().sent_at is None  # left for the sweep


@pytest.mark.django_db(transaction=True)
def test_the_sweep_sends_what_the_dead_broker_kept(client_for, a_admin, team_a, broker_down):
    client_for(a_admin).post(
        reverse("team_invite", args=[team_a.slug]), {"email": "new@a.example", "role": "member"}
    )
    email = OutboundEmail.objects.get(to="new@a.example")
    OutboundEmail.objects.filter(pk=email.pk).update(
        created_at=timezone.now() - timedelta(minutes=11)
    )
    celery_app.conf.task_always_eager = True  # the broker is back
    assert resend_stuck_emails() == 1
    assert [m.to for m in mail.outbox] == [["new@a.example"]]


@pytest.mark.django_db
def test_the_staff_simulator_button_says_the_queue_is_down(client_for, staff, run, broker_down):
    # Nothing was written: the job page again, the reason on the simulate form (not a 500).
    response = client_for(staff).post(reverse("run_simulate", args=[run.job_id]))
    assert response.status_code == 503
    page = response.content.decode()
    form = page[page.index('aria-labelledby="simulate-h"') :]
    assert "Not started: the task queue is down" in form[: form.index("</form>")]


ENQUEUE = re.compile(r"\.(delay|apply_async|delay_on_commit)\(|\bon_commit\(")


def test_every_enqueue_goes_through_the_one_safe_helper():
    """portal.outbox.enqueue is the one place a task meets the broker: anywhere else a broker
    fault after commit is a 500 on a saved change."""
    offenders = []
    for app in ("portal", "jobs", "findings"):
        for path in (ROOT / app).rglob("*.py"):
            if path == ROOT / "portal" / "outbox.py":
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if ENQUEUE.search(line):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []
