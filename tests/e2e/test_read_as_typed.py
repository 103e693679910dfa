"""Issue 31 item 8 and issue 29 in a phone's width: a partner of one team imports a file with
no team to choose and reads each value as the file wrote it, with its line; then downloads a
revision's sbatch scripts written for a registered cluster. axe on each page, no sideways scroll."""

from pathlib import Path

import pytest

from jobs import jobformat, services
from jobs.runs import dispatch

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NATIVE = """\
name: as-typed
request:
  estimate: 48h
  maximum: 48:00:00
  deadline: 2027-03-31
"""


def fits_360(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_import_reads_as_written_at_360(new_page, team_a, a_member, log_in):
    watcher = new_page(width=360)
    page = watcher.page
    log_in(watcher, a_member)
    page.goto("/jobs/new/")
    assert page.get_by_label("Team").count() == 0  # one team: nothing to choose
    page.get_by_label("…or paste its text").fill(NATIVE)
    page.get_by_role("button", name="Create the draft from the file").click()
    page.wait_for_url("**/imported/")
    values = page.locator(".imported-values")
    maximum = values.locator("div").filter(has_text="Maximum")
    assert (
        "48:00:00" in maximum.inner_text() and "line 4: maximum: 48:00:00" in maximum.inner_text()
    )
    deadline = values.locator("div").filter(has_text="Deadline").first.inner_text()
    assert "31 March 2027" in deadline and "line 5: deadline: 2027-03-31" in deadline
    assert "2d" not in values.inner_text().split() and "T00:00Z" not in values.inner_text()
    fits_360(page)
    watcher.check_accessibility()
    assert watcher.errors == []


def test_sbatch_scripts_for_a_registered_cluster_at_360(new_page, team_a, a_member, log_in):
    dispatch.create_cluster(name="Tigris", partition="gpu", accelerator_map={"L40S": "gpu:l40s"})
    job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    revision = services.submit(job=job, user=a_member)
    watcher = new_page(width=360)
    page = watcher.page
    log_in(watcher, a_member)
    page.goto(f"/jobs/{job.pk}/revisions/{revision.number}/")
    page.get_by_label("Write the sbatch scripts for").select_option(label="Tigris (partition gpu)")
    fits_360(page)
    watcher.check_accessibility()
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the sbatch scripts").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert "#SBATCH --partition=gpu" in text and "#SBATCH --gres=gpu:l40s:4" in text
    assert download.value.suggested_filename.endswith("-sbatch-tigris.txt")
    assert watcher.errors == []
