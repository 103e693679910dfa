"""From an sbatch script to a released run: the import shows each value it read with its
line and says what the script does not (its console log is not an output), the original
script stays readable on the job page, withdrawing from review asks first, the ledger of an accepted job that has not run shows
no negative hours, and the job's header says "Released" once the run is."""

import re

import pytest

from jobs import jobformat, services
from jobs.models import JobDescription, JobStatus
from jobs.runs import simulator
from tests.e2e.keyboard import press

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCRIPT = """#!/bin/bash
#SBATCH --job-name=masks-v7
#SBATCH --nodes=8
#SBATCH --gres=gpu:l40s:4
#SBATCH --time=48:00:00
#SBATCH --output=logs/%x-%j.out
#SBATCH --error=logs/%x-%j.err
srun python segment.py --shard $SLURM_PROCID
"""
PARTS = ("work", "data", "request", "output", "realtime")
NEGATIVE = re.compile(r"(?:^|\s)[-−]\s?\d")


def test_import_a_script_withdraw_once_then_watch_it_released(
    new_page, team_a, a_member, staff, log_in
):
    partner = new_page()
    log_in(partner, a_member)
    page = partner.page
    page.goto("/jobs/new/")
    page.get_by_label("…or paste its text").fill(SCRIPT)
    press(page, "Create the draft from the file")
    page.wait_for_url("**/imported/")
    filled = page.get_by_role("region", name=re.compile("Filled from the file"))
    filled.get_by_text("--output logs/%x-%j.out: the job's console log").wait_for()
    filled.get_by_text("--error logs/%x-%j.err: the job's error messages").wait_for()
    filled.get_by_text(re.compile("^Output not declared")).wait_for()
    # Each value read, with the line of the script it was read from.
    nodes = filled.locator(".imported-values > div").filter(
        has=page.get_by_text("Request › Nodes", exact=True)
    )
    assert nodes.locator("dd").inner_text().startswith("8")
    nodes.get_by_text("line 3: #SBATCH --nodes=8").wait_for()
    left = page.get_by_role("region", name="Left to declare")
    left.get_by_role("link", name=re.compile(r"^Output › Artifacts")).wait_for()
    assert "job log" not in page.content()
    partner.check_accessibility()

    # The guided steps are the job journey's: complete the rest here.
    job = JobDescription.objects.get()
    example = jobformat.example_data()
    services.save_draft(
        job=job, user=a_member, parts={p: example[p] for p in PARTS}, version=job.version
    )

    page.goto(f"/jobs/{job.pk}/")
    source = page.locator("details.imported-source")
    source.get_by_text(re.compile("The imported file")).click()
    script = source.locator("pre")
    script.wait_for()  # shown once opened
    assert script.inner_text().strip() == SCRIPT.strip()
    partner.check_accessibility()

    page.goto(f"/jobs/{job.pk}/edit/review/")
    press(page, "Submit revision 1 for review")
    page.wait_for_url(f"**/jobs/{job.pk}/")

    # Withdrawing asks first; "No" keeps it in review.
    page.get_by_role("button", name="Withdraw from review to revise…").click()
    page.get_by_role("heading", name="Withdraw masks-v7 from review?").wait_for()
    partner.check_accessibility()
    page.get_by_role("link", name="No, keep it in review").click()
    page.wait_for_url(f"**/jobs/{job.pk}/")
    job.refresh_from_db()
    assert job.status == JobStatus.IN_REVIEW
    page.get_by_role("button", name="Withdraw from review to revise…").click()
    page.get_by_role("button", name="Yes, withdraw it from review").click()
    page.wait_for_url(f"**/jobs/{job.pk}/edit/work/")  # straight to revising it
    page.get_by_text("Withdrawn from review").wait_for()
    job.refresh_from_db()
    assert job.status == JobStatus.DRAFT

    page.goto(f"/jobs/{job.pk}/edit/review/")
    press(page, "Submit revision 2 for review")
    page.wait_for_url(f"**/jobs/{job.pk}/")
    services.review(revision=job.revisions.get(number=2), reviewer=staff, outcome="accepted")

    # Accepted, not run yet: nothing held, and no line of the ledger below zero.
    page.goto(f"/jobs/{job.pk}/")
    ledger = page.locator("#run-section table").first
    ledger.wait_for()
    texts = ledger.locator("td").all_text_contents()
    texts += page.locator("svg.ledger .chart-value").all_text_contents()
    assert not [t for t in texts if NEGATIVE.search(t)], texts
    partner.check_accessibility()

    job.refresh_from_db()
    simulator.play_now(job.run)
    page.reload()
    heading = page.get_by_role("heading", level=1)
    assert "Released" in heading.inner_text()
    partner.check_accessibility()
    page.set_viewport_size({"width": 360, "height": 780})
    page.reload()
    partner.check_accessibility()
    assert partner.errors == []
