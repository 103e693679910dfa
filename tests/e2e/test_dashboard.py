"""A partner's dashboard: what needs them first, and each run's phase as a picture."""

import pytest

from jobs import jobformat, services
from jobs.runs import simulator

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_needs_action_first_and_phase_strips(new_page, team_a, a_member, staff, log_in):
    asked = services.create_draft(
        team=team_a, user=a_member, data={**jobformat.example_data(), "name": "asked"}
    )
    revision = services.submit(job=asked, user=a_member)
    services.review(
        revision=revision,
        reviewer=staff,
        outcome="clarify",
        fields=["data.inputs.0.size"],
        note="?",
    )
    done = services.create_draft(
        team=team_a, user=a_member, data={**jobformat.example_data(), "name": "done"}
    )
    revision = services.submit(job=done, user=a_member)
    services.review(revision=revision, reviewer=staff, outcome="accepted")
    done.refresh_from_db()
    simulator.play_now(done.run)

    for width in (1280, 360):
        watcher = new_page(width=width)
        log_in(watcher, a_member)
        page = watcher.page
        page.goto("/jobs/")
        actions = page.get_by_role("region", name="Needs your action")
        actions.get_by_text("staff asked you to clarify fields").wait_for()
        strip = page.get_by_role(
            "img", name="Submit done, Rent done, Run done, Output done, Release done"
        )
        assert strip.count() == 1
        watcher.check_accessibility()
        assert watcher.errors == []
    actions.get_by_role("link", name="asked").click()
    page.wait_for_url(f"**/jobs/{asked.pk}/edit/work/")
