"""A finding's pages: a fixed number of queries a visit, every write shown at once, and
neither page shows the other's parts."""

import pytest
from django.urls import reverse

from findings import services
from findings.models import EvidenceSnapshot, FindingStatus, NoteVisibility, UnsolvedProblem
from tests.findings.helpers import file

pytestmark = pytest.mark.django_db


@pytest.fixture
def finding(team_a, a_member):
    return file(team_a, a_member, title="Staging stalls")


def partner_page(client, finding):
    return client.get(reverse("finding_detail", args=[finding.pk])).content.decode()


def staff_page(client, finding):
    return client.get(reverse("staff_finding_detail", args=[finding.pk])).content.decode()


def test_the_partner_page_reads_a_fixed_number_of_queries(
    client_for, finding, a_member, staff, django_assert_num_queries
):
    client = client_for(a_member)
    partner_page(client, finding)
    # Session, user, memberships, the finding with what it names and whether the user
    # follows it, its history, notes, evidence and problems.
    with django_assert_num_queries(8) as first:
        partner_page(client, finding)
    for i in range(3):
        services.add_note(
            finding=finding, author=staff, visibility=NoteVisibility.RESPONSE, body=f"R{i}"
        )
    with django_assert_num_queries(len(first)):
        partner_page(client, finding)


def test_a_response_and_a_status_change_show_at_once(client_for, finding, a_member, staff):
    client = client_for(a_member)
    assert "No response yet." in partner_page(client, finding)
    services.add_note(
        finding=finding, author=staff, visibility=NoteVisibility.RESPONSE, body="We look at it."
    )
    page = partner_page(client, finding)
    assert "We look at it." in page and "No response yet." not in page
    problem = UnsolvedProblem.objects.get(slug="getting-data-to-compute")
    services.change_status(
        finding=finding, actor=staff, to_status=FindingStatus.TRIAGED, note="", problems=[problem]
    )
    page = partner_page(client, finding)
    assert "Triaged" in page and problem.title in page


def test_an_internal_note_shows_to_staff_at_once_and_never_to_the_partner(
    client_for, finding, a_member, staff
):
    partner = client_for(a_member)
    partner_page(partner, finding)
    staff_client = client_for(staff)
    staff_page(staff_client, finding)
    services.add_note(
        finding=finding, author=staff, visibility=NoteVisibility.INTERNAL, body="Ask the site."
    )
    assert "Ask the site." in staff_page(staff_client, finding)
    assert "Ask the site." not in partner_page(client_for(a_member), finding)
    # Staff reading the partner's page see what the partner sees.
    assert "Ask the site." not in partner_page(client_for(staff), finding)


def test_a_renamed_job_follower_and_author_show_at_once(client_for, finding, a_member, staff):
    services.add_note(
        finding=finding, author=a_member, visibility=NoteVisibility.PARTNER, body="More."
    )
    client = client_for(staff)
    assert "Renamed Member" not in staff_page(client, finding)
    a_member.full_name = "Renamed Member"
    a_member.save(update_fields=["full_name"])
    page = staff_page(client, finding)
    assert "by Renamed Member" in page  # the note's author
    assert "<li>Renamed Member" in page  # the follower (the filer follows what they file)


def test_a_merged_duplicate_shows_on_its_target_at_once(client_for, team_a, finding, staff):
    client = client_for(staff)
    other = file(team_a, finding.filed_by, title="Staging stalls again")
    merged = f'Duplicates merged into it: <a href="/staff/findings/{other.pk}/">'
    assert merged not in staff_page(client, finding)
    services.merge(source=other, target=finding, actor=staff)
    assert merged in staff_page(client, finding)


def test_the_staff_page_reads_a_fixed_number_of_queries(
    client_for, finding, staff, django_assert_num_queries
):
    client = client_for(staff)
    staff_page(client, finding)
    # Session, user, the finding with what it names and the next one waiting, memberships,
    # its rows (history, notes, evidence, problems, duplicates, followers), the rows its
    # forms list (every problem, the staff), the findings that may be duplicates of it.
    with django_assert_num_queries(13) as first:
        staff_page(client, finding)
    for i in range(3):
        services.add_note(
            finding=finding, author=staff, visibility=NoteVisibility.INTERNAL, body=f"N{i}"
        )
    with django_assert_num_queries(len(first)):
        staff_page(client, finding)


def test_the_staff_page_forms_show_new_staff_problems_and_names_at_once(
    client_for, team_a, finding, staff, make_user
):
    client = client_for(staff)
    page = staff_page(client, finding)
    assert "Team A · " in page and "assigned to nobody" in page
    UnsolvedProblem.objects.create(title="Cold caches", slug="cold-caches", summary="s")
    newcomer = make_user("newcomer@e31.example", staff=True)
    page = staff_page(client, finding)
    assert "Cold caches</label>" in page and f'<option value="{newcomer.pk}">newcomer<' in page
    services.assign(findings=[finding], assignee=newcomer, actor=staff)
    page = staff_page(client, finding)
    assert "assigned to newcomer" in page
    assert f'<option value="{newcomer.pk}" selected>newcomer<' in page
    newcomer.full_name = "Nora Newcomer"
    newcomer.save(update_fields=["full_name"])
    team_a.name = "Team Alpha"
    team_a.save(update_fields=["name"])
    page = staff_page(client, finding)
    assert "assigned to Nora Newcomer" in page and "Team Alpha · " in page
    assert f'<option value="{newcomer.pk}" selected>Nora Newcomer<' in page
    newcomer.is_active = False
    newcomer.save(update_fields=["is_active"])
    assert f'<option value="{newcomer.pk}"' not in staff_page(client, finding)


