"""Tables and charts at every width: no word broken in the middle at 1280 px ("Addre ssed"),
and the ledger's chart labels still readable at 360 px."""

import pytest

from jobs import jobformat, services
from jobs.runs import services as run_services
from jobs.runs import simulator
from tests.findings.helpers import file
from tests.portal.intake.intake_helpers import make_window

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Words of table cells laid out on more than one line: a word broken mid-way.
BROKEN_WORDS = """() => {
  const broken = [];
  for (const cell of document.querySelectorAll("main td, main th")) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /[A-Za-z]{4,}/g;
      let m;
      while ((m = re.exec(node.textContent))) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""


def test_no_word_is_broken_in_tables_at_1280(new_page, team_a, a_member, staff, log_in):
    # Long titles take the room: short columns ("Assignee", "Addressed") must still keep
    # their words whole.
    for i in range(3):
        file(
            team_a,
            a_member,
            title=f"Finding {i}: staging from the regional bucket took four times longer than "
            "the run itself, and the ledger counted the wait as held accelerator time",
        )
    watcher = new_page(width=1280)
    log_in(watcher, staff)
    for path in ("/staff/findings/", "/jobs/", "/staff/reviews/"):
        watcher.page.goto(path)
        assert watcher.page.evaluate(BROKEN_WORDS) == [], path


def test_ledger_chart_labels_are_readable_at_360(new_page, team_a, a_member, staff, log_in):
    job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    revision = services.submit(job=job, user=a_member)
    services.review(revision=revision, reviewer=staff, outcome="accepted")
    job.refresh_from_db()
    simulator.play_now(job.run)
    watcher = new_page(width=360)
    log_in(watcher, a_member)
    watcher.page.goto(f"/jobs/{job.pk}/")
    heights = watcher.page.eval_on_selector_all(
        "svg.ledger .chart-label, svg.ledger .chart-value",
        "els => els.map((e) => e.getBoundingClientRect().height)",
    )
    assert heights and min(heights) >= 9, heights  # px on screen, not in the viewBox
    assert watcher.page.evaluate(BROKEN_WORDS) == []
    watcher.check_accessibility()


def test_staff_tables_with_hidden_link_text_fit_360(new_page, staff, log_in):
    # "Review" and "Revoke" carry text for screen readers (.visually-hidden, absolute): it
    # must scroll with its table, not widen the page past the phone's width.
    make_window()
    run_services.create_client(name="a scheduler with a rather long name, eu-west-1")
    watcher = new_page(width=360)
    log_in(watcher, staff)
    for path in ("/staff/intake/", "/staff/scheduler-clients/"):
        watcher.page.goto(path)
        assert watcher.page.evaluate("document.documentElement.scrollWidth") <= 360, path
