"""The triage queue's count of matching findings is kept per filter set (findings/queue_count.py)
and is right on the next visit after any committed write of a finding or of its links: filed,
moved, assigned in the admin, deleted, linked to a problem. The reset waits for the commit, so a
count of the rows as they were before it is never kept past it."""

import re

import pytest
from django.db import connection
from django.http import QueryDict
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from findings import queue_choices, services
from findings.models import Finding, FindingKind, FindingStatus, Impact, UnsolvedProblem
from tests.findings.helpers import file

pytestmark = pytest.mark.django_db

URL = reverse("staff_finding_queue")


def _shown(client, query=""):
    """The count the queue says ("3 findings"), and whether the visit counted the findings."""
    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"{URL}?{query}").content.decode()
    counted = any("COUNT(" in q["sql"].upper() for q in queries.captured_queries)
    return re.search(r'role="status">(.*?)(?:, \d+ on this page)?\.</p>', page).group(1), counted


@pytest.fixture
def problem(db):
    return UnsolvedProblem.objects.create(slug="quotas", title="Quotas", summary="s")


def test_the_count_is_kept_and_right_after_each_committed_write(
    client_for, team_a, a_member, staff, problem, django_capture_on_commit_callbacks
):
    first = file(team_a, a_member, title="One")
    client = client_for(staff)
    assert _shown(client, "status=new") == ("1 finding", True)
    assert _shown(client, "status=new") == ("1 finding", False)  # kept
    with django_capture_on_commit_callbacks(execute=True):
        second = file(team_a, a_member, title="Two")
    assert _shown(client, "status=new") == ("2 findings", True)
    with django_capture_on_commit_callbacks(execute=True):
        services.change_status(
            finding=first, actor=staff, to_status=FindingStatus.TRIAGED, problems=[problem]
        )
    assert _shown(client, "status=new") == ("1 finding", True)
    assert _shown(client, f"problem={problem.pk}") == ("1 finding", True)
    with django_capture_on_commit_callbacks(execute=True):
        services.link_problems(findings=[second], problems=[problem], actor=staff)
    assert _shown(client, f"problem={problem.pk}") == ("2 findings", True)
    with django_capture_on_commit_callbacks(execute=True):
        services.unlink_problem(finding=second, problem=problem, actor=staff)
    assert _shown(client, f"problem={problem.pk}") == ("1 finding", True)
    # A link made from the problem's side saves no finding: the links' own signal resets.
    with django_capture_on_commit_callbacks(execute=True):
        problem.findings.add(second)
    assert _shown(client, f"problem={problem.pk}") == ("2 findings", True)
    with django_capture_on_commit_callbacks(execute=True):
        problem.findings.clear()
    assert _shown(client, f"problem={problem.pk}") == ("0 findings", True)
    with django_capture_on_commit_callbacks(execute=True):
        Finding.objects.get(pk=second.pk).delete()
    assert _shown(client, "status=new") == ("0 findings", True)
    assert _shown(client) == ("1 finding", True)


def test_an_admin_save_or_delete_shows_in_the_count(
    client_for, team_a, a_member, staff, problem, django_capture_on_commit_callbacks
):
    finding = file(team_a, a_member, title="Admin edits it")
    client = client_for(staff)
    assert _shown(client, "unassigned=on") == ("1 finding", True)
    assert _shown(client, f"problem={problem.pk}") == ("0 findings", True)
    change = reverse("admin:findings_finding_change", args=[finding.pk])
    form = {
        "title": finding.title,
        "summary": finding.summary,
        "impact": finding.impact,
        "problems": [problem.pk],
        "proposed_problem": "",
        "assignee": staff.pk,
    }
    # The admin's inlines are read-only: their management forms say there is nothing to add.
    for prefix in ("changes", "notes", "evidence", "subscriptions"):
        form.update({f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0})
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(change, form)
    assert response.status_code == 302, response.content.decode()[:2000]
    finding.refresh_from_db()
    assert finding.assignee == staff and list(finding.problems.all()) == [problem]
    assert _shown(client, "unassigned=on") == ("0 findings", True)
    assert _shown(client, f"problem={problem.pk}") == ("1 finding", True)
    delete = reverse("admin:findings_finding_delete", args=[finding.pk])
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(delete, {"post": "yes"}).status_code == 302
    assert _shown(client) == ("0 findings", True)


def test_a_count_made_before_the_commit_is_not_kept_past_it(
    client_for, team_a, a_member, staff, django_capture_on_commit_callbacks
):
    file(team_a, a_member, title="Already there")
    client = client_for(staff)
    assert _shown(client) == ("1 finding", True)
    params = QueryDict("")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        new = file(team_a, a_member, title="Being filed")
        # No reset before the commit: another visit now, which cannot see the new row yet,
        # counts the rows as they were and keeps that count.
        visit = queue_choices.Kept(params)
        before = Finding.objects.exclude(pk=new.pk)
        assert visit.count(before, {}) == 1
    assert callbacks  # the reset waits for the commit
    assert _shown(client) == ("1 finding", False)  # what a visit before the commit reads
    for callback in callbacks:
        callback()  # the commit
    assert _shown(client) == ("2 findings", True)
    # A visit that read the cache before the commit and counted before it, keeping its count
    # after the commit's reset, keeps it under the generation the reset retired.
    visit = queue_choices.Kept(params)
    with django_capture_on_commit_callbacks(execute=True):
        late = file(team_a, a_member, title="Filed while a visit counted")
    assert visit.count(Finding.objects.exclude(pk=late.pk), {}) == 2
    assert _shown(client) == ("3 findings", True)


def test_each_filter_set_keeps_its_own_count(client_for, team_a, team_b, a_member, b_member, staff):
    file(team_a, a_member, title="A1")
    file(team_a, a_member, title="A2", kind=FindingKind.SCHEDULING)
    file(team_b, b_member, title="B1")
    client = client_for(staff)
    sets = {
        f"team={team_a.pk}": "2 findings",
        f"team={team_b.pk}": "1 finding",
        f"team={team_a.pk}&kind={FindingKind.SCHEDULING}": "1 finding",
        "q=A1": "1 finding",
        "": "3 findings",
    }
    for query, count in sets.items():
        assert _shown(client, query) == (count, True)
    for query, count in sets.items():
        assert _shown(client, query) == (count, False)
        # Sorted or paged otherwise, the same findings match: the same kept count.
        assert _shown(client, f"{query}&sort=oldest") == (count, False)
    # A sort the form refuses drops every filter: it is the count of all, not the team's.
    assert _shown(client, f"team={team_a.pk}&sort=sideways") == ("3 findings", True)
    assert _shown(client, f"team={team_a.pk}") == ("2 findings", True)


def test_the_age_filter_is_counted_on_every_visit(client_for, team_a, a_member, staff):
    file(team_a, a_member)
    client = client_for(staff)
    assert _shown(client, "age=1") == ("0 findings", True)
    assert _shown(client, "age=1") == ("0 findings", True)  # the clock moves it: not kept


def test_a_count_past_the_bound_says_findings(client_for, team_a, a_member, staff):
    Finding.objects.bulk_create(
        Finding(
            team=team_a,
            filed_by=a_member,
            kind=FindingKind.OTHER,
            impact=Impact.COSTS_TIME,
            title=f"Bulk {i}",
            summary="s",
        )
        for i in range(1001)
    )
    assert _shown(client_for(staff)) == ("1,000+ findings", True)
