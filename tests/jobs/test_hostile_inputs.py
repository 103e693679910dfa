"""Inputs a reviewer found could break things: each is refused or kept, never a 500."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from jobs import jobformat, services
from jobs.models import JobDescription
from jobs.runs import services as run_services
from tests.users import log_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(team_a, a_member):
    return services.create_draft(team=team_a, user=a_member)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("request.expected_accelerator_hours", "nan"),
        ("request.expected_accelerator_hours", "inf"),
        ("request.expected_accelerator_hours", "1e400"),
        ("request.nodes", "--5"),
        ("request.nodes", "²"),
        ("data.inputs.².size", "1 GB"),
        ("data.inputs.-1.size", "1 GB"),
        ("data.inputs.99999999.size", "1 GB"),
    ],
)
def test_odd_numbers_are_kept_or_ignored_never_a_500(client_for, draft, a_member, field, value):
    step = field.split(".", 1)[0]
    response = client_for(a_member).post(
        reverse("job_autosave", args=[draft.pk, step]),
        {"version": draft.version, field: value},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    json.dumps(JobDescription.objects.get(pk=draft.pk).data, allow_nan=False)


@pytest.mark.parametrize(
    "action", ["add:data.no_inputs", "add:work.summary", "remove:data.scratch.0", "add:data"]
)
def test_add_and_remove_only_touch_repeated_groups(client_for, draft, a_member, action):
    step = action.split(":")[1].split(".")[0]
    if step == "work":
        step = "work"
    response = client_for(a_member).post(
        reverse("job_step", args=[draft.pk, step if step in ("work", "data") else "data"]),
        {
            "version": draft.version,
            "work.summary": "hello",
            "data.no_inputs": "true",
            "action": action,
        },
    )
    assert response.status_code == 302
    draft.refresh_from_db()
    assert not isinstance(draft.data.get("work", {}).get("summary"), list)


def test_export_with_a_name_that_has_newlines_and_quotes(client_for, team_a, a_member):
    data = {**jobformat.example_data(), "name": 'a\nb"c'}
    job = services.create_draft(team=team_a, user=a_member, data=data)
    services.submit(job=job, user=a_member)
    response = client_for(a_member).get(reverse("revision_export", args=[job.pk, 1, "json"]))
    assert response.status_code == 200
    assert "\n" not in response["Content-Disposition"]


def test_keep_mine_after_the_job_was_submitted_is_refused_with_a_message(
    client_for, team_a, a_member
):
    job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    client = client_for(a_member)
    stale = job.version
    services.save_draft(
        job=job,
        user=a_member,
        parts={"work": {**job.data["work"], "summary": "theirs"}},
        version=stale,
    )
    client.post(
        reverse("job_step", args=[job.pk, "work"]),
        {"version": stale, "work.summary": "mine", "action": "save"},
    )
    services.submit(job=job, user=a_member, acknowledge_warnings=True)
    response = client.post(reverse("job_conflict", args=[job.pk]), {"keep": "mine"}, follow=True)
    assert response.status_code == 200 and "was not saved" in response.content.decode()
    assert (
        client.get(reverse("job_step", args=[job.pk, "work"])).status_code == 200
    )  # stash is gone


def test_an_autosave_after_the_session_expired_is_saved_after_login(client, draft, a_member):
    response = client.post(
        reverse("job_autosave", args=[draft.pk, "work"]),
        {"version": draft.version, "name": "recovered-name"},
        headers={"HX-Request": "true"},
    )
    assert response["HX-Redirect"].endswith(f"next=/jobs/{draft.pk}/edit/work/")
    log_in(client, a_member)
    assert client.get(f"/jobs/{draft.pk}/edit/work/").status_code == 200
    draft.refresh_from_db()
    assert draft.name == "recovered-name"


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        ("#SBATCH --mem=9999999999999999999999T\n", "sbatch"),
        ("resources:\n  accelerators: A100:1e999\n", "skypilot"),
        ("resources:\n  cpus: 1.2.3\nrun: x\n", "skypilot"),
        ("inputs: {s3://x: 1e300}\nrun: x\n", "skypilot"),
    ],
)
def test_importers_survive_absurd_numbers(client, text, fmt):
    response = client.post(
        reverse("api:spec_import"), {"text": text, "format": fmt}, content_type="application/json"
    )
    assert response.status_code in (200, 400)


def test_scheduler_refuses_a_reused_key_with_another_payload_and_absurd_times(client, accepted):
    _, token = run_services.create_client(name="s")
    url = f"/api/v1/scheduler/jobs/{accepted.pk}/events"
    headers = {"Authorization": f"Bearer {token}"}
    when = (timezone.now() - timedelta(hours=1)).isoformat()
    ok = client.post(
        url,
        {"kind": "rented", "occurred_at": when, "idempotency_key": "k"},
        content_type="application/json",
        headers=headers,
    )
    assert ok.status_code == 200
    other = client.post(
        url,
        {"kind": "cancelled", "occurred_at": when, "idempotency_key": "k"},
        content_type="application/json",
        headers=headers,
    )
    # The same key with another body: 409, saying so (as Stripe does).
    assert other.status_code == 409 and "different event" in other.json()["detail"]
    for bad in ("0001-01-01T00:00:00+14:00", "1970-01-01T00:00:00Z"):
        response = client.post(
            url,
            {"kind": "running", "occurred_at": bad, "idempotency_key": bad},
            content_type="application/json",
            headers=headers,
        )
        assert response.status_code in (400, 422), bad
    hold = {
        "accelerator_type": "L40S",
        "count": 1,
        "phase": "staging",
        "started_at": "0001-01-01T00:00:00Z",
        "idempotency_key": "h",
    }
    assert client.post(
        f"/api/v1/scheduler/jobs/{accepted.pk}/holds",
        hold,
        content_type="application/json",
        headers=headers,
    ).status_code in (400, 422)
    assert client.get(
        "/api/v1/scheduler/jobs/99999999999999999999999", headers=headers
    ).status_code in (404, 422)
