"""Triage as an inbox: the finding first, moves said as verbs, one place to answer the
partner, straight on to the next finding after a move, single-key shortcuts."""

import pytest
from django.urls import reverse

from findings import services
from findings.models import FindingNote, FindingStatus, NoteVisibility, UnsolvedProblem
from tests.findings.helpers import file

pytestmark = pytest.mark.django_db


@pytest.fixture
def problem(db):
    return UnsolvedProblem.objects.get(slug="getting-data-to-compute")


def test_the_finding_comes_before_the_actions_and_moves_are_verbs(
    client_for, team_a, a_member, staff
):
    finding = file(team_a, a_member, title="Staging took longer than the run")
    page = (
        client_for(staff).get(reverse("staff_finding_detail", args=[finding.pk])).content.decode()
    )
    assert page.index("The private description of what happened.") < page.index("Decide and answer")
    assert "Triage: link to the ticked problems" in page and "Decline…" in page
    assert 'data-key="t"' in page and 'data-key="r"' in page and "accesskey" not in page
    assert page.count('id="answer"') == 1  # one place to answer the partner
    assert "Note or response" not in page


def test_after_a_move_the_next_waiting_finding_opens(client_for, team_a, a_member, staff, problem):
    first = file(team_a, a_member, title="First")
    second = file(team_a, a_member, title="Second")
    response = client_for(staff).post(
        reverse("staff_finding_status", args=[first.pk]),
        {
            "to_status": "triaged",
            "problems": [problem.pk],
            "version": first.version,
            "note": "Thanks: this is the staging problem.",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("staff_finding_detail", args=[second.pk])
    first.refresh_from_db()
    assert first.status == FindingStatus.TRIAGED


def test_the_last_move_goes_back_to_the_queue(client_for, team_a, a_member, staff):
    only = file(team_a, a_member)
    response = client_for(staff).post(
        reverse("staff_finding_status", args=[only.pk]),
        {"to_status": "declined", "version": only.version, "note": "Not a network problem."},
    )
    assert response["Location"] == reverse("staff_finding_queue")


def test_send_the_answer_only_is_a_response_the_partner_reads(client_for, team_a, a_member, staff):
    finding = file(team_a, a_member)
    client_for(staff).post(
        reverse("staff_finding_note", args=[finding.pk]),
        {"note": "Which bucket was it?", "visibility": "response", "version": finding.version},
    )
    note = FindingNote.objects.get(finding=finding)
    assert note.visibility == NoteVisibility.RESPONSE and note.body == "Which bucket was it?"
    finding.refresh_from_db()
    assert finding.status == FindingStatus.NEW


def test_published_problems_do_not_claim_nothing_comes_from_findings(client):
    for problem in UnsolvedProblem.objects.filter(published=True):
        page = client.get(reverse("problem_detail", args=[problem.slug])).content.decode()
        assert "nothing here comes from findings" not in page
        assert "What the findings linked here teach us" in page


def test_the_queue_opens_on_what_waits_and_the_rest_is_a_filter_away(
    client_for, team_a, a_member, staff, problem
):
    waiting = file(team_a, a_member, title="Still waiting")
    addressed = file(team_a, a_member, title="Already addressed")
    for status in ("triaged", "accepted", "addressed"):
        services.change_status(finding=addressed, actor=staff, to_status=status, problems=[problem])
    client = client_for(staff)
    for query in ("", "?after=", "?after=zzz"):  # the opening, and a later page of it
        page = client.get(reverse("staff_finding_queue") + query).content.decode()
        assert "Still waiting" in page and "Already addressed" not in page, query
    assert '<option value="waiting" selected>' in page
    page = client.get(reverse("staff_finding_queue"), {"status": "addressed"}).content.decode()
    assert "Already addressed" in page and "Still waiting" not in page
    page = client.get(reverse("staff_finding_queue"), {"status": ""}).content.decode()
    assert "Already addressed" in page and "Still waiting" in page
    assert waiting.pk
