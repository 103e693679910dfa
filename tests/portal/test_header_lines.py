"""A line break in a name or title that reaches an e-mail header made the e-mail
undeliverable forever (issue 11, item 8). Every form that takes such a name refuses it on the
field; whatever older rows still hold is folded to one line where e-mails are built."""

import uuid

import pytest
from django.core import mail
from django.urls import reverse

from findings.models import Finding
from jobs.runs.models import SchedulerClient
from portal import services
from portal.intake.models import IntakeApplication
from portal.models import OutboundEmail, Team, User
from portal.outbox import deliver_email
from portal.validators import fold
from tests.portal.intake.intake_helpers import form_data, make_window
from tests.users import log_in

pytestmark = pytest.mark.django_db

BREAKS = ["\n", "\r", "\r\n", "\u2028", "\u2029", "\x85", "\x0b"]
MESSAGE = "Keep this on one line"


def _team(client, text):
    response = client.post(
        reverse("staff_teams"), {"name": f"Two{text}Lines", "admin_email": "t@t.example"}
    )
    return response, "name", Team.objects.filter(name__startswith="Two")


def _full_name(client, text, team_a, a_admin):
    invitation = services.invite(
        team=team_a, email="x@x.example", role="member", invited_by=a_admin
    )
    client.logout()
    password = "correct horse battery staple"
    response = client.post(
        reverse("accept_invitation", args=[invitation.key]),
        {"full_name": f"Ada{text}Bcc: x@evil.example", "password1": password, "password2": password},
    )  # fmt: skip
    return response, "full_name", User.objects.filter(email="x@x.example")


def _application(client, text):
    make_window()
    client.logout()
    data = form_data(team_name=f"Orbit{text}Vision", contact_name=f"Olu{text}Orbit")
    response = client.post(reverse("intake_apply"), data)
    return response, "team_name", IntakeApplication.objects.all()


def _finding(client, text, a_member):
    log_in(client, a_member)
    data = {"kind": "other", "title": f"Slow{text}staging", "impact": "costs_time",
            "summary": "Typed.", "what_happened": "x", "what_expected": "y"}  # fmt: skip
    response = client.post(reverse("finding_new"), data)
    return response, "title", Finding.objects.all()


@pytest.mark.parametrize("text", BREAKS, ids=repr)
@pytest.mark.parametrize("form", ["team", "full_name", "application", "finding"])
def test_a_line_break_in_a_name_is_refused_on_its_field(
    form, text, client_for, staff, team_a, a_admin, a_member
):
    client = client_for(staff)
    response, field, created = {
        "team": lambda: _team(client, text),
        "full_name": lambda: _full_name(client, text, team_a, a_admin),
        "application": lambda: _application(client, text),
        "finding": lambda: _finding(client, text, a_member),
    }[form]()
    assert response.status_code in (200, 400)
    errors = response.context["form"].errors
    assert MESSAGE in " ".join(errors.get(field, [])), errors
    assert not created.exists()


def test_a_scheduler_client_name_on_two_lines_is_refused(client_for, staff):
    response = client_for(staff).post(reverse("scheduler_clients"), {"name": "east\nwest"})
    assert response.status_code == 400
    assert "one line" in response.content.decode()
    assert not SchedulerClient.objects.exists()


def test_a_legacy_subject_on_two_lines_is_delivered_on_one(settings):
    email = OutboundEmail.objects.create(
        dedupe_key=f"legacy:{uuid.uuid4()}",
        to="ada@a.example",
        subject="Welcome to Two\r\nBcc: victim@evil.example\u2028Lines",
        body="Hello.",
    )
    deliver_email(email.pk)
    [sent] = mail.outbox
    assert sent.subject == "Welcome to Two Bcc: victim@evil.example Lines"
    assert sent.to == ["ada@a.example"] and sent.bcc == []
    assert "\n" not in sent.message().get("Subject")
    email.refresh_from_db()
    assert email.sent_at is not None and email.last_error == ""


def test_a_team_stored_with_a_line_break_still_gets_its_invitation(
    a_admin, django_capture_on_commit_callbacks
):
    team = Team.objects.create(name="North\nwind", slug="northwind")  # older data, via the ORM
    with django_capture_on_commit_callbacks(execute=True):
        services.invite(team=team, email="new@n.example", role="member", invited_by=a_admin)
    [sent] = mail.outbox
    assert sent.to == ["new@n.example"]
    assert "North wind" in sent.subject
    assert OutboundEmail.objects.get(to="new@n.example").sent_at is not None


def test_fold_keeps_words_and_drops_every_kind_of_break():
    assert fold("a\r\n b\u2028c\x85d\x0be\x1cf  g") == "a b c d e f g"
