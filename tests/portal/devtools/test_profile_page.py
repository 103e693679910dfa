"""`profile_page` times a staff page as staff: the session it logs in has passed the second step
(staff pages answer anyone else a redirect to it)."""

from io import StringIO

import pytest
from django.core.management import call_command

from tests.findings.helpers import file

pytestmark = pytest.mark.django_db


def test_a_staff_page_is_timed_for_a_staff_member(team_a, a_member, staff):
    finding = file(team_a, a_member, title="Staging stalled overnight")
    out = StringIO()

    call_command(
        "profile_page",
        f"/staff/findings/{finding.pk}/",
        "--as",
        staff.email,
        "--requests",
        "2",
        "--warm-up",
        "1",
        "--sql",
        stdout=out,
    )

    report = out.getvalue()
    assert f"/staff/findings/{finding.pk}/ as {staff.email}: 2 requests," in report
    assert '"findings_finding"' in report
