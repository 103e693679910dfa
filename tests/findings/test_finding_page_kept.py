"""A finding's pages keep what they show of its rows rendered (PostgreSQL) until one of those
rows changes: every write shows at once, and neither page shows the other's parts."""

import pytest
from django.db import connection
from django.urls import reverse

from findings import services
from findings.models import FindingStatus, NoteVisibility, UnsolvedProblem
from tests.findings.helpers import file

pytestmark = pytest.mark.django_db

KEPT = connection.vendor == "postgresql"  # elsewhere nothing is kept: the same page each time


@pytest.fixture
def finding(team_a, a_member):
    return file(team_a, a_member, title="Staging stalls")


def partner_page(client, finding):
    return client.get(reverse("finding_detail", args=[finding.pk])).content.decode()


def staff_page(client, finding):
    return client.get(reverse("staff_finding_detail", args=[finding.pk])).content.decode()


def test_the_partner_page_reads_less_once_kept(
    client_for, finding, a_member, django_assert_num_queries
):
    client = client_for(a_member)
    partner_page(client, finding)
    # Session, user, memberships, the finding (with whether the user follows it), the stamp;
    # not its history, notes, evidence and problems.
    with django_assert_num_queries(5 if KEPT else 8):
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
