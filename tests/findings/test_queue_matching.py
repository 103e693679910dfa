"""The triage queue's count of matching findings is right on the next visit after any write of a
finding or of its links: filed, moved, assigned in the admin, deleted, linked to a problem; each
filter set counts its own, and a count stops at the bound."""

import re

import pytest
from django.urls import reverse

from findings import services
from findings.models import Finding, FindingKind, FindingStatus, Impact, UnsolvedProblem
from tests.findings.helpers import file

pytestmark = pytest.mark.django_db

URL = reverse("staff_finding_queue")


def _shown(client, query=""):
    """The count the queue says ("3 findings"), after the teams a Team filter found."""
    page = client.get(f"{URL}?{query}").content.decode()
    return re.search(
        r'role="status">(?:<span class="teams-found">.*?</span> )?(.*?)(?:, \d+ on this page)?\.</p>',
        page,
    ).group(1)


@pytest.fixture
def problem(db):
    return UnsolvedProblem.objects.create(slug="quotas", title="Quotas", summary="s")


def test_the_count_is_right_after_each_write(client_for, team_a, a_member, staff, problem):
    first = file(team_a, a_member, title="One")
    client = client_for(staff)
    assert _shown(client, "status=new") == "1 finding"
    second = file(team_a, a_member, title="Two")
    assert _shown(client, "status=new") == "2 findings"
    services.change_status(
        finding=first, actor=staff, to_status=FindingStatus.TRIAGED, problems=[problem]
    )
    assert _shown(client, "status=new") == "1 finding"
    assert _shown(client, f"problem={problem.pk}") == "1 finding"
    services.link_problems(findings=[second], problems=[problem], actor=staff)
    assert _shown(client, f"problem={problem.pk}") == "2 findings"
    services.unlink_problem(finding=second, problem=problem, actor=staff)
    assert _shown(client, f"problem={problem.pk}") == "1 finding"
    # A link made from the problem's side saves no finding.
    problem.findings.add(second)
    assert _shown(client, f"problem={problem.pk}") == "2 findings"
    problem.findings.clear()
    assert _shown(client, f"problem={problem.pk}") == "0 findings"
    Finding.objects.get(pk=second.pk).delete()
    assert _shown(client, "status=new") == "0 findings"
    assert _shown(client, "status=") == "1 finding"
    assert _shown(client) == "0 findings"  # the queue opens on what waits: nothing does


def test_an_admin_save_or_delete_shows_in_the_count(client_for, team_a, a_member, staff, problem):
    finding = file(team_a, a_member, title="Admin edits it")
    client = client_for(staff)
    assert _shown(client, "unassigned=on") == "1 finding"
    assert _shown(client, f"problem={problem.pk}") == "0 findings"
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
    response = client.post(change, form)
    assert response.status_code == 302, response.content.decode()[:2000]
    finding.refresh_from_db()
    assert finding.assignee == staff and list(finding.problems.all()) == [problem]
    assert _shown(client, "unassigned=on") == "0 findings"
    assert _shown(client, f"problem={problem.pk}") == "1 finding"
    delete = reverse("admin:findings_finding_delete", args=[finding.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 302
    assert _shown(client) == "0 findings"


def test_each_filter_set_has_its_own_count(client_for, team_a, team_b, a_member, b_member, staff):
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
        assert _shown(client, query) == count
        # Sorted otherwise, the same findings match: the same count.
        assert _shown(client, f"{query}&sort=oldest") == count
    # A sort the form refuses drops every filter: it is the count of all, not the team's.
    assert _shown(client, f"team={team_a.pk}&sort=sideways") == "3 findings"
    assert _shown(client, f"team={team_a.pk}") == "2 findings"


def test_the_age_filter_counts_findings_older_than_it(client_for, team_a, a_member, staff):
    file(team_a, a_member)
    client = client_for(staff)
    assert _shown(client, "age=1") == "0 findings"


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
    assert _shown(client_for(staff)) == "1,000+ findings"
