"""The triage queue keeps its lists of teams, problems and staff rendered (findings/queue_choices.py)
until one of their rows changes: a team added or renamed, a problem added, a person made staff or
no longer active shows on the next visit, and the kept options read as ListSelect writes them."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from findings import queue_choices
from findings.models import UnsolvedProblem
from portal.models import Team
from portal.pagination import PAGE_SIZE
from portal.widgets import options_html, selected_in
from tests.conftest import make_user
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
    assert "Team A" in _select(_page(client), "id_team")  # the list is now kept
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


def test_staff_made_or_gone_show_in_both_staff_lists(client_for, staff):
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


def test_the_kept_options_mark_the_selection_as_the_filter_and_bulk_form_did(
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


def test_selected_in_writes_what_options_html_writes():
    choices = [("", "Any"), (1, "One"), (12, "Twelve <b>"), ("a&b", "Quote \" ' &")]
    for selected in (set(), {""}, {"1"}, {"12"}, {"a&b"}, {"1", "12"}, {"404"}):
        assert selected_in(options_html(choices), selected) == options_html(choices, selected)


def test_a_query_keeps_its_filters_as_the_form_cleaned_them_until_the_lists_change(
    client_for, staff, team_a, a_member
):
    file(team_a, a_member, title="Filed by team A")
    client = client_for(staff)
    # No team 4242: the form refuses the query and the queue shows every finding, twice (kept).
    for _ in range(2):
        assert "Filed by team A" in _page(client, team=4242)
    Team.objects.create(pk=4242, name="Newcomers", slug="newcomers")
    page = _page(client, team=4242)
    assert "Filed by team A" not in page and "No finding matches." in page
    assert '<option value="4242" selected>Newcomers</option>' in _select(page, "id_team")


def test_a_query_seen_before_reads_no_list_of_teams(
    client_for, staff, team_a, a_member, monkeypatch
):
    file(team_a, a_member, title="Queue stalls")
    reads = []
    read = queue_choices.Kept.filter_lists
    monkeypatch.setattr(
        queue_choices.Kept, "filter_lists", lambda self: reads.append(1) or read(self)
    )
    client = client_for(staff)
    assert "Queue stalls" in _page(client, q="team a")  # a search by the team's name finds it
    assert reads == [1]
    assert "Queue stalls" in _page(client, q="team a")
    assert reads == [1]  # the filters, their fields and the teams the search names: kept
    assert "Queue stalls" not in _page(client, q="team b")
    assert reads == [1, 1]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's PREPARE")
def test_the_queue_is_read_by_a_prepared_statement_a_search_with_its_words_written_in(
    client_for, staff, team_a, a_member
):
    file(team_a, a_member, title="Queue stalls")
    file(team_a, a_member, title="Queue 50%s o'clock")
    client = client_for(staff)
    for query, prepared, shown in [
        ("", True, "Queue stalls"),
        ("sort=oldest", True, "Queue stalls"),
        ("q=queue", True, "Queue stalls"),
        ("q=o%27clock", True, "Queue 50%s o&#x27;clock"),  # a quote and a % written in
        ("q=queue&age=1", False, 'value="queue"'),  # its bound moves with the clock
    ]:
        client.get(f"{URL}?{query}")
        with CaptureQueriesContext(connection) as queries:
            assert shown in client.get(f"{URL}?{query}").content.decode()
        sent = [q["sql"] for q in queries.captured_queries]
        assert any(sql.startswith("EXECUTE page_") for sql in sent) is prepared, (query, sent)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE name LIKE 'page_%%'")
        statements = [text for (text,) in cursor.fetchall()]
    # The search's words are in its statement: planned for them, not for any words.
    assert any("websearch_to_tsquery('english'::regconfig, 'o''clock')" in s for s in statements)


def test_a_searchs_further_pages_are_not_prepared(client_for, staff, team_a, a_member):
    for i in range(PAGE_SIZE + 2):
        file(team_a, a_member, title=f"Queue stalls {i}")
    client = client_for(staff)
    first = client.get(URL, {"q": "queue"}).content.decode()
    after = re.search(r'href="\?([^"]*after=[^"]+)" rel="next"', first).group(1)
    with CaptureQueriesContext(connection) as queries:
        second = client.get(f"{URL}?{after.replace('&amp;', '&')}").content.decode()
    assert "Queue stalls 0" in second and "Queue stalls 0" not in first
    assert not any(q["sql"].startswith("EXECUTE page_") for q in queries.captured_queries)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans")
def test_the_digest_reads_the_staff_from_their_partial_index(staff):
    """The digest runs on every visit: it finds the active staff through
    user_active_staff_idx (portal.User.Meta), not by scanning every user; an index whose
    condition no longer matches the digest's WHERE would be passed over."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a test database is too small to
        cursor.execute("EXPLAIN " + queue_choices._sql())  # prefer an index by cost alone
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "user_active_staff_idx" in plan, plan
    assert "Seq Scan on portal_user" not in plan
