"""NUL characters never reach the database (PostgreSQL refuses them: a 500) (issue 11,
item 5). CI runs these on PostgreSQL."""

import json
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from findings.models import Finding, FindingNote
from jobs import services as job_services
from jobs.models import Comment, JobDescription
from jobs.runs import services as run_services
from jobs.runs.models import Event, SchedulerClient
from portal.models import Team
from tests.findings.helpers import file as file_finding
from tests.portal.intake.intake_helpers import form_data, make_window
from tests.users import log_in

pytestmark = pytest.mark.django_db


def test_a_nul_in_a_query_parameter_is_removed(client_for, staff):
    client = client_for(staff)
    for url in ("/staff/findings/?q=a%00b", "/staff/teams/?q=%00", "/jobs/?status=%00"):
        assert client.get(url).status_code in (200, 302), url


def test_a_nul_in_a_path_is_not_found(client):
    assert client.get("/design-partners/applications/ab%00cd/").status_code == 404


def test_a_nul_in_a_form_field_is_removed(client_for, staff):
    response = client_for(staff).post(
        "/staff/teams/",
        {"name": "Nul\x00Team", "organisation": "N\x00 Corp", "admin_email": "n@nul.example"},
    )
    assert response.status_code in (200, 302)
    team = Team.objects.get()
    assert (team.name, team.organisation) == ("NulTeam", "N Corp")


def test_a_nul_in_the_scheduler_api_is_removed(client, run):
    token = run_services.create_client(name="s")[1]
    body = {"kind": "rented", "idempotency_key": "k\x00", "note": "a\x00b",
            "occurred_at": (timezone.now() - timedelta(hours=1)).isoformat()}  # fmt: skip
    response = client.post(
        f"/api/v1/scheduler/jobs/{run.job_id}/events", json.dumps(body),
        content_type="application/json", headers={"Authorization": f"Bearer {token}"},
    )  # fmt: skip
    assert response.status_code == 200
    assert Event.objects.get(run=run).note == "ab"


# --- One probe per endpoint that takes text (issue 11, item 5) ------------------------------
# Each answers a clear refusal (400, or a form error) or strips the NUL; never a 500, and
# nothing with a NUL reaches the database. Escapes count: YAML "\0", "\x00" and JSON "\u0000"
# become a NUL only once the file is parsed, past the middleware.

YAML_NUL = 'name: "masks\\0v7"\nwork:\n  kind: training\n'
JSON_NUL = '{"name": "masks\\u0000v7", "work": {"kind": "training"}}'
SKY_NUL = 'name: train\nresources:\n  accelerators: "A100:8"\nrun: "python train.py\\x00"\n'


def _draft(f):
    return job_services.create_draft(team=f["team_a"], user=f["a_member"])


def _probe_autosave(client, f):
    job = _draft(f)
    return client.post(
        reverse("job_autosave", args=[job.pk, "work"]),
        {"version": job.version, "name": "a\x00b", "work.summary": "x\x00y"},
        headers={"HX-Request": "true"},
    )


def _probe_step(client, f):
    job = _draft(f)
    return client.post(
        reverse("job_step", args=[job.pk, "work"]),
        {"version": job.version, "name": "a\x00b", "work.summary": "x\x00y", "action": "save"},
    )


def _probe_upload(text, name):
    def probe(client, f):
        upload = SimpleUploadedFile(name, text.encode(), content_type="application/octet-stream")
        data = {"team": f["team_a"].pk, "file": upload, "source_format": "auto"}
        return client.post(reverse("job_new"), data)

    return probe


def _probe_pasted(text):
    def probe(client, f):
        data = {"team": f["team_a"].pk, "text": text, "source_format": "auto"}
        return client.post(reverse("job_new"), data)

    return probe


def _probe_api_import(text, fmt="auto"):
    def probe(client, f):
        body = json.dumps({"text": text, "format": fmt})
        return client.post(reverse("api:spec_import"), body, content_type="application/json")

    return probe


def _probe_api_validate(client, f):
    body = '{"name": "a\\u0000b", "work": {"kind": "training", "summary": "\\u0000"}}'
    return client.post(reverse("api:spec_validate"), body, content_type="application/json")


def _probe_comment(client, f):
    job = _draft(f)
    return client.post(reverse("comment_create", args=[job.pk]), {"body": "a\x00b"})


def _probe_finding(client, f):
    data = {"kind": "other", "title": "Slow\x00", "impact": "costs_time",
            "summary": "\x00", "what_happened": "x\x00", "what_expected": "y"}  # fmt: skip
    return client.post(reverse("finding_new"), data)


