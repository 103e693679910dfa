"""Issue 31, item 11: the admin as a place for corrections and audits. Plurals spelt right;
revisions, runs, events, reviews and comments listed, history read-only; JSON and frozen
evidence shown indented; a job's status moves in the admin only by the table of moves, with
its history row."""

import pytest
from django.urls import reverse

from findings.models import FindingKind
from jobs.models import JobDescription, JobStatus, JobStatusChange, Revision
from jobs.runs.models import Event, Run
from tests.admin_forms import admin_post_job
from tests.findings.helpers import accepted_job, file

pytestmark = pytest.mark.django_db


@pytest.fixture
def job(team_a, a_member, staff):
    return accepted_job(team_a, a_member, staff)


def test_the_index_lists_the_history_and_spells_dispatches(client_for, staff, job):
    page = client_for(staff).get(reverse("admin:index")).content.decode()
    assert "Dispatches" in page and "Dispatchs" not in page
    for name in ("Revisions", "Runs", "Events", "Reviews", "Comments"):
        assert f">{name}<" in page, name


def test_history_is_read_only_and_json_is_indented(client_for, staff, job):
    client = client_for(staff)
    revision = Revision.objects.get(job=job)
    event = Event.objects.filter(run__job=job).first()
    for model, obj in (("revision", revision), ("run", Run.objects.get(job=job)), ("event", event)):
        app = "jobs"
        assert client.get(reverse(f"admin:{app}_{model}_changelist")).status_code == 200
        page = client.get(reverse(f"admin:{app}_{model}_change", args=[obj.pk])).content.decode()
        assert 'name="_save"' not in page, model  # viewed, not changed
        assert reverse(f"admin:{app}_{model}_add") not in page
    page = client.get(reverse("admin:jobs_revision_change", args=[revision.pk])).content.decode()
    assert '<pre class="admin-json" tabindex="0">{\n  &quot;' in page
    assert client.get(reverse("admin:jobs_review_changelist")).status_code == 200
    assert client.get(reverse("admin:jobs_comment_changelist")).status_code == 200
    assert (
        client.post(
            reverse("admin:jobs_event_delete", args=[event.pk]), {"post": "yes"}
        ).status_code
        == 403
    )


def test_frozen_evidence_and_details_are_indented(client_for, staff, team_a, a_member, job):
    finding = file(team_a, a_member, kind=FindingKind.ACCOUNTING_MISMATCH, job=job,
                   details={"expected_hours": 1200.0, "held_hours": 1379.8, "phase": "running"})  # fmt: skip
    page = (
        client_for(staff)
        .get(reverse("admin:findings_finding_change", args=[finding.pk]))
        .content.decode()
    )
    assert (
        page.count('<pre class="admin-json" tabindex="0">') >= 3
    )  # details, the ledger, the timeline
    assert "{&#x27;" not in page  # no Python dict written in one line


def test_a_jobs_status_moves_by_the_table_with_its_history_row(client_for, staff, team_a, a_member):
    from jobs import services

    draft = services.create_draft(team=team_a, user=a_member)
    client = client_for(staff)
    url = reverse("admin:jobs_jobdescription_change", args=[draft.pk])
    form = client.get(url).context["adminform"].form
    data = {"team": team_a.pk, "name": "x", "status": JobStatus.ACCEPTED}
    response = client.post(url, data)
    assert response.status_code == 200  # the form again, with the reason
    assert "cannot become accepted" in response.content.decode()
    assert JobDescription.objects.get(pk=draft.pk).status == JobStatus.DRAFT
    assert not JobStatusChange.objects.filter(job=draft).exists()
    assert "status" in form.fields

    moved = admin_post_job(client, draft, status=JobStatus.IN_REVIEW)
    assert moved.status == JobStatus.IN_REVIEW
    change = JobStatusChange.objects.get(job=draft)
    assert (change.from_status, change.to_status, change.actor) == ("draft", "in_review", staff)


def test_a_job_added_in_the_admin_is_numbered_in_its_team(client_for, staff, team_a, a_member):
    from jobs import services

    services.create_draft(team=team_a, user=a_member)
    client = client_for(staff)
    response = client.post(
        reverse("admin:jobs_jobdescription_add"),
        {"team": team_a.pk, "name": "", "status": JobStatus.DRAFT,
         "changes-TOTAL_FORMS": 0, "changes-INITIAL_FORMS": 0},
    )  # fmt: skip
    assert response.status_code == 302
    assert str(JobDescription.objects.order_by("pk").last()) == "Untitled job 2"
