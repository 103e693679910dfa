"""Issue 31, item 5: a partner on the work step reads help in the form's words, and sees the
fields of the shape they choose (shards, chain) appear and go as they change it, with no
script and nothing typed lost. axe on each state, one at 360 px."""

import time

import pytest

from jobs import services
from jobs.models import JobDescription

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_shape_fields_follow_the_chosen_shape(new_page, team_a, a_member, log_in):
    draft = services.create_draft(team=team_a, user=a_member)
    watcher = new_page(width=360)
    log_in(watcher, a_member)
    page = watcher.page
    page.goto(f"/jobs/{draft.pk}/edit/work/")
    shards = page.get_by_label("Shards", exact=True)
    chain = page.get_by_label("Runs in the chain")
    assert not shards.is_visible() and not chain.is_visible()
    help_text = page.locator("#f-work-kind-help").inner_text()
    assert "Example: batch inference" in help_text and "batch_inference" not in help_text
    watcher.check_accessibility()

    page.get_by_label("Shape").select_option("shards")
    shards.wait_for()
    assert not chain.is_visible()
    assert "only with shape" not in page.locator("#f-work-shards-help").inner_text()
    shards.fill("480")
    watcher.check_accessibility()

    page.get_by_label("Shape").select_option("chain")
    chain.wait_for()
    _saved(draft, lambda work: work.get("shape") == "chain" and work.get("shards") == 480)
    page.reload()
    # The shards typed before the shape changed are kept, and shown while they hold a value.
    assert page.get_by_label("Shards", exact=True).input_value() == "480"
    watcher.check_accessibility()
    assert watcher.errors == []


def _saved(draft, test, seconds=10):
    """Wait for the draft's autosave to have stored what the test expects."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        work = JobDescription.objects.get(pk=draft.pk).data.get("work") or {}
        if test(work):
            return
        time.sleep(0.1)
    raise AssertionError(f"not saved: {work}")
