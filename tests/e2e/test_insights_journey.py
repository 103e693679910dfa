"""Staff read what the program has learned from the demo history (fields hard to declare, how
far runs were from their declarations, findings per problem, the real-time screen), hide one
public figure of a problem, and the public page follows. A partner reads the declared-vs-observed
panel of a run with real gaps. axe on every page; the insights page also at 360 px."""

import importlib
import re

import pytest
from django.apps import apps

from findings.demo import load_findings
from findings.insights.demo import load_program_history
from jobs.demo import load_jobs
from jobs.models import JobDescription
from portal.demo import DEMO_PASSWORD
from portal.management.commands.load_demo import Command

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# The published problems come from a data migration; a transactional test before this one
# may have flushed them, so they are published again here the same way.
PUBLISH = importlib.import_module("findings.migrations.0002_publish_problems").publish


def demo():
    PUBLISH(apps, None)
    teams, users = Command().load_accounts()
    load_jobs(teams=teams, users=users)
    load_findings(teams=teams, users=users)
    load_program_history(teams=teams, users=users)
    return teams, users


def log_in(watcher, email):
    page = watcher.page
    page.goto("/accounts/login/")
    page.get_by_label("E-mail address").fill(email)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"^http://[^/]+/(jobs/)?$"))


def test_staff_read_the_insights_and_hide_a_public_figure(new_page):
    demo()
    desk = new_page(width=360)
    log_in(desk, "staff@e31.example")
    page = desk.page
    page.get_by_role("link", name="What the program has learned").click()
    page.get_by_role("heading", name="What the program has learned", level=1).wait_for()
    desk.check_accessibility()

    fields = page.get_by_role("table", name="Per field, over every job description")
    estimate = fields.get_by_role("row", name=re.compile(r"^Request › Estimate"))
    # The field by its label alone: no internal key (request.estimate) beside it.
    assert re.search(r"^Request › Estimate\s+\d+\s+\d+ \(\d+ %\)", estimate.inner_text())
    chart = page.get_by_role(
        "img", name="Share of job descriptions with the field flagged at first submission"
    )
    assert "Request › Estimate" in chart.locator("desc").text_content()
    assert page.get_by_role("row", name=re.compile("“as usual”")).count() == 1

    page.get_by_role("heading", name="How wrong declarations turn out").wait_for()
    staging = page.get_by_role("img", name=re.compile(r"^Staging time: runs by"))
    assert re.search(r"2× and more: \d", staging.locator("desc").text_content())
    kinds = page.get_by_role("table", name="Per work kind: medians of observed ÷ declared")
    assert kinds.get_by_role("row", name=re.compile(r"^training")).count() == 1
    assert "Northwind" not in page.locator("main").inner_text()
    assert "Tidewater" not in page.locator("main").inner_text()

    screen = page.get_by_text("Flagged as real-time by the screen")
    assert screen.count() == 1

    # The public figures of one problem: hide one, and the public page no longer shows it.
    page.get_by_role("link", name="Public figures of this problem").nth(1).click()
    page.get_by_role("heading", name=re.compile("^Public figures: Getting data")).wait_for()
    desk.check_accessibility()
    row = page.get_by_role("row", name=re.compile(r"^Staging time against the declared data size"))
    assert "Shown" in row.inner_text()
    row.get_by_role("button", name=re.compile("^Hide")).click()
    page.get_by_text("The figure is hidden from the public page.").wait_for()
    assert (
        "Hidden by staff"
        in page.get_by_role("row", name=re.compile(r"^Staging time against")).inner_text()
    )

    public = new_page()
    public.page.goto("/problems/getting-data-to-compute/")
    public.check_accessibility()
    main = public.page.locator("main").inner_text()
    assert "The figures so far" in main and "Data staged against declared" in main
    assert "Staging time against the declared data size" not in main
    assert "data up to" in main
    assert "Tidewater" not in main and "Northwind" not in main
    assert desk.errors == [] and public.errors == []


def test_a_partner_reads_declared_and_observed_with_a_gap(new_page):
    demo()
    job = JobDescription.objects.get(name="masks-v7-2027q1")
    partner = new_page()
    log_in(partner, "ada@northwind.example")
    page = partner.page
    page.goto(f"/jobs/{job.pk}/")
    page.get_by_role("heading", name="Declared and observed").wait_for()
    partner.check_accessibility()
    table = page.get_by_role("table", name="Each declared figure against what was observed")
    for label in ("Running time", "Data staged", "Staging time", "Accelerator-hours held",
                  "Output delivered", "Restarts", "Deadline", "Nodes"):  # fmt: skip
        assert table.get_by_role("row", name=re.compile(f"^{label}")).count() == 1, label
    staging = table.get_by_role("row", name=re.compile(r"^Staging time"))
    assert re.search(r"\d\.\d\d×", staging.inner_text())
    assert "implies" in staging.inner_text()
    gap_links = page.get_by_role("link", name=re.compile(r"^File an? "))
    if gap_links.count():
        gap_links.first.click()
        page.wait_for_url(re.compile(r"/findings/new/\?job="))
        partner.check_accessibility()
    assert partner.errors == []
