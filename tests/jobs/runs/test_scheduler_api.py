import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from jobs import jobformat, services
from jobs.runs import services as run_services
from jobs.runs.models import Run, SchedulerClient
from portal.middleware import API_PREFIX

pytestmark = pytest.mark.django_db

WHEN = (timezone.now() - timedelta(hours=3)).isoformat()


@pytest.fixture
def token(db):
    _, token = run_services.create_client(name="eu-west scheduler")
    return token


def api(client, method, url, token=None, body=None, raw=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if method == "get":
        return client.get(url, headers=headers)
    data = raw if raw is not None else json.dumps(body or {})
    return client.post(url, data, content_type="application/json", headers=headers)


def event(kind, key, when=WHEN, **extra):
    return {"kind": kind, "occurred_at": when, "idempotency_key": key, **extra}


def test_token_is_stored_hashed_and_works(client, accepted, token):
    stored = SchedulerClient.objects.get()
    assert token not in (stored.token_hash, stored.token_prefix) and stored.token_hash != token
    response = api(
        client, "post", f"/api/v1/scheduler/jobs/{accepted.pk}/events", token, event("rented", "k1")
    )
    assert response.status_code == 200
    assert response.json() == {
        "job_id": accepted.pk, "idempotency_key": "k1", "status": "applied",
        "duplicate": False, "reject_reason": "", "run_state": "rented",
    }  # fmt: skip
    again = api(
        client, "post", f"/api/v1/scheduler/jobs/{accepted.pk}/events", token, event("rented", "k1")
    )
    assert again.json()["duplicate"] is True
    assert Run.objects.get(job=accepted).events.count() == 1


@pytest.mark.parametrize("bad", [None, "nope", "Bearer", "e31s_" + "x" * 500])
def test_bad_tokens_are_401_json(client, accepted, bad):
    response = api(
        client, "post", f"/api/v1/scheduler/jobs/{accepted.pk}/events", bad, event("rented", "k")
    )
    assert response.status_code == 401 and "detail" in response.json()


def test_revoked_token_stops_working(client, accepted, token):
    run_services.revoke_client(client=SchedulerClient.objects.get())
    response = api(
        client, "post", f"/api/v1/scheduler/jobs/{accepted.pk}/events", token, event("rented", "k")
    )
    assert response.status_code == 401


def test_a_logged_in_partner_session_is_not_a_scheduler(client_for, accepted, a_admin):
    client = client_for(a_admin)
    response = api(
        client, "post", f"/api/v1/scheduler/jobs/{accepted.pk}/events", None, event("rented", "k")
    )
    assert response.status_code == 401


def test_jobs_not_accepted_or_unknown_are_404(client, team_b, b_member, token):
    draft = services.create_draft(team=team_b, user=b_member, data=jobformat.example_data())
    for job_id in (draft.pk, 999999):
        response = api(
            client, "post", f"/api/v1/scheduler/jobs/{job_id}/events", token, event("rented", "k")
        )
        assert response.status_code == 404 and "No accepted job" in response.json()["detail"]


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        ("not json", 400),
        ("[]", 422),
        (json.dumps(event("teleported", "k")), 422),
        (json.dumps(event("rented", "k", when="2026-01-01T00:00:00")), 422),  # no time zone
        (json.dumps(event("rented", "")), 422),
        (json.dumps(event("rented", "k" * 500)), 422),
        (json.dumps(event("rented", "k", when="2999-01-01T00:00:00Z")), 400),
    ],
    # Named ids: the events carry the current time, and pytest-xdist needs ids that every
    # worker computes alike.
    ids=[
        "not-json",
        "a-list",
        "unknown-kind",
        "no-time-zone",
        "empty-key",
        "long-key",
        "far-future",
    ],
)
def test_malformed_input_is_refused_with_json(client, accepted, token, raw, status):
    response = api(client, "post", f"/api/v1/scheduler/jobs/{accepted.pk}/events", token, raw=raw)
    assert response.status_code == status
    assert "detail" in response.json()
    assert Run.objects.get(job=accepted).events.count() == 0


