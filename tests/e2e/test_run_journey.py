"""A partner watches a simulated job go through every phase, live, and reads the ledger."""

import re
import threading

import pytest
from django.db import connection

from jobs import jobformat, services
from jobs.runs import simulator
from jobs.runs.models import Run

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_watch_a_simulated_run_and_read_the_ledger(new_page, team_a, a_member, staff, password):
    job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    revision = services.submit(job=job, user=a_member)
    services.review(revision=revision, reviewer=staff, outcome="accepted")
    run = Run.objects.select_related("revision").get(job=job)
    steps = simulator.plan(run)
    base = simulator.base_time(steps)
    seen = {state: threading.Event() for state in ("rented", "running", "output")}
    failures = []

    def network():
        # Plays the run through the scheduler's service path, waiting at each phase until
        # the page has shown it, so the test sees every phase whatever the machine's speed.
        try:
            for index, step in enumerate(steps):
                simulator.apply_step(run, steps, index, base)
                kind = step.data.get("kind") if step.kind == "event" else None
                if kind in seen and not seen[kind].wait(timeout=30):
                    failures.append(f"the page never showed {kind}")
                    return
        except Exception as error:  # noqa: BLE001 - reported by the test
            failures.append(repr(error))
        finally:
            connection.close()

    watcher = new_page()
    page = watcher.page
    page.goto("/accounts/login/")
    page.get_by_label("E-mail address").fill(a_member.email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"^http://[^/]+/(jobs/)?$"))
    page.goto(f"/jobs/{job.pk}/")
    page.get_by_role("heading", name=re.compile("On the network: submitted")).wait_for()
    watcher.check_accessibility()

    thread = threading.Thread(target=network)
    thread.start()
    for state in ("rented", "running", "output"):
        page.get_by_role("heading", name=re.compile(f"On the network: {state}")).wait_for(
            timeout=30_000
        )
        if state == "running":
            # Half way: what was held so far, never a gap against the whole run.
            so_far = page.get_by_role("row", name=re.compile("^Held so far"))
            assert re.search(r"held so far of the 1,200\.0 h expected", so_far.inner_text())
            assert not re.search(
                r"-[\d,.]+ h|\d×", page.locator("#run-live table").first.inner_text()
            )
        seen[state].set()
    page.get_by_role("heading", name=re.compile("On the network: released")).wait_for(
        timeout=30_000
    )
    thread.join(timeout=30)
    assert failures == []
    # The simulated run starts at its acceptance or later, never before (issue 31, item 2).
    first = run.events.order_by("occurred_at").first()
    assert first.occurred_at >= run.created_at  # the run is created at acceptance

    section = page.locator("#run-live")
    assert section.get_attribute("hx-trigger") is None  # polling stopped: the run is final
    assert "simulated" in section.inner_text()
    held = page.get_by_role("row", name=re.compile("Held in all"))
    assert re.search(r"\d+\.\d", held.inner_text())
    assert (
        page.locator("svg.ledger title").text_content().startswith("Requested, expected and held")
    )
    assert page.get_by_text(re.compile(r"held during staging: data staging took")).count() == 1

    # Declared next to observed: every figure with its ratio and a sentence, and a chart.
    page.get_by_role("heading", name="Declared and observed").wait_for()
    running = page.get_by_role("row", name=re.compile(r"^Running time"))
    assert re.search(r"36h\s.*\d+\.\d\d×", running.inner_text())
    assert "estimated" in running.inner_text()
    staged = page.get_by_role("row", name=re.compile(r"^Data staged"))
    assert "2.75 TB" in staged.inner_text() and "Staged" in staged.inner_text()
    nodes = page.get_by_role("row", name=re.compile(r"^Nodes"))
    assert re.search(r"Asked for 8 nodes, granted \d|Granted the 8 nodes", nodes.inner_text())
    assert page.get_by_text("Exit reason reported by the scheduler: completed").count() == 1
    chart = page.get_by_role("img", name="Observed as a multiple of declared")
    assert "Running time:" in chart.locator("desc").text_content()
    watcher.check_accessibility()
    assert watcher.errors == []
