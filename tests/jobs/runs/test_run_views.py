from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from jobs import jobformat, services
from jobs.runs import services as run_services
from jobs.runs import simulator
from jobs.runs.models import Phase, Run, SchedulerClient

pytestmark = pytest.mark.django_db


def test_active_run_polls_and_final_run_stops(client_for, run, a_member):
    client = client_for(a_member)
    page = client.get(reverse("job_detail", args=[run.job_id])).content.decode()
    assert 'hx-trigger="every 3s"' in page and "Submitted (queued)" in page
    simulator.play_now(run)
    panel = client.get(
        reverse("run_panel", args=[run.job_id]), headers={"HX-Request": "true"}
    ).content.decode()
    assert "every 3s" not in panel and "<html" not in panel
    assert "simulated" in panel and "Released (done)" in panel
    assert '<title id="tl-title">' in panel and '<title id="lg-title">' in panel
    assert "Held in all" in panel


def _page_after_holding_1600_hours(client, run):
    """The job page once the run held 32 × 50 h = 1,600 h (1,200 h expected)."""
    start = timezone.now() - timedelta(hours=60)
    run_services.record_hold(
        run=run, accelerator_type="L40S", count=32, phase=Phase.RUNNING,
        started_at=start, ended_at=start + timedelta(hours=50), idempotency_key="h",
    )  # fmt: skip
    return client.get(reverse("job_detail", args=[run.job_id])).content.decode()


def test_ledger_offers_a_finding_when_far_from_expected(client_for, run, a_member):
    page = _page_after_holding_1600_hours(client_for(a_member), run)
    assert "+400.0 h against expected" in page
    link = f"/findings/new/?job={run.job_id}&amp;kind=accounting_mismatch"
    assert link in page
    response = client_for(a_member).get(link.replace("&amp;", "&"))
    assert response.status_code == 200 and "1600" in response.content.decode()  # pre-filled figures


def test_the_ledger_writes_thousands_as_the_figures_beside_it_do(client_for, run, a_member):
    # 1,600 h held against 1,200 expected: the ledger's table, chart and sentences wrote
    # "1600.0" and "+400.0" next to the declared-and-observed table's "1,600.0 h".
    page = _page_after_holding_1600_hours(client_for(a_member), run)
    assert "<td><strong>1,600.0 h</strong></td>" in page and "<td>1,200.0 h</td>" in page
    assert "The run itself held 1,600.0 h against 1,152.0 h requested" in page
    assert "1600.0" not in page and "1152.0" not in page


def test_a_gap_too_small_to_show_has_no_sign(client_for, run, a_member):
    # A real two-minute run on Slurm held a few hundredths of an hour less than expected,
    # and the ledger said "-0.0 h against expected".
    start = timezone.now() - timedelta(hours=60)
    run_services.record_hold(
        run=run, accelerator_type="L40S", count=32, phase=Phase.RUNNING,
        started_at=start, ended_at=start + timedelta(hours=37.499), idempotency_key="h",
    )  # fmt: skip
    Run.objects.filter(pk=run.pk).update(state="released")  # it ended: its gap is counted
    page = client_for(a_member).get(reverse("job_detail", args=[run.job_id])).content.decode()
    assert "0.0 h against expected" in page
    assert "-0.0" not in page and "+0.0 h against" not in page


def test_staff_move_by_hand_and_refusals(client_for, run, staff, a_admin):
    url = reverse("run_move", args=[run.job_id])
    assert client_for(a_admin).post(url, {"kind": "cancelled", "note": "x"}).status_code == 403
    client = client_for(staff)
    page = client.post(url, {"kind": "output", "note": "try"}).content.decode()
    assert "Not moved" in page and "cannot follow" in page and ">try</textarea>" in page
    response = client.post(url, {"kind": "rented", "note": "Nodes are ready."})
    run.refresh_from_db()
    assert run.state == "rented" and run.events.get().actor == staff
    # Said in the run's section, where the page opens, not at the top out of sight.
    assert response["Location"].endswith("#run-section")
    html = client.get(response["Location"]).content.decode()
    section = html[html.index('id="run-section"') : html.index('id="run-live"')]
    assert "The run was moved and the event recorded." in section
    assert "The run was moved" not in top_messages(html)


def test_a_refused_move_is_said_on_the_form_with_what_was_chosen_kept(client_for, run, staff):
    # No note: the refusal was a message at the top of the page, out of sight below #run,
    # and the form came back empty.
    url = reverse("run_move", args=[run.job_id])
    response = client_for(staff).post(
        url, {"kind": "failed", "failure_reason": "out_of_memory", "note": ""}
    )
    assert response.status_code == 400
    page = response.content.decode()
    form = page.split('aria-labelledby="move-h"', 1)[1].split("</form>", 1)[0]
    assert (
        'class="form-errors error-summary" tabindex="-1" autofocus><p>Not moved: Write a note'
        in form
    )
    assert '<option value="failed" selected>' in form
    assert '<option value="out_of_memory" selected>' in form
    response = client_for(staff).post(
        url, {"kind": "failed", "failure_reason": "out_of_memory", "note": "OOM on node 3"}
    )
    assert response.status_code == 302
    run.refresh_from_db()
    assert run.state == "failed"


