"""Declared next to observed for one run: the scheduler API's optional observed values, the
figures on the job page, the finding a gap offers, and the RunOutcome row of an ended run."""

import io
import json
import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from jobs.runs import observed, services, simulator
from jobs.runs.models import Event, Hold, RunOutcome

pytestmark = pytest.mark.django_db

T0 = timezone.now().replace(microsecond=0) - timedelta(days=5)


def at(hours):
    return T0 + timedelta(hours=hours)


def play(run, *, release=True):
    """A run with real gaps against the example job (36 h on 8 nodes, 2.5 TiB, 300 GB out,
    1,200 h expected, preemptible, run_longer): staging 3 h, 4 nodes granted, 60 h running,
    twice the output."""
    post = services.record_event
    post(run=run, kind="rented", occurred_at=at(0), idempotency_key="e1")
    services.record_hold(
        run=run, accelerator_type="L40S", count=16, phase="staging", started_at=at(0),
        ended_at=at(3), idempotency_key="h1", observed={"bytes_staged": 3_000_000_000_000},
    )  # fmt: skip
    post(run=run, kind="running", occurred_at=at(3), idempotency_key="e2",
         observed={"nodes_granted": 4})  # fmt: skip
    services.record_hold(
        run=run, accelerator_type="L40S", count=16, phase="running", started_at=at(3),
        ended_at=at(63), idempotency_key="h2",
    )  # fmt: skip
    post(run=run, kind="output", occurred_at=at(63), idempotency_key="e3")
    services.record_hold(
        run=run, accelerator_type="L40S", count=16, phase="output", started_at=at(63),
        ended_at=at(64), idempotency_key="h3", observed={"bytes_delivered": 600_000_000_000},
    )  # fmt: skip
    if release:
        post(run=run, kind="released", occurred_at=at(64), idempotency_key="e4",
             observed={"exit_reason": "completed"})  # fmt: skip
    run.refresh_from_db()
    return run


def figures(run):
    events, holds = list(run.events.all()), list(run.holds.all())
    return observed.compute(run, events=events, holds=holds, now=at(64))


def test_each_declared_figure_meets_its_observation(run):
    result = figures(play(run))
    by = {f.key: f for f in result.figures}
    assert by["duration"].ratio == pytest.approx(60 / 36, abs=0.01)
    assert by["duration"].finding == {"kind": "ambiguous_description", "field": "request.estimate"}
    assert by["duration"].sentence == "Ran 60h against 36h estimated: 1.67× the estimate."
    assert by["data"].ratio == pytest.approx(3e12 / (2.5 * 2**40), abs=0.01)
    assert by["data"].finding is None  # 1.09×: within the threshold
    assert by["staging"].finding == {"kind": "staging_slower"}
    assert "implies 37min" in by["staging"].sentence
    assert by["hours"].declared == 1200 and by["hours"].observed == 1024 and by["hours"].gap
    assert by["output"].ratio == 2.0 and by["output"].finding["field"] == "output.artifacts.0.size"
    assert by["restarts"].sentence == "Not preempted." and not by["restarts"].gap
    assert by["deadline"].observed_text == "met"
    assert by["nodes"].sentence.startswith(
        "Asked for 8 nodes, granted 4. Declared it would run longer on fewer nodes; it ran on 4"
    )
    assert result.exit_reason == "completed" and not result.live


def test_live_figures_say_so_far(run):
    run = play(run, release=False)
    result = figures(run)
    assert result.live
    assert result.figure("deadline").observed_text == "pending"
    assert result.figure("hours").finding is None


def test_run_outcome_is_written_when_the_run_ends(run):
    play(run, release=False)
    assert not RunOutcome.objects.exists()
    run = play(run)  # replays the same keys (duplicates) and releases
    outcome = RunOutcome.objects.get(run=run)
    assert outcome.team_id == run.job.team_id and outcome.work_kind == "footage_processing"
    assert outcome.duration_ratio == pytest.approx(1.6667, abs=1e-3)
    assert outcome.output_ratio == 2.0 and outcome.nodes_granted == 4 and outcome.nodes_asked == 8
    assert outcome.staging_ratio > 4 and outcome.hours_ratio == pytest.approx(1024 / 1200, 1e-3)
    assert outcome.deadline_met is True and outcome.deadline_margin_seconds > 0
    assert outcome.exit_reason == "completed" and outcome.final_state == "released"
    # A hold reported after the end still counts.
    services.record_hold(
        run=run, accelerator_type="L40S", count=16, phase="idle_tail", started_at=at(64),
        ended_at=at(65), idempotency_key="h4",
    )  # fmt: skip
    assert RunOutcome.objects.get(run=run).held_hours == 1040


def test_the_job_page_shows_the_panel_and_offers_findings(client_for, run, a_member, staff):
    play(run)
    page = client_for(a_member).get(f"/jobs/{run.job_id}/").content.decode()
    assert "Declared and observed" in page
    assert "Ran 60h against 36h estimated" in page
    assert f"?job={run.job_id}&amp;kind=staging_slower" in page
    assert f"?job={run.job_id}&amp;kind=ambiguous_description&amp;field=request.estimate" in page
    assert '<svg class="observed-chart"' in page and "Running time: 1.67×" in page
    staff_page = client_for(staff).get(f"/jobs/{run.job_id}/").content.decode()
    assert "Declared and observed" in staff_page and "kind=staging_slower" not in staff_page