def test_the_staff_page_lists_linked_problems_at_once(client_for, finding, staff):
    client = client_for(staff)
    problem = UnsolvedProblem.objects.get(slug="getting-data-to-compute")
    unlink = f"/staff/findings/{finding.pk}/problems/{problem.pk}/unlink/"
    assert unlink not in staff_page(client, finding)
    services.change_status(
        finding=finding, actor=staff, to_status=FindingStatus.TRIAGED, note="", problems=[problem]
    )
    assert unlink in staff_page(client, finding)
    services.unlink_problem(finding=finding, problem=problem, actor=staff)
    assert unlink not in staff_page(client, finding)


def test_the_staff_page_links_the_oldest_other_finding_waiting(
    client_for, team_a, a_member, finding, staff
):
    client = client_for(staff)
    later = file(team_a, a_member, title="Later")
    assert f'<a href="/staff/findings/{later.pk}/" data-key="j">Next waiting: #{later.pk}</a>' in (
        staff_page(client, finding)
    )
    assert f"Next waiting: #{finding.pk}</a>" in staff_page(client, later)
    services.change_status(
        finding=finding, actor=staff, to_status=FindingStatus.DECLINED, note="Not ours."
    )
    assert "Next waiting" not in staff_page(client, later)


def test_the_assign_form_lists_active_staff_by_name_else_e_mail(
    client_for, finding, staff, make_user
):
    nameless = make_user("nameless@e31.example", staff=True)
    nameless.full_name = ""  # shows as its e-mail
    nameless.save(update_fields=["full_name"])
    page = staff_page(client_for(staff), finding)
    assert f'<option value="{nameless.pk}">nameless@e31.example</option>' in page


def test_form_fields_are_blank_and_a_refused_form_as_sent(client_for, finding, staff):
    client = client_for(staff)
    problem = UnsolvedProblem.objects.get(slug="getting-data-to-compute")
    page = staff_page(client, finding)
    assert page.count('name="problems"') == UnsolvedProblem.objects.count()
    assert " checked" not in page and 'name="target"' in page
    # Refused (a stale version): the page again, with what was sent.
    sent = {"to_status": "triaged", "problems": [problem.pk], "version": finding.version + 5}
    response = client.post(f"/staff/findings/{finding.pk}/status/", sent)
    assert response.status_code == 400
    ticked = [li for li in response.content.decode().split("<li>") if " checked" in li]
    assert len(ticked) == 1 and f'value="{problem.pk}"' in ticked[0]
    response = client.post(f"/staff/findings/{finding.pk}/merge/", {"version": finding.version})
    assert response.status_code == 400 and 'id="id_target_error"' in response.content.decode()
    assert " checked" not in staff_page(client, finding)


def test_the_evidence_prints_held_time_as_the_job_page_does(client_for, finding, a_member):
    # 0.35 h is 21 minutes: the job page says "21 min", and so must the evidence it froze.
    EvidenceSnapshot.objects.create(
        finding=finding,
        job_name="train-llama",
        run_state="finished",
        ledger={
            "unit": "accelerator-hours",
            "requested_hours": 256.0,
            "expected_hours": 128.0,
            "held_hours": 131.2,
            "gap_hours": 3.2,
            "phases": {"running": 130.85, "idle_tail": 0.35},
        },
    )
    page = partner_page(client_for(a_member), finding)
    assert "Held: idle tail</th><td>21 min</td>" in page
    assert "Held: running</th><td>130.8 h</td>" in page
    assert "<strong>131.2 h</strong> (+3.2 h against expected)" in page
    assert "256.0 h" in page and "128.0 h" in page
    assert "0.3</td>" not in page


def test_the_history_names_who_moved_the_finding_staff_or_partner(
    client_for, finding, a_member, staff
):
    # Each change by the person who made it, as the job page's history and the answers name
    # people (full name, else e-mail), not "staff" for everyone on the E31 side.
    staff.full_name = "Sam Okafor"
    staff.save(update_fields=["full_name"])
    a_member.full_name = "Ada <b>Lovelace</b>"
    a_member.save(update_fields=["full_name"])
    problem = UnsolvedProblem.objects.get(slug="getting-data-to-compute")
    services.change_status(
        finding=finding, actor=staff, to_status=FindingStatus.TRIAGED, problems=[problem]
    )
    for client, read in ((client_for(a_member), partner_page), (client_for(staff), staff_page)):
        html = read(client, finding)
        history = html[html.index('id="history-h"') :]
        history = history[: history.index("</ol>")]
        assert "by Ada &lt;b&gt;Lovelace&lt;/b&gt;</span>" in history  # filed it
        assert "by Sam Okafor</span>" in history and "by staff" not in history
