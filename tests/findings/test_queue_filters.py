"""The triage queue's filters: a team is named (by its name or part of it, or by the id
older links sent), never picked from a list of every team; a team added or renamed, a
problem added, a person made staff or no longer active shows on the next visit, the
selection marked."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from findings.models import UnsolvedProblem
from findings.selectors import TEAMS_LISTED
from portal.models import Team
from tests.findings.helpers import file

pytestmark = pytest.mark.django_db

URL = reverse("staff_finding_queue")


def _select(page, select_id):
    return re.search(rf'<select[^>]*id="{select_id}"[^>]*>(.*?)</select>', page, re.S).group(1)


def _page(client, **params):
    return client.get(URL, params).content.decode()


def _status(page):
    return re.search(r'<p class="muted" role="status">(.*?)</p>', page, re.S).group(1)


def _team_box(page):
    return re.search(r'<input[^>]*id="id_team"[^>]*>', page).group(0)


def test_the_team_filter_is_a_labelled_box_not_a_list_of_every_team(client_for, staff, team_a):
    client = client_for(staff)
    page = _page(client)
    assert '<label for="id_team">Team</label>' in page
    assert 'type="search"' in _team_box(page) and 'name="team"' in _team_box(page)
    assert '<select name="team"' not in page
    # More teams in the program: the page is as long (its nonce and tokens aside, as long).
    for i in range(40):
        Team.objects.create(name=f"Team {i:02}", slug=f"team-{i:02}")
    assert len(_page(client)) == len(page)
    assert "Team 07" not in _page(client)


def test_a_team_added_or_renamed_since_is_found_by_its_name(client_for, staff, team_a, a_member):
    file(team_a, a_member, title="Queue stalls")
    client = client_for(staff)
    assert "Queue stalls" in _page(client, team="team a")
    team_a.name = "Alpha Renamed"
    team_a.save()
    page = _page(client, team="renamed")
    assert "Queue stalls" in page and "Findings of Alpha Renamed." in _status(page)
    assert 'value="renamed"' in _team_box(page)
    page = _page(client, team="Team A")
    assert "Queue stalls" not in page
    assert "No team's name contains “Team A”." in _status(page)
    Team.objects.create(name="Zeta & Co", slug="zeta")
    assert "Findings of Zeta &amp; Co." in _status(_page(client, team="zeta"))
    # The search, which matches team names too, finds the new name.
    assert "Queue stalls" in _page(client, q="renamed")


def test_a_name_part_finds_every_team_that_has_it_and_a_whole_name_that_team(
    client_for, staff, team_a, team_b, a_member, b_member
):
    file(team_a, a_member, title="From A")
    file(team_b, b_member, title="From B")
    blue = Team.objects.create(name="Team Blue", slug="team-blue")
    file(blue, b_member, title="From Blue")
    client = client_for(staff)
    page = _page(client, team="team")
    assert all(title in page for title in ("From A", "From B", "From Blue"))
    assert (
        "Findings of the 3 teams whose name contains “team”: Team A, Team B, Team Blue."
        in _status(page)
    )
    page = _page(client, team="team b")  # Team B's whole name, not Team Blue's part
    assert "From B" in page and "From Blue" not in page and "From A" not in page
    assert "Findings of Team B." in _status(page)
    page = _page(client, team="blu")
    assert "From Blue" in page and "From B<" not in page


def test_more_teams_than_listed_are_all_filtered_and_not_all_named(client_for, staff, a_member):
    teams = [
        Team.objects.create(name=f"Zed {i:02}", slug=f"zed-{i:02}") for i in range(TEAMS_LISTED + 2)
    ]
    file(teams[-1], a_member, title="From the last Zed")
    client = client_for(staff)
    page = _page(client, team="zed")
    assert "From the last Zed" in page
    assert f"(more than {TEAMS_LISTED}: type more of the name to choose one)" in _status(page)
    assert "Zed 01" not in _status(page)


def test_the_team_filter_reads_at_most_the_teams_it_lists(client_for, staff, team_a, a_member):
    for i in range(3 * TEAMS_LISTED):
        Team.objects.create(name=f"Team {i:02}", slug=f"team-{i:02}")
    client = client_for(staff)
    _page(client, team="team")
    with CaptureQueriesContext(connection) as captured:
        _page(client, team="team")
    # One read of teams (past the bound, the findings' queries name them by a sub-select).
    teams = [q["sql"] for q in captured.captured_queries if q["sql"].startswith(_READS_TEAMS)]
    assert len(teams) == 1 and f"LIMIT {TEAMS_LISTED + 1}" in teams[0]
    # No team filter, no search: no team is read.
    with CaptureQueriesContext(connection) as captured:
        _page(client)
    assert not [q for q in captured.captured_queries if 'FROM "portal_team"' in q["sql"]]


_READS_TEAMS = 'SELECT "portal_team".'


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
    page = _page(client, team="Team B", assignee=staff.pk)
    assert 'value="Team B"' in _team_box(page)
    assert f'<option value="{staff.pk}" selected>staff</option>' in _select(page, "id_assignee")
    # The bulk form selects the person looking.
    assert f'<option value="{staff.pk}" selected>staff</option>' in _select(page, "bulk-assignee")
    assert "value=" not in _team_box(_page(client))
    assert '<option value="" selected>Anyone</option>' in _select(_page(client), "id_assignee")


def test_a_link_naming_a_team_by_its_id_still_filters_by_it(client_for, staff, team_a, a_member):
    """Older links sent the team's id (?team=12): it is that team, made since or not."""
    file(team_a, a_member, title="Filed by team A")
    client = client_for(staff)
    page = _page(client, team=4242)
    assert "Filed by team A" not in page and "No finding matches." in page
    Team.objects.create(pk=4242, name="Newcomers", slug="newcomers")
    page = _page(client, team=4242)
    assert "Filed by team A" not in page and "No finding matches." in page
    assert "Findings of Newcomers." in _status(page)
    page = _page(client, team=team_a.pk)
    assert "Filed by team A" in page and "Findings of Team A." in _status(page)