@pytest.mark.parametrize(
    "content_type",
    ["multipart/form-data; boundary=x", "multipart/form-data", "application/x-www-form-urlencoded"],
)
def test_the_api_reads_its_body_as_json_whatever_the_content_type(
    client, accepted, token, content_type
):
    # The NUL middleware read a multipart body as a form, so the API could not read it: 500.
    headers = {"Authorization": f"Bearer {token}"}
    response = client.post(
        f"/api/v1/scheduler/jobs/{accepted.pk}/events",
        json.dumps(event("rented", "k")),
        content_type=content_type,
        headers=headers,
    )
    assert response.status_code == 200
    assert Run.objects.get(job=accepted).events.count() == 1
    for url, body in [
        ("/api/v1/scheduler/events", "--x\r\nContent-Disposition: form-data; name=a\r\n\r\n\x00"),
        ("/api/v1/spec/validate", "a=b%00"),
    ]:
        response = client.post(url, body, content_type=content_type, headers=headers)
        assert response.status_code == 400, url
        assert "detail" in response.json()


def test_the_api_is_where_the_nul_middleware_leaves_the_body_unread():
    assert reverse("api:api-root").startswith(API_PREFIX)


def test_huge_payloads_are_refused(client, accepted, token):
    too_many = {"events": [{**event("rented", f"k{i}"), "job_id": accepted.pk} for i in range(501)]}
    assert api(client, "post", "/api/v1/scheduler/events", token, too_many).status_code == 422
    huge = json.dumps(event("rented", "k", note="x" * 3_000_000))
    assert api(
        client, "post", f"/api/v1/scheduler/jobs/{accepted.pk}/events", token, raw=huge
    ).status_code in (400, 413)


def test_batch_answers_each_event_and_tolerates_order(client, accepted, token):
    t = timezone.now() - timedelta(hours=5)
    body = {
        "events": [
            {
                **event("running", "b", when=(t + timedelta(minutes=20)).isoformat()),
                "job_id": accepted.pk,
            },
            {
                **event("rented", "a", when=(t + timedelta(minutes=10)).isoformat()),
                "job_id": accepted.pk,
            },
            {**event("rented", "c"), "job_id": 424242},
        ]
    }
    results = api(client, "post", "/api/v1/scheduler/events", token, body).json()["results"]
    assert results[2]["error"] == "no accepted job"
    assert Run.objects.get(job=accepted).state == "running"


def test_holds_and_the_run_summary(client, accepted, token):
    start = (timezone.now() - timedelta(hours=4)).isoformat()
    end = (timezone.now() - timedelta(hours=2)).isoformat()
    hold = {
        "accelerator_type": "L40S",
        "count": 32,
        "phase": "staging",
        "started_at": start,
        "idempotency_key": "h",
    }
    assert (
        api(client, "post", f"/api/v1/scheduler/jobs/{accepted.pk}/holds", token, hold).json()[
            "outcome"
        ]
        == "created"
    )
    closed = api(
        client,
        "post",
        f"/api/v1/scheduler/jobs/{accepted.pk}/holds",
        token,
        {**hold, "ended_at": end},
    )
    assert closed.json()["outcome"] == "closed"
    assert (
        api(
            client,
            "post",
            f"/api/v1/scheduler/jobs/{accepted.pk}/holds",
            token,
            {**hold, "ended_at": end},
        ).json()["outcome"]
        == "duplicate"
    )
    bad = api(
        client,
        "post",
        f"/api/v1/scheduler/jobs/{accepted.pk}/holds",
        token,
        {**hold, "idempotency_key": "x", "ended_at": "2020-01-01T00:00:00Z"},
    )
    assert bad.status_code == 400 and "before" in bad.json()["detail"]
    summary = api(client, "get", f"/api/v1/scheduler/jobs/{accepted.pk}", token).json()
    assert summary["state"] == "submitted" and summary["ledger"]["phases"]["staging"] == 64.0


def test_openapi_schema_lists_the_scheduler_api(client):
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    assert "/api/v1/scheduler/jobs/{job_id}/events" in paths and "/api/v1/scheduler/events" in paths