def test_staging_finding_is_prefilled_from_what_was_observed(client_for, run, a_member):
    play(run)
    page = client_for(a_member).get(f"/findings/new/?job={run.job_id}&kind=staging_slower")
    html = page.content.decode()
    assert re.search(r'name="data_size"[^>]*value="3 TB"', html)
    assert re.search(r'name="staging_time"[^>]*value="3h"', html)
    assert re.search(r'name="run_time"[^>]*value="60h"', html)


def test_outsiders_do_not_see_the_panel(client_for, run, b_member):
    play(run)
    assert client_for(b_member).get(f"/jobs/{run.job_id}/run/").status_code == 404


# --- The scheduler API ---------------------------------------------------------------------


@pytest.fixture
def token(db):
    return services.create_client(name="eu-west scheduler")[1]


def post(client, url, token, body):
    return client.post(
        url, json.dumps(body), content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )  # fmt: skip


def test_api_takes_observed_values_on_events_and_holds(client, run, token):
    base = f"/api/v1/scheduler/jobs/{run.job_id}"
    when = at(0).isoformat()
    r = post(client, f"{base}/events", token, {"kind": "rented", "occurred_at": when,
             "idempotency_key": "a", "nodes_granted": 6})  # fmt: skip
    assert r.status_code == 200, r.content
    assert Event.objects.get(idempotency_key="a").observed == {"nodes_granted": 6}
    hold = {"accelerator_type": "L40S", "count": 24, "phase": "staging", "started_at": when,
            "idempotency_key": "s"}  # fmt: skip
    assert post(client, f"{base}/holds", token, hold).status_code == 200
    closed = {**hold, "ended_at": at(2).isoformat(), "bytes_staged": 2_000_000_000_000}
    assert post(client, f"{base}/holds", token, closed).json()["outcome"] == "closed"
    assert Hold.objects.get(idempotency_key="s").observed == {"bytes_staged": 2_000_000_000_000}
    state = client.get(base, headers={"Authorization": f"Bearer {token}"}).json()
    data = {f["key"]: f for f in state["observed"]["figures"]}
    assert data["data"]["observed"] == 2e12 and data["nodes"]["observed"] == 6


@pytest.mark.parametrize(
    "extra",
    [
        {"bytes_staged": -1},
        {"bytes_staged": 10**22},
        {"bytes_staged": "lots"},
        {"nodes_granted": 0},
        {"nodes_granted": 10**6},
        {"exit_reason": "x" * 201},
    ],
)
def test_api_refuses_bad_observed_values(client, run, token, extra):
    body = {"kind": "rented", "occurred_at": at(0).isoformat(), "idempotency_key": "k", **extra}
    r = post(client, f"/api/v1/scheduler/jobs/{run.job_id}/events", token, body)
    assert r.status_code in (400, 422) and "detail" in r.json()
    assert not Event.objects.exists()


def test_a_repeated_key_with_other_observed_values_is_refused(client, run, token):
    body = {"kind": "rented", "occurred_at": at(0).isoformat(), "idempotency_key": "k",
            "nodes_granted": 2}  # fmt: skip
    url = f"/api/v1/scheduler/jobs/{run.job_id}/events"
    assert post(client, url, token, body).json()["duplicate"] is False
    assert post(client, url, token, body).json()["duplicate"] is True
    assert (
        post(client, url, token, {**body, "nodes_granted": 3}).status_code == 409
    )  # reused key, other body


def test_observed_values_are_checked_by_the_service_too(run):
    with pytest.raises(Exception, match="nodes_granted"):
        observed.clean_observed({"nodes_granted": True})
    with pytest.raises(Exception, match="Unknown"):
        observed.clean_observed({"gpus": 3})
    assert observed.clean_observed({"exit_reason": "  OUT  OF\nMEMORY ", "bytes_staged": None}) == {
        "exit_reason": "OUT OF MEMORY"
    }


def test_the_simulator_reports_what_it_measured(run):
    run = simulator.play_now(run)
    outcome = RunOutcome.objects.get(run=run)
    assert outcome.staged_bytes and outcome.delivered_bytes and outcome.nodes_granted
    assert outcome.exit_reason == "completed" and outcome.simulated
    assert outcome.duration_ratio and outcome.staging_ratio


def test_the_batch_endpoint_takes_observed_values_too(client, run, token):
    body = {
        "events": [
            {"job_id": run.job_id, "kind": "rented", "occurred_at": at(0).isoformat(),
             "idempotency_key": "b1", "bytes_staged": 5_000_000_000},
            {"job_id": run.job_id, "kind": "running", "occurred_at": at(1).isoformat(),
             "idempotency_key": "b2", "nodes_granted": 3, "exit_reason": "still going"},
        ]
    }  # fmt: skip
    response = post(client, "/api/v1/scheduler/events", token, body)
    assert response.status_code == 200, response.content
    assert Event.objects.get(idempotency_key="b1").observed == {"bytes_staged": 5_000_000_000}
    assert Event.objects.get(idempotency_key="b2").observed == {
        "nodes_granted": 3, "exit_reason": "still going"
    }  # fmt: skip


def test_outcomes_of_runs_that_ended_before_are_recorded_by_the_command(run):
    play(run)
    RunOutcome.objects.all().delete()
    out = io.StringIO()
    call_command("record_run_outcomes", stdout=out)
    assert RunOutcome.objects.filter(run=run).exists() and "1 run" in out.getvalue()
    call_command("record_run_outcomes", stdout=out)  # again: nothing new, nothing doubled
    assert RunOutcome.objects.count() == 1
