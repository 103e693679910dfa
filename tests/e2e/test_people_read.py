"""A partner's changes read back in people's words: messages print values as typed and sizes
as people write them, and the revision page (its changes, the whole description and the
working copy's differences) shows labels and Yes/No, never paths, True or a dash."""

import re

import pytest

from jobs import jobformat, services
from tests.e2e.keyboard import choose, continue_to, press, type_into

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Words a person should never read where a description is shown back to them.
FILE_WORDS = re.compile(r"\bTrue\b|\bFalse\b|\bNone\b|\b[a-z]+_[a-z_]+\b|\b[a-z]+\.[a-z_]+\.\w+")


def asked_to_clarify(team, member, staff, number=1):
    job = services.create_draft(team=team, user=member, data=jobformat.example_data())
    revision = services.submit(job=job, user=member)
    services.review(
        revision=revision,
        reviewer=staff,
        outcome="clarify",
        fields=["data.stage_before_rent"],
        note="Can the data really be staged first?",
    )
    return job


def test_values_read_back_as_typed_and_in_peoples_words(new_page, team_a, a_member, staff, log_in):
    job = asked_to_clarify(team_a, a_member, staff)
    partner = new_page()
    log_in(partner, a_member)
    page = partner.page

    # Data: Yes becomes No; a number typed with a comma; a second input copied before start.
    page.goto(f"/jobs/{job.pk}/edit/data/")
    choose(page, "f-data-stage-before-rent", "false")
    type_into(page, "f-data-inputs-0-objects", "9,000")
    press(page, "Add input")
    page.locator("#f-data-inputs-1-name:focus").wait_for()
    for field_id, text in [
        ("f-data-inputs-1-name", "archive"), ("f-data-inputs-1-location", "s3://northwind-archive/"),
        ("f-data-inputs-1-size", "33.9 TiB"), ("f-data-inputs-1-objects", "12"),
        ("f-data-inputs-1-format", "tar"), ("f-data-inputs-1-region", "eu-west-1"),
    ]:  # fmt: skip
        type_into(page, field_id, text)
    choose(page, "f-data-inputs-1-access", "copy_before_start")
    choose(page, "f-data-inputs-1-read-only", "true")
    scratch = page.locator("#f-data-scratch-issues")
    # The sum is written as a person would, the sizes as they were typed.
    scratch.get_by_text("2.5 TiB + 33.9 TiB = 36.4 TiB is copied before start").wait_for()
    assert "KiB" not in scratch.inner_text() and "bytes" not in scratch.inner_text()
    partner.check_accessibility()
    type_into(page, "f-data-scratch", "40 TiB")
    scratch.locator(".issue-error").wait_for(state="detached")
    continue_to(partner, "request")

    # Request: durations and numbers in messages are the ones typed.
    type_into(page, "f-request-estimate", "48h")
    type_into(page, "f-request-deadline", "2027-03-02T09:00Z")
    estimate = page.locator("#f-request-estimate-issues")
    estimate.get_by_text(re.compile(r"The job runs 48h but the window")).wait_for()
    type_into(page, "f-request-deadline", "2027-03-05T09:00Z")
    estimate.locator(".issue-error").wait_for(state="detached")
    type_into(page, "f-request-expected-accelerator-hours", "2,000")
    hours = page.locator("#f-request-expected-accelerator-hours-issues")
    hours.get_by_text(
        re.compile(r"You expect 2,000 accelerator-hours but the request is 1,536")
    ).wait_for()
    type_into(page, "f-request-expected-accelerator-hours", "1,536")
    hours.locator(".issue").first.wait_for(state="detached")
    partner.check_accessibility()
    continue_to(partner, "output")
    continue_to(partner, "review")
    press(page, "Submit revision 2 for review")
    page.wait_for_url(f"**/jobs/{job.pk}/")

    # Revision 2: what changed, by label, then the whole description with values as typed.
    page.get_by_role("link", name="Revision 2").click()
    page.wait_for_url(f"**/jobs/{job.pk}/revisions/2/")
    changes = page.get_by_role("region", name="What changed since revision 1")
    assert "Data can be staged before compute is rented" in changes.inner_text()
    staged = page.locator(".read-fields .changed", has_text="Data can be staged before compute")
    assert re.search(r"\bNo\b.*changed from\s+Yes", staged.inner_text(), re.S)
    description = page.get_by_role("region", name="The whole description, changes marked")
    text = description.inner_text()
    for typed in ("9,000", "48h", "1,536", "33.9 TiB", "40 TiB"):
        assert typed in text, (typed, text)
    assert not FILE_WORDS.findall(text), FILE_WORDS.findall(text)
    assert "—" not in text  # an answer is never shown as a dash
    partner.check_accessibility()

    # Staff ask again; the partner changes an answer: the working copy's differences are
    # a table of labels and Yes/No too.
    services.review(
        revision=job.revisions.get(number=2),
        reviewer=staff,
        outcome="clarify",
        fields=["request.preemptible"],
        note="Can it be preempted?",
    )
    page.goto(f"/jobs/{job.pk}/edit/request/")
    choose(page, "f-request-preemptible", "false")
    continue_to(partner, "output")
    page.goto(f"/jobs/{job.pk}/revisions/2/")
    working = page.get_by_role("region", name="Changes in the working copy not yet submitted")
    row = working.get_by_role("row", name=re.compile("Preemptible"))
    cells = [c.strip() for c in row.locator("td").all_inner_texts()]
    assert [c.replace("before:", "").replace("after:", "").strip() for c in cells] == ["Yes", "No"]
    assert not FILE_WORDS.findall(working.inner_text())
    partner.check_accessibility()
    page.set_viewport_size({"width": 360, "height": 780})
    page.reload()
    partner.check_accessibility()
    assert partner.errors == []