def test_staff_start_the_simulator_from_the_page(
    client_for, run, staff, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        client_for(staff).post(reverse("run_simulate", args=[run.job_id]))
    run.refresh_from_db()
    assert run.state == "released" and run.simulated  # eager Celery in tests plays every step


def test_scheduler_clients_page_shows_a_token_once(client_for, staff):
    client = client_for(staff)
    page = client.post(reverse("scheduler_clients"), {"name": "us-east"}).content.decode()
    assert "e31s_" in page and "not shown again" in page
    assert "e31s_" + "x" not in client.get(reverse("scheduler_clients")).content.decode().replace(
        SchedulerClient.objects.get().token_prefix, ""
    )
    assert client.post(reverse("scheduler_clients"), {"name": "US-EAST"}).status_code == 400
    client.post(reverse("scheduler_client_revoke", args=[SchedulerClient.objects.get().pk]))
    assert SchedulerClient.objects.get().revoked_at is not None


def test_job_page_with_a_run_has_constant_queries(
    client_for, run, a_member, django_assert_num_queries
):
    client = client_for(a_member)
    url = reverse("job_detail", args=[run.job_id])
    run_services.record_event(
        run=run, kind="rented", occurred_at=timezone.now() - timedelta(days=3), idempotency_key="r"
    )
    client.get(url)
    # Session, user, memberships, the job with its run and read mark, the comments, the
    # events with their senders, the holds, the revisions joined to their reviews, the history.
    with django_assert_num_queries(9):
        client.get(url)
    simulator.play_now(run)  # a dozen more events and holds, and the run is over
    with django_assert_num_queries(9):
        client.get(url)


def test_job_list_with_runs_has_constant_queries(
    client_for, team_a, a_member, staff, django_assert_num_queries
):
    client = client_for(a_member)
    client.get(reverse("job_list"))
    # No notice to read (the badge's counters say so): no query looks for one.
    with django_assert_num_queries(5) as first:
        client.get(reverse("job_list"))
    baseline = len(first)  # read now: the query log is a bounded deque
    for i in range(5):
        job = services.create_draft(
            team=team_a, user=a_member, data={**jobformat.example_data(), "name": f"r{i}"}
        )
        revision = services.submit(job=job, user=a_member)
        services.review(revision=revision, reviewer=staff, outcome="accepted")
        simulator.play_now(job.run)
    client.get(reverse("job_list"))  # shows (and marks read) the notices, 20 at a time
    client.get(reverse("job_list"))
    with django_assert_num_queries(baseline):
        page = client.get(reverse("job_list")).content.decode()
    assert page.count("Released (done)") == 5


def simulate_form(html):
    """The staff box's simulate form, where its answers belong."""
    start = html.index('aria-labelledby="simulate-h"')
    return html[start : html.index("</form>", start)]


def top_messages(html):
    start = html.index('id="messages"')
    return html[start : html.index("</div>", start)]


def test_a_start_that_is_no_time_is_refused_beside_the_form_with_what_was_typed(
    client_for, run, staff
):
    # A browser without a date-time picker sends what was typed; the whole job page comes
    # back with the error on the form (not at the top, out of sight above #run).
    response = client_for(staff).post(reverse("run_simulate", args=[run.job_id]), {"start": "soon"})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="run-section"' in html and "Status history (2)" in html  # the whole page
    form = simulate_form(html)
    assert "Not started: give the start as a date and time (UTC)" in form
    assert 'value="soon"' in form and 'aria-invalid="true"' in form
    assert '<div class="field-error" id="simulate-start-error">' in form
    assert "Not started" not in top_messages(html)
    run.refresh_from_db()
    assert not run.simulated and not run.events.exists()


def test_a_queue_that_is_down_is_said_beside_the_form_with_the_start_kept(
    client_for, run, staff, monkeypatch
):
    monkeypatch.setattr("jobs.run_move.enqueue", lambda *args, **kwargs: False)
    start = (run.created_at + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    response = client_for(staff).post(reverse("run_simulate", args=[run.job_id]), {"start": start})
    assert response.status_code == 503
    form = simulate_form(response.content.decode())
    assert "Not started: the task queue is down" in form and f'value="{start}"' in form
    assert "aria-invalid" not in form  # the start was fine


def test_a_started_simulation_is_said_beside_the_form_that_started_it(
    client_for, run, staff, monkeypatch
):
    # The worker has not played a step yet when the page comes back (Celery is eager in
    # tests, so the task is held back here): the staff box is there, and says it started.
    monkeypatch.setattr("jobs.run_move.enqueue", lambda *args, **kwargs: True)
    client = client_for(staff)
    response = client.post(reverse("run_simulate", args=[run.job_id]))
    assert response.status_code == 302 and response["Location"].endswith("#simulate-h")
    html = client.get(response["Location"]).content.decode()
    assert "The simulator is playing this run" in simulate_form(html)
    assert "The simulator is playing this run" not in top_messages(html)


def test_simulating_a_run_that_ended_meanwhile_is_refused_in_the_run_section(
    client_for, run, staff
):
    Run.objects.filter(pk=run.pk).update(state="released")
    client = client_for(staff)
    response = client.post(reverse("run_simulate", args=[run.job_id]))
    assert response.status_code == 302 and response["Location"].endswith("#run-section")
    html = client.get(response["Location"]).content.decode()
    section = html[html.index('id="run-section"') : html.index('id="run-live"')]
    assert "This run is over: nothing to simulate." in section
    assert "nothing to simulate" not in top_messages(html)
