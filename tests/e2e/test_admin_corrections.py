"""Issue 31, item 11: staff correct and audit in the Django admin. The index spells
"Dispatches" and lists the history (revisions, runs, events, reviews, comments); a job's
status refused outside the table of moves, with the reason by the field; a revision's frozen
description read as indented JSON."""

import re

import pytest

from jobs import services
from jobs.models import JobDescription, JobStatus, Revision
from tests.findings.helpers import accepted_job

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_audit_and_correct_a_job_in_the_admin(new_page, team_a, a_member, staff, log_in):
    job = accepted_job(team_a, a_member, staff, play=False)
    draft = services.create_draft(team=team_a, user=a_member)
    watcher = new_page()
    log_in(watcher, staff)
    page = watcher.page
    page.goto("/admin/")
    for name in ("Dispatches", "Revisions", "Runs", "Events", "Reviews", "Comments"):
        assert page.get_by_role("link", name=name, exact=True).count() == 1, name
    assert page.get_by_text("Dispatchs").count() == 0
    watcher.check_accessibility()

    page.goto(f"/admin/jobs/jobdescription/{draft.pk}/change/")
    page.get_by_label("Status:", exact=True).select_option(JobStatus.ACCEPTED)
    page.get_by_role("button", name="Save", exact=True).click()
    page.get_by_text(re.compile("cannot become accepted")).wait_for()
    assert JobDescription.objects.get(pk=draft.pk).status == JobStatus.DRAFT
    watcher.check_accessibility()

    revision = Revision.objects.get(job=job)
    page.goto(f"/admin/jobs/revision/{revision.pk}/change/")
    frozen = page.locator("pre.admin-json").first
    assert frozen.inner_text().startswith("{\n  ")
    assert page.get_by_role("button", name="Save", exact=True).count() == 0
    watcher.check_accessibility()
    # On a phone the frozen JSON scrolls sideways: a keyboard reaches it (axe's scrollable rule).
    page.set_viewport_size({"width": 360, "height": 780})
    page.reload()
    watcher.check_accessibility()
    assert watcher.errors == []
