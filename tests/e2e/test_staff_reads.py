"""Staff journeys: the program at a glance, one page to read a revision and decide, a
triage inbox driven by single keys that moves on to the next finding, and the queue narrowed
to a team typed into its labelled box."""

import re

import pytest

from findings.models import Finding, FindingStatus, UnsolvedProblem
from jobs import jobformat, services
from jobs.models import JobStatus
from tests.findings.helpers import file

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_glance_then_read_a_revision_and_decide_on_one_page(
    new_page, team_a, a_member, staff, log_in
):
    job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    services.submit(job=job, user=a_member)
    services.add_comment(job=job, author=a_member, body="The size is compressed.")
    watcher = new_page()
    log_in(watcher, staff)
    page = watcher.page
    page.get_by_role("link", name=re.compile("1 description waiting for review")).click()
    page.wait_for_url("**/staff/reviews/**")
    page.get_by_role("link", name="Read revision 1 and decide").click()
    page.wait_for_url(f"**/jobs/{job.pk}/revisions/1/")
    page.get_by_role("heading", name="The description").wait_for()
    assert page.get_by_text("What changed since").count() == 0
    page.get_by_text("The size is compressed.").wait_for()
    watcher.check_accessibility()
    page.get_by_label("Accept: the job enters the lifecycle").check()
    page.get_by_role("button", name="Record the review").click()
    page.get_by_text("The review was recorded").wait_for()
    job.refresh_from_db()
    assert job.status == JobStatus.ACCEPTED
    watcher.page.set_viewport_size({"width": 360, "height": 780})
    page.goto(f"/jobs/{job.pk}/revisions/1/")
    watcher.check_accessibility()
    assert watcher.errors == []


def test_triage_with_single_keys_then_the_next_finding(new_page, team_a, a_member, staff, log_in):
    UnsolvedProblem.objects.get_or_create(  # a flushed database lost the migration's rows
        slug="getting-data-to-compute",
        defaults={"title": "Getting data to compute", "summary": "Staging.", "published": True},
    )
    first = file(team_a, a_member, title="Staging took four hours")
    second = file(team_a, a_member, title="Output landed in the wrong bucket")
    watcher = new_page()
    log_in(watcher, staff)
    page = watcher.page
    page.goto(f"/staff/findings/{first.pk}/")
    # The finding and its evidence come first; the decision is beside it.
    page.get_by_role("heading", name="Description").wait_for()
    watcher.check_accessibility()
    page.locator("body").press("r")  # a single key, no modifier: the answer box
    page.locator("#answer:focus").wait_for()
    page.keyboard.type("Thanks: this is evidence for getting data to compute.")
    page.get_by_label("Getting data to compute").check()
    page.locator("#answer").blur()
    page.locator("body").press("t")  # focuses the triage button
    focused = page.evaluate("document.activeElement.textContent")
    assert focused.startswith("Triage")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/staff/findings/{second.pk}/")
    page.get_by_text(f"#{first.pk} is now triaged").wait_for()
    assert Finding.objects.get(pk=first.pk).status == FindingStatus.TRIAGED
    assert (
        UnsolvedProblem.objects.get(slug="getting-data-to-compute")
        .findings.filter(pk=first.pk)
        .exists()
    )
    watcher.check_accessibility()
    assert watcher.errors == []


def test_triage_by_a_team_typed_into_its_labelled_box(
    new_page, team_a, team_b, a_member, b_member, staff, log_in
):
    file(team_a, a_member, title="Filed by A")
    file(team_b, b_member, title="Filed by B")
    watcher = new_page()
    log_in(watcher, staff)
    page = watcher.page
    page.goto("/staff/findings/")
    page.get_by_role("link", name=re.compile("Filed by A")).wait_for()
    # By its label and the keyboard alone: part of the name, the queue follows as one types.
    page.get_by_label("Team", exact=True).focus()
    page.keyboard.type("team b")
    page.get_by_text("Findings of Team B.").wait_for()
    assert page.get_by_role("link", name=re.compile("Filed by A")).count() == 0
    page.get_by_role("link", name=re.compile("Filed by B")).wait_for()
    assert "team=team%20b" in page.url
    watcher.check_accessibility()
    # The address it left names the team again on a new visit.
    page.goto(page.url)
    assert page.get_by_label("Team", exact=True).input_value() == "team b"
    page.get_by_text("Findings of Team B.").wait_for()
    assert watcher.errors == []
