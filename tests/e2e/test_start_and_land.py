"""Issue 31, item 9: a partner on a phone logs in and lands on their jobs, where each run's
phase is in view without scrolling sideways, then starts a job from scratch with a button and
its name. axe on every page."""

import pytest

from jobs.models import JobDescription
from tests.findings.helpers import accepted_job

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_land_on_jobs_see_the_phase_at_360_then_start_from_scratch(
    new_page, team_a, a_member, staff, log_in_by_email
):
    job = accepted_job(team_a, a_member, staff)
    watcher = new_page(width=360)
    page = watcher.page
    log_in_by_email(watcher, a_member.email)
    assert page.url.endswith("/jobs/")
    watcher.check_accessibility()
    row = page.get_by_role("row").filter(has=page.get_by_role("link", name=str(job)))
    phase = row.locator(".phase-strip").first
    phase.wait_for()
    box = phase.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.evaluate("document.querySelector('.table-wrap').scrollWidth") <= page.evaluate(
        "document.querySelector('.table-wrap').clientWidth"
    )

    page.get_by_role("link", name="Describe a new job").click()
    page.wait_for_url("**/jobs/new/")
    watcher.check_accessibility()
    assert page.get_by_label("File format").count() == 1  # only in the import's own form
    page.get_by_label("Job name").fill("masks v8")
    page.get_by_role("button", name="Start from scratch").click()
    page.wait_for_url("**/edit/work/")
    watcher.check_accessibility()
    draft = JobDescription.objects.exclude(pk=job.pk).get()
    assert draft.name == "masks v8"
    assert watcher.errors == []
