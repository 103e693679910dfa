"""A partner drafts a job from scratch through every step with the keyboard, fixes a
vague field after the hint, submits, is asked to clarify, revises, and is accepted."""

import re

import pytest

from jobs.models import JobDescription, JobStatus
from tests.e2e.keyboard import choose, continue_to, press, type_into

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_draft_submit_clarify_revise_accept(new_page, team_a, a_member, staff, log_in):
    partner = new_page()
    log_in(partner, a_member)
    page = partner.page
    page.goto("/jobs/")
    partner.check_accessibility()
    page.get_by_role("link", name="Describe a new job").focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/jobs/new/")
    partner.check_accessibility()
    press(page, "Start from scratch")
    page.wait_for_url("**/edit/work/")
    partner.check_accessibility()

    type_into(page, "f-name", "masks-v7")
    choose(page, "f-work-kind", "footage_processing")
    type_into(page, "f-work-summary", "Re-segment the first-quarter footage with model v7.")
    type_into(page, "f-work-image", "ghcr.io/northwind/segmenter:7.2.1")
    type_into(page, "f-work-command", "python segment.py --shard $SHARD_INDEX")
    choose(page, "f-work-shape", "shards")
    type_into(page, "f-work-shards", "480")
    type_into(page, "f-work-amount", "12000 video-hours")
    choose(page, "f-realtime-finishes-on-its-own", "true")
    choose(page, "f-realtime-serves-requests", "false")
    continue_to(partner, "data")

    press(page, "Add input")
    page.locator("#f-data-inputs-0-name:focus").wait_for()  # focus moves into the new input
    type_into(page, "f-data-inputs-0-name", "footage")
    type_into(page, "f-data-inputs-0-location", "s3://northwind-footage/2027-q1/")
    type_into(page, "f-data-inputs-0-size", "about 2 TB")
    hint = page.locator("#f-data-inputs-0-size-issues")
    hint.get_by_text("approximate number").wait_for()  # the hint arrives while typing
    type_into(page, "f-data-inputs-0-size", "2.5 TiB")
    hint.locator(".issue").first.wait_for(state="detached")  # and leaves once it is exact
    type_into(page, "f-data-inputs-0-objects", "48000")
    type_into(page, "f-data-inputs-0-format", "MP4 (H.264)")
    choose(page, "f-data-inputs-0-access", "copy_before_start")
    choose(page, "f-data-inputs-0-read-only", "true")
    type_into(page, "f-data-inputs-0-region", "eu-west-1")
    type_into(page, "f-data-scratch", "3 TiB")
    choose(page, "f-data-stage-before-rent", "true")
    partner.check_accessibility()
    continue_to(partner, "request")

    press(page, "Add accelerator")
    page.locator("#f-request-accelerators-0-type").wait_for()
    type_into(page, "f-request-accelerators-0-type", "L40S")
    type_into(page, "f-request-accelerators-0-count", "4")
    for field_id, text in [
        ("f-request-nodes", "8"), ("f-request-min-nodes", "2"), ("f-request-cpus-per-node", "64"),
        ("f-request-memory-per-node", "512 GiB"), ("f-request-estimate", "36h"), ("f-request-maximum", "48h"),
        ("f-request-earliest-start", "2027-03-01T09:00Z"), ("f-request-deadline", "2027-03-05T09:00Z"),
        ("f-request-checkpoint-interval", "30 min"), ("f-request-checkpoint-location", "s3://ckpt/"),
        ("f-request-retries", "2"), ("f-request-expected-accelerator-hours", "1200"),
    ]:  # fmt: skip
        type_into(page, field_id, text)
    choose(page, "f-request-on-deadline-missed", "deliver_partial")
    choose(page, "f-request-less-compute", "run_longer")
    choose(page, "f-request-preemptible", "true")
    continue_to(partner, "output")

    press(page, "Add artifact")
    page.locator("#f-output-artifacts-0-format").wait_for()
    type_into(page, "f-output-artifacts-0-name", "masks")
    type_into(page, "f-output-artifacts-0-format", "Parquet, one file per video")
    type_into(page, "f-output-artifacts-0-size", "300 GB")
    type_into(page, "f-output-artifacts-0-destination", "s3://northwind-masks/v7/")
    choose(page, "f-output-delivery", "on_exit_and_eviction")
    choose(page, "f-output-partial-useful", "true")
    type_into(page, "f-output-downstream", "The labelling tool reads one Parquet file per video.")
    type_into(page, "f-output-retention", "7d")
    continue_to(partner, "review")

    page.get_by_text("No issues: the description is complete and exact.").wait_for()
    press(page, "Submit revision 1 for review")
    page.wait_for_url(re.compile(r"/jobs/\d+/$"))
    partner.check_accessibility()
    job = JobDescription.objects.get()
    assert job.status == JobStatus.IN_REVIEW

    reviewer = new_page()
    log_in(reviewer, staff)
    reviewer.page.goto(f"/jobs/{job.pk}/")
    reviewer.check_accessibility()
    reviewer.page.locator("#outcome-clarify").check()
    reviewer.page.locator(
        ".clarify-fields summary", has_text="Data"
    ).click()  # open the part's list
    reviewer.page.get_by_label("Data › Input 1 › Size").check()
    reviewer.page.locator("#review-note").fill("Is 2.5 TiB before or after compression?")
    press(reviewer.page, "Record the review")
    reviewer.page.get_by_text("The review was recorded").wait_for()

    page.goto(f"/jobs/{job.pk}/edit/data/")
    page.get_by_text("Staff asked you to clarify").wait_for()
    assert page.locator("#f-data-inputs-0-size-wrap.clarify").count() == 1
    partner.check_accessibility()
    type_into(page, "f-data-inputs-0-size", "2.75 TiB")
    continue_to(partner, "request")
    page.goto(f"/jobs/{job.pk}/edit/review/")
    press(page, "Submit revision 2 for review")
    page.wait_for_url(re.compile(r"/jobs/\d+/$"))
    page.get_by_role("link", name="Revision 2").click()
    page.get_by_text("2.75 TiB").wait_for()
    partner.check_accessibility()

    reviewer.page.goto(f"/jobs/{job.pk}/")
    reviewer.page.locator("#outcome-accepted").check()
    press(reviewer.page, "Record the review")
    reviewer.page.get_by_text("The review was recorded").wait_for()
    job.refresh_from_db()
    assert job.status == JobStatus.ACCEPTED
    assert partner.errors == [] and reviewer.errors == []
