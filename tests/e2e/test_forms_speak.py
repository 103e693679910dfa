"""A new partner's first draft: a checklist instead of a wall of errors, numbers typed as
people type them, and validation that follows each fix without a page load."""

import re

import pytest

from jobs import services
from jobs.models import JobDescription
from tests.e2e.keyboard import type_into

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_blank_draft_checklist_and_live_validation(new_page, team_a, a_member, log_in):
    draft = services.create_draft(team=team_a, user=a_member)
    watcher = new_page()
    log_in(watcher, a_member)
    page = watcher.page
    page.goto(f"/jobs/{draft.pk}/edit/request/")
    page.get_by_text(re.compile(r"Still to fill in on this step: \d+")).wait_for()
    assert page.locator("[aria-invalid=true]").count() == 0
    assert page.locator("#step-badges .badge-error").count() == 0
    watcher.check_accessibility()

    hours = page.get_by_label("Expected accelerator-hours")
    type_into(page, hours.get_attribute("id"), "about 2300")
    issues = page.locator("#f-request-expected-accelerator-hours-issues")
    issues.get_by_text("approximate number").wait_for()
    page.locator("#f-request-expected-accelerator-hours[aria-invalid=true]").wait_for()
    badge = page.locator("#step-badges li.current .badge-error")
    badge.wait_for()  # the step's badge follows without a page load
    assert "Input should" not in issues.inner_text()

    type_into(page, hours.get_attribute("id"), "2,304")
    issues.locator(".issue-error").wait_for(state="detached")
    page.locator("#f-request-expected-accelerator-hours:not([aria-invalid])").wait_for()
    assert "has-error" not in (
        page.locator("#f-request-expected-accelerator-hours-wrap").get_attribute("class")
    )
    badge.wait_for(state="detached")
    job = JobDescription.objects.get(pk=draft.pk)
    assert job.data["request"]["expected_accelerator_hours"] == "2,304"  # kept as typed

    # Leaving an empty field judges it: its gap becomes an error on it.
    page.locator("#f-request-nodes").focus()
    page.keyboard.press("Tab")
    page.locator("#f-request-nodes[aria-invalid=true]").wait_for()
    page.reload()
    assert page.locator("#f-request-expected-accelerator-hours").input_value() == "2,304"
    watcher.check_accessibility()
    assert watcher.errors == []
