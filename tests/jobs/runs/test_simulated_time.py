"""A simulated run lives in job time that starts at (or after) the job's acceptance and runs
forward; while it runs, its ledger says what was held so far, never a gap against the whole run
(issue 31: events dated days before the job was drafted, "Running: 1s", "-1,523.2 h" and "0.01×")."""

import re
from datetime import UTC, timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from jobs.demo import load_jobs
from jobs.runs import ledger, presenters, simulator, timeline
from jobs.runs import services as run_services
from jobs.runs.models import Run
from portal.errors import DomainError
from portal.management.commands.load_demo import Command

pytestmark = pytest.mark.django_db


def _times(run):
    events = list(run.events.all())
    holds = list(run.holds.all())
    return events, [e.occurred_at for e in events] + [
        t for h in holds for t in (h.started_at, h.ended_at) if t is not None
    ]


def test_a_simulated_run_starts_now_never_before_acceptance(run):
    before = run.created_at
    run = simulator.play_now(run)
    events, times = _times(run)
    assert run.state == "released" and events
    assert min(times) >= before  # nothing before the job was accepted (nor drafted)
    # The timeline's phases are the events' own spans: they add up to the run's job time.
    segs = timeline.segments(run, events)
    assert segs[0].start == run.created_at
    assert [s.end for s in segs[:-1]] == [e.occurred_at for e in events if e.status == "applied"]
    total = sum(s.seconds for s in segs)
    assert abs(total - (max(times) - run.created_at).total_seconds()) <= len(segs)


def test_a_start_chosen_before_acceptance_is_moved_to_acceptance(run):
    run = simulator.play_now(run, start=run.created_at - timedelta(days=5))
    _, times = _times(run)
    assert min(times) >= run.created_at


def test_a_chosen_start_after_acceptance_is_kept(run):
    start = run.created_at + timedelta(hours=3)
    run = simulator.play_now(run, start=start)
    events, times = _times(run)
    assert min(times) >= start
    first = min(events, key=lambda e: e.occurred_at)
    assert first.occurred_at - start < timedelta(minutes=16)  # queued 1-15 min, then rented


def test_the_simulator_may_not_date_anything_before_acceptance(run):
    client = simulator.simulator_client()
    with pytest.raises(DomainError, match="before the job was accepted"):
        run_services.record_event(
            run=run, kind="rented", occurred_at=run.created_at - timedelta(days=2),
            idempotency_key="early", client=client,
        )  # fmt: skip
    with pytest.raises(DomainError, match="before the job was accepted"):
        run_services.record_hold(
            run=run, accelerator_type="L40S", count=8, phase="staging",
            started_at=run.created_at - timedelta(hours=1), ended_at=None,
            idempotency_key="early-hold", client=client,
        )  # fmt: skip


def test_a_running_simulated_run_agrees_with_its_own_clock(run):
    run = simulator.play_half_way(run)
    events = list(run.events.all())
    now = presenters.simulated_now(run, events)
    assert all(run.created_at <= e.occurred_at <= now for e in events)
    segs = timeline.segments(run, events, now=now)
    running = segs[-1]
    assert running.state == "running" and running.start == max(e.occurred_at for e in events)
    assert running.end == now  # the running bar runs from its event to the run's clock


def test_a_running_runs_ledger_says_held_so_far_never_a_negative_gap(run):
    run = simulator.play_half_way(run)
    events = list(run.events.all())
    result = ledger.compute(run, now=presenters.simulated_now(run, events))
    assert not result.final and result.held > 0 and result.expected > result.held
    assert result.gap is None and not result.offer_finding
    assert result.figures()["gap_hours"] is None
    running = next(p for p in result.phases if p.phase == "running")
    assert running.open and running.hours >= 0 and running.accelerators > 0
    assert re.fullmatch(
        r"[\d.,]+ (h|min|s) held so far of the 1,200\.0 h expected for the whole run; "
        r"the difference is counted when the run ends\.",
        result.so_far,
    )
    assert not any(re.search(r"-\d|less\)", line) for line in result.explanations)


