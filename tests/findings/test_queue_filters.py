"""The triage queue's lists of teams, problems and staff: a team added or renamed, a problem
added, a person made staff or no longer active shows on the next visit, the selection marked."""

import re

import pytest
from django.urls import reverse

from findings.models import UnsolvedProblem
from portal.models import Team
from tests.findings.helpers import file

pytestmark = pytest.mark.django_db

URL = reverse("staff_finding_queue")


def _select(page, select_id):
    return re.search(rf'<select[^>]*id="{select_id}"[^>]*>(.*?)</select>', page, re.S).group(1)


def _page(client, **params):
    return client.get(URL, params).content.decode()


def test_a_team_added_or_renamed_since_shows_in_the_filter(client_for, staff, team_a, a_member):
    file(team_a, a_member, title="Queue stalls")
    client = client_for(staff)
    assert "Team A" in _select(_page(client), "id_team")
    added = Team.objects.create(name="Zeta & Co", slug="zeta")
    team_a.name = "Alpha Renamed"
    team_a.save()
    options = _select(_page(client), "id_team")
    assert f'<option value="{added.pk}">Zeta &amp; Co</option>' in options
    assert "Alpha Renamed" in options and "Team A" not in options
    # The search, which matches team names from the same list, finds the new name too.
    assert "Queue stalls" in _page(client, q="renamed")


def test_a_problem_added_since_shows_in_the_filter_and_the_bulk_form(client_for, staff):
    client = client_for(staff)
    _page(client)
    problem = UnsolvedProblem.objects.create(title="Quotas <unclear>", slug="quotas", summary="s")
    page = _page(client)
    option = f'<option value="{problem.pk}">Quotas &lt;unclear&gt;</option>'
    assert option in _select(page, "id_problem")
    assert option in _select(page, "bulk-problem")


def test_staff_made_or_gone_show_in_both_staff_lists(client_for, staff, make_user):
    client = client_for(staff)
    _page(client)
    newcomer = make_user("newcomer@e31.example", staff=True)
    page = _page(client)
    assert f'<option value="{newcomer.pk}">newcomer</option>' in _select(page, "id_assignee")
    assert f'<option value="{newcomer.pk}">newcomer</option>' in _select(page, "bulk-assignee")
    newcomer.is_active = False
    newcomer.save()
    page = _page(client)
    assert "newcomer" not in _select(page, "id_assignee")
    assert "newcomer" not in _select(page, "bulk-assignee")


def test_the_options_mark_the_selection_in_the_filter_and_the_bulk_form(
    client_for, staff, team_a, team_b
):
    client = client_for(staff)
    _page(client)
    page = _page(client, team=team_b.pk, assignee=staff.pk)
    assert f'<option value="{team_b.pk}" selected>Team B</option>' in _select(page, "id_team")
    assert '<option value="" selected>Any team</option>' not in _select(page, "id_team")
    assert f'<option value="{staff.pk}" selected>staff</option>' in _select(page, "id_assignee")
    # The bulk form selects the person looking.
    assert f'<option value="{staff.pk}" selected>staff</option>' in _select(page, "bulk-assignee")
    assert '<option value="" selected>Any team</option>' in _select(_page(client), "id_team")


def test_a_query_naming_a_team_made_since_filters_by_it(client_for, staff, team_a, a_member):
    file(team_a, a_member, title="Filed by team A")
    client = client_for(staff)
    # No team 4242: the form refuses the query and the queue shows every finding.
    assert "Filed by team A" in _page(client, team=4242)
    Team.objects.create(pk=4242, name="Newcomers", slug="newcomers")
    page = _page(client, team=4242)
    assert "Filed by team A" not in page and "No finding matches." in page
    assert '<option value="4242" selected>Newcomers</option>' in _select(page, "id_team")