def _probe_information(client, f):
    finding = file_finding(f["team_a"], f["a_member"])
    return client.post(reverse("finding_information", args=[finding.pk]), {"body": "a\x00b"})


def _probe_staff_note(client, f):
    finding = file_finding(f["team_a"], f["a_member"])
    log_in(client, f["staff"])
    data = {"body": "a\x00b", "visibility": "internal", "version": finding.version}
    return client.post(reverse("staff_finding_note", args=[finding.pk]), data)


def _probe_staff_client(client, f):
    log_in(client, f["staff"])
    return client.post(reverse("scheduler_clients"), {"name": "east\x00"})


def _probe_apply(client, f):
    make_window()
    client.logout()
    return client.post(reverse("intake_apply"), form_data(team_name="Nul\x00", job_work="\x00"))


def _probe_scheduler_batch(client, f):
    run = f["run"]()
    token = run_services.create_client(name="s")[1]
    body = {"events": [{"job": run.job_id, "kind": "rented", "idempotency_key": "\u0000",
            "note": "\u0000", "occurred_at": (timezone.now() - timedelta(hours=1)).isoformat()}]}  # fmt: skip
    return client.post(
        "/api/v1/scheduler/events", json.dumps(body), content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )  # fmt: skip


def _probe_query(url, who="staff"):
    def probe(client, f):
        log_in(client, f[who])
        return client.get(url)

    return probe


ENDPOINTS = {
    "query: staff findings": _probe_query("/staff/findings/?q=%00&status=%00&after=%00"),
    "query: review queue": _probe_query("/staff/reviews/?q=%00&after=%00"),
    "query: applications": _probe_query("/staff/intake/?status=%00"),
    "query: new finding": _probe_query("/findings/new/?kind=%00&field=%00&team=%00", "a_member"),
    "query: jobs": _probe_query("/jobs/?status=%00&team=%00&after=%00", "a_member"),
    "step autosave": _probe_autosave,
    "step full post": _probe_step,
    "upload YAML with \\0": _probe_upload(YAML_NUL, "job.yaml"),
    "upload JSON with \\u0000": _probe_upload(JSON_NUL, "job.json"),
    "upload SkyPilot with \\x00": _probe_upload(SKY_NUL, "task.yaml"),
    "upload sbatch with a raw NUL": _probe_upload("#!/bin/bash\n#SBATCH -N 1\x00\n", "x.sbatch"),
    "pasted YAML with \\0": _probe_pasted(YAML_NUL),
    "API import YAML": _probe_api_import(YAML_NUL),
    "API import JSON": _probe_api_import(JSON_NUL, "native"),
    "API import sbatch": _probe_api_import("#SBATCH -J a\x00b\n", "sbatch"),
    "API validate": _probe_api_validate,
    "comment": _probe_comment,
    "finding": _probe_finding,
    "finding information": _probe_information,
    "staff note": _probe_staff_note,
    "staff scheduler client": _probe_staff_client,
    "application": _probe_apply,
    "scheduler API batch": _probe_scheduler_batch,
}


@pytest.mark.parametrize("name", list(ENDPOINTS))
def test_a_nul_anywhere_is_refused_or_removed_never_a_500(
    name, client_for, team_a, a_member, staff, request
):
    client = client_for(a_member)
    fixtures = {"team_a": team_a, "a_member": a_member, "staff": staff,
                "run": lambda: request.getfixturevalue("run")}  # fmt: skip
    response = ENDPOINTS[name](client, fixtures)
    assert response.status_code in (200, 204, 302, 400, 422), (response.status_code, name)
    if response.status_code in (400, 422) and response.get("Content-Type", "").startswith(
        "application/json"
    ):
        assert "NUL" in response.content.decode() or response.json(), response.content
    _nothing_stored_holds_a_nul()


def _nothing_stored_holds_a_nul():
    for model in (JobDescription, Comment, Finding, FindingNote, SchedulerClient, Event):
        for row in model.objects.all():
            for field in row._meta.concrete_fields:
                value = getattr(row, field.attname)
                assert "\x00" not in json.dumps(value, default=str), (model, field.name)


def test_an_escaped_nul_in_an_imported_file_says_so_on_the_field(client_for, team_a, a_member):
    upload = SimpleUploadedFile("job.yaml", YAML_NUL.encode())
    response = client_for(a_member).post(
        reverse("job_new"), {"team": team_a.pk, "file": upload, "source_format": "auto"}
    )
    assert response.status_code == 400
    assert "NUL character" in " ".join(response.context["form"].errors["file"])
    assert not JobDescription.objects.exists()
