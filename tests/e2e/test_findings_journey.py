"""A partner files an accounting finding from their job (pre-filled, evidence frozen); staff
triage it in the queue to a problem with a response; the partner reads the response; the
public problem page's count goes up and names no team. axe on every page, one at 360 px."""

import re

import pytest

from findings.models import Finding, UnsolvedProblem
from tests.findings.helpers import accepted_job

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def visit(watcher, url):
    watcher.page.goto(url)
    watcher.check_accessibility()


def count_on(watcher, slug):
    visit(watcher, f"/problems/{slug}/")
    main = watcher.page.locator("main").inner_text()
    assert "Team A" not in main and "A Corp" not in main
    return int(watcher.page.locator(".problem-counts dd").first.inner_text())


def test_file_from_a_job_then_triage_to_a_problem(new_page, team_a, a_member, staff, log_in):
    job = accepted_job(team_a, a_member, staff)
    slug = "getting-data-to-compute"
    # A transactional test that ran before in this worker flushed the migration's rows.
    UnsolvedProblem.objects.get_or_create(
        slug=slug,
        defaults={"title": "Getting data to compute", "summary": "Staging.", "published": True},
    )
    public = new_page(width=360)
    assert count_on(public, slug) == 0
    visit(public, "/problems/")

    partner = new_page()
    log_in(partner, a_member)
    page = partner.page
    visit(partner, f"/findings/new/?job={job.pk}&kind=accounting_mismatch")
    assert page.locator("#id_job").input_value() == str(job.pk)
    # The figures as the evidence's ledger writes them (one decimal), not 1379.816.
    held_text = page.get_by_label("Accelerator-hours the network held").input_value()
    assert re.fullmatch(r"\d+\.\d", held_text), held_text
    held = float(held_text)
    assert held > 0
    assert f"{held:,.1f}" in page.locator(".evidence").inner_text()
    assert page.get_by_text("Will be frozen").is_visible()
    # The phase prefilled is where held and expected differ most, as the evidence reads:
    # the run against what was expected, any other phase by all it held.
    evidence = page.locator(".evidence").inner_text()
    # Held time reads as the job page writes it: "1,376.8 h", "21 min", "40 s".
    per_hour = {"h": 1, "min": 60, "s": 3600}
    hours = lambda value, unit: float(value.replace(",", "")) / per_hour[unit]  # noqa: E731
    figure = r"([\d,.]+) (h|min|s)\b"
    expected = hours(*re.search(rf"Expected\t{figure}", evidence).groups())
    gaps = {
        phase: abs(hours(value, unit) - expected) if phase == "running" else hours(value, unit)
        for phase, value, unit in re.findall(rf"Held: ([a-z ]+)\t{figure}", evidence)
    }
    assert gaps, evidence
    phase = page.get_by_label("The phase where they differ")
    assert phase.locator("option:checked").inner_text().lower() == max(gaps, key=gaps.get)
    page.locator("#id_impact_1").check()
    page.locator("#id_summary").fill("We expected fewer hours held while staging.")
    page.get_by_role("button", name="File the finding").click()
    page.wait_for_url(re.compile(r"/findings/\d+/$"))
    partner.check_accessibility()
    finding = Finding.objects.get()
    assert finding.evidence.count() == 1
    assert page.get_by_role("heading", name="Evidence (read-only)").is_visible()
    assert f"{held:,.1f}" in page.locator(".evidence").inner_text()  # 1,376.8
    assert f"{held:,.1f}" in page.locator(".finding-facts").inner_text()

    staff.full_name = "Sam Okafor"
    staff.save(update_fields=["full_name"])
    desk = new_page()
    log_in(desk, staff)
    visit(desk, "/staff/findings/?status=new")
    desk.page.get_by_role("link", name=re.compile(rf"#{finding.pk} ")).click()
    desk.page.wait_for_url(f"**/staff/findings/{finding.pk}/")
    desk.check_accessibility()
    problem = UnsolvedProblem.objects.get(slug=slug)
    desk.page.get_by_label(problem.title).check()
    desk.page.get_by_label("Answer to the partner").fill(
        "Evidence for **getting data to compute**."
    )
    desk.page.get_by_role("button", name="Triage: link to the ticked problems").click()
    # The only finding waiting: the queue opens, saying what happened.
    desk.page.get_by_text(f"#{finding.pk} is now triaged").wait_for()
    desk.check_accessibility()
    visit(desk, f"/staff/findings/{finding.pk}/")
    assert "Triaged" in desk.page.locator(".finding-facts").inner_text()
    desk.page.get_by_label("Answer to the partner").fill("Thank you: this is now on the list.")
    desk.page.get_by_role("button", name="Send the answer only").click()
    desk.page.get_by_text("Response sent to the partner.").wait_for()
    desk.check_accessibility()

    visit(partner, "/findings/")
    assert "Sam Okafor: Thank you: this is now on the list." in page.locator("main").inner_text()
    assert "is now triaged" in page.locator(".notices").inner_text()
    # The answer sent with the move is a response: where the partner looks, by name, rendered.
    page.get_by_role("link", name=re.compile(rf"#{finding.pk} ")).click()
    partner.check_accessibility()
    responses = page.get_by_role("region", name="Responses and information")
    assert "No response yet" not in responses.inner_text()
    assert responses.get_by_text("Answer from Sam Okafor").count() == 2
    assert responses.locator("strong", has_text="getting data to compute").is_visible()
    history = page.get_by_role("region", name="History").inner_text()
    assert "getting data to compute" not in history

    assert count_on(public, slug) == 1
    for watcher in (public, partner, desk):
        assert watcher.errors == []