def test_a_running_run_already_over_its_expectation_shows_a_positive_gap(run):
    start = run.created_at
    run_services.record_hold(
        run=run, accelerator_type="L40S", count=32, phase="running", started_at=start,
        ended_at=start + timedelta(hours=50), idempotency_key="long",
        client=simulator.simulator_client(),
    )  # fmt: skip
    result = ledger.compute(run)
    assert not result.final and result.gap == 400.0 and result.offer_finding
    assert result.so_far.startswith("1,600.0 h held so far: already 400.0 h more than")


def test_the_job_page_of_a_running_simulated_run(client_for, run, a_member):
    run = simulator.play_half_way(run)
    page = client_for(a_member).get(reverse("job_detail", args=[run.job_id])).content.decode()
    assert "Held so far</th>" in page and "expected for the whole run" in page
    assert "h against expected" not in page  # no gap against the whole run yet
    assert not re.search(r"-[\d,]+(\.\d+)? (h|min|s)\b", page)  # nothing negative
    assert not re.search(r"0\.0\d×", page)  # no "0.01×" half way
    hours = re.search(r"Accelerator-hours held</th>.*?</tr>", page, re.S).group(0)
    assert "×" not in hours and "—" in hours  # no ratio for hours still growing
    running = re.search(r"Running time</th>.*?</tr>", page, re.S).group(0)
    assert "so far" in running and "×" not in running


def test_the_demo_runs_are_dated_after_their_acceptance():
    teams, users = Command().load_accounts()
    load_jobs(teams=teams, users=users)
    runs = Run.objects.filter(simulated=True)
    assert runs.count() >= 2
    for run in runs:
        _, times = _times(run)
        assert times and min(times) >= run.created_at, run
        assert run.created_at >= run.job.created_at


def test_staff_choose_when_the_simulation_starts(
    client_for, run, staff, django_capture_on_commit_callbacks
):
    url = reverse("run_simulate", args=[run.job_id])
    page = client_for(staff).post(url, {"start": "soon"}, follow=True).content.decode()
    assert "Not started: give the start as a date and time" in page
    start = (run.created_at + timedelta(hours=2)).replace(second=0, microsecond=0, tzinfo=None)
    with django_capture_on_commit_callbacks(execute=True):
        client_for(staff).post(url, {"start": start.strftime("%Y-%m-%dT%H:%M")})
    run.refresh_from_db()
    _, times = _times(run)
    assert run.state == "released" and min(times) >= start.replace(tzinfo=run.created_at.tzinfo)


def test_a_start_before_acceptance_is_said_moved_where_staff_look(
    client_for, run, staff, django_capture_on_commit_callbacks
):
    url = reverse("run_simulate", args=[run.job_id])
    with django_capture_on_commit_callbacks(execute=True):
        page = client_for(staff).post(url, {"start": "2020-01-01T00:00"}, follow=True)
    accepted = run.created_at.astimezone(UTC)
    message = (
        f"It starts at {accepted:%-d %b %Y %H:%M} UTC, not at the start you gave "
        "(1 Jan 2020 00:00 UTC): that is before the job&#x27;s acceptance."
    )
    assert message in page.content.decode()
    run.refresh_from_db()
    _, times = _times(run)
    assert run.state == "released" and min(times) >= run.created_at


def test_a_start_the_simulator_keeps_is_not_said_moved(
    client_for, run, staff, django_capture_on_commit_callbacks
):
    start = (run.created_at + timedelta(hours=1)).astimezone(UTC).replace(second=0, microsecond=0)
    with django_capture_on_commit_callbacks(execute=True):
        page = client_for(staff).post(
            reverse("run_simulate", args=[run.job_id]),
            {"start": start.strftime("%Y-%m-%dT%H:%M")},
            follow=True,
        )
    assert "The simulator is playing this run" in page.content.decode()
    assert "not at the start you gave" not in page.content.decode()
    _, times = _times(run)
    assert min(times) >= start


def test_the_command_starts_no_earlier_than_acceptance_and_says_so(run):
    out = StringIO()
    call_command("simulate_network", "--start", "2020-01-01T00:00", stdout=out)
    assert (
        "not at the start you gave (1 Jan 2020 00:00 UTC): that is before the job's acceptance"
        in (out.getvalue())
    )
    run.refresh_from_db()
    _, times = _times(run)
    assert run.state == "released" and min(times) >= run.created_at
