"""NUL characters never reach the database (PostgreSQL refuses them: a 500) (issue 11,
item 5). CI runs these on PostgreSQL."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from jobs.models import Event
from jobs.runs import services as run_services
from portal.models import Team

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
