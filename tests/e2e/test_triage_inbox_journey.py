"""Issue 31, item 10: staff open the triage queue on what waits (an addressed finding a filter
away), see a possible duplicate on a finding and merge it with one button, then read the
insights in labels with whole chart labels. axe on every page, one at 360 px."""

import re

import pytest

from findings import services
from findings.insights.services import recompute
from findings.models import FindingStatus, UnsolvedProblem
from tests.findings.helpers import file

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_inbox_then_merge_a_possible_duplicate_then_insights(
    new_page, team_a, a_member, staff, log_in
):
    problem, _ = UnsolvedProblem.objects.get_or_create(
        slug="getting-data-to-compute",
        defaults={"title": "Getting data to compute", "summary": "Staging.", "published": True},
    )
    older = file(team_a, a_member, title="Staging stalled overnight")
    newer = file(team_a, a_member, title="Staging stalled again")
    recompute()  # the insights as they were before anything was triaged or addressed
    done = file(team_a, a_member, title="Quota page was wrong")
    for status in ("triaged", "accepted", "addressed"):
        services.change_status(finding=done, actor=staff, to_status=status, problems=[problem])

    watcher = new_page()
    log_in(watcher, staff)
    page = watcher.page
    page.goto("/staff/findings/")
    watcher.check_accessibility()
    results = page.get_by_role("table", name="Findings matching the filters")
    assert results.get_by_role("link", name=re.compile("Staging stalled again")).is_visible()
    assert results.get_by_role("link", name=re.compile("Quota page was wrong")).count() == 0
    status = page.get_by_role("search", name="Filter findings").get_by_label("Status")
    assert status.input_value() == "waiting"
    status.select_option(label="Addressed")
    results.get_by_role("link", name=re.compile("Quota page was wrong")).wait_for()
    watcher.check_accessibility()

    page.goto(f"/staff/findings/{newer.pk}/")
    duplicates = page.get_by_role("region", name="Possible duplicates")
    assert duplicates.get_by_role("link", name=re.compile("Staging stalled overnight")).is_visible()
    watcher.check_accessibility()
    duplicates.get_by_role("button", name=f"Merge into #{older.pk}").click()
    page.get_by_text(f"Merged into #{older.pk}: its evidence").wait_for()
    newer.refresh_from_db()
    assert newer.status == FindingStatus.DUPLICATE and newer.duplicate_of_id == older.pk

    page.set_viewport_size({"width": 360, "height": 780})
    page.goto("/staff/insights/")
    watcher.check_accessibility()
    main = page.locator("main").inner_text()
    assert "to address: no finding addressed yet" in main and "0.0 h" not in main
    assert not re.search(r"\b[a-z]+\.[a-z_]+\.(N|\d)\.", main)  # no data.inputs.N.size
    labels = page.locator(".chart-label").evaluate_all("els => els.map(e => e.textContent)")
    assert labels and not any(label.endswith("…") for label in labels)
    assert watcher.errors == []
