"""The jobs list's page as a prepared statement of its own (jobs/dashboard_query.py) reads
exactly the rows the ORM's query (selectors.dashboard) reads, page after page, both ways."""

from datetime import timedelta
from functools import partial

import pytest
from django.db import connection
from django.utils import timezone

from jobs import dashboard_query, jobformat, selectors, services
from jobs.models import JobDescription, JobStatus
from jobs.runs import dispatch as dispatch_mod
from jobs.runs.models import Dispatch, Run
from portal.models import Membership, Role
from tests.conftest import make_user
from tests.keyset_walk import walk_pages

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's PREPARE"),
]


def _all_pages(user, team=None, status="", size=4):
    """Every page both ways, read by the ORM and by the statement: (theirs, ours)."""
    pages = {}
    for name, fetch in (
        ("orm", None),
        ("own", partial(dashboard_query.page_rows, user, team, status)),
    ):
        walked = walk_pages(
            lambda: selectors.dashboard(user, team, status),
            order=selectors.DASHBOARD_ORDER,
            size=size,
            fetch=fetch,
        )
        read = [(page.rows, page.next_cursor, page.prev_cursor) for page in walked]
        pages[name] = read
    return pages["orm"], pages["own"]


@pytest.fixture
def busy(team_a, team_b, a_member, b_member, staff):
    """Two teams' jobs in every status, ties in activity, a run dispatched to a cluster,
    comments unread, a job with no editor."""
    Membership.objects.create(team=team_b, user=a_member, role=Role.MEMBER)
    jobs = [
        services.create_draft(team=team, user=user, data=jobformat.example_data())
        for team, user in [(team_a, a_member)] * 6 + [(team_b, b_member)] * 4
    ]
    for job in jobs[:5]:
        services.submit(job=job, user=a_member if job.team == team_a else b_member)
    revision = jobs[0].revisions.get()
    services.review(revision=revision, reviewer=staff, outcome="accepted")
    services.review(
        revision=jobs[1].revisions.get(), reviewer=staff, outcome="clarify", note="?", fields=["x"]
    )
    cluster, _ = dispatch_mod.create_cluster(name="north", partition="p", accelerator_map={})
    Dispatch.objects.create(run=Run.objects.get(job=jobs[0]), cluster=cluster, key="k1")
    services.add_comment(job=jobs[2], author=staff, body="a question")
    services.add_comment(job=jobs[2], author=b_member, body="another")
    same = timezone.now() - timedelta(hours=1)
    JobDescription.objects.filter(pk__in=[j.pk for j in jobs[3:8]]).update(last_activity_at=same)
    JobDescription.objects.filter(pk=jobs[9].pk).update(updated_by=None)
    return jobs


def test_the_statement_reads_the_orms_rows(busy, team_a, team_b, a_member, b_member, staff):
    for user, team, status in [
        (a_member, None, ""),  # two teams
        (a_member, team_b, ""),
        (b_member, None, ""),
        (a_member, None, JobStatus.DRAFT),
        (staff, None, ""),  # every team
        (staff, team_a, JobStatus.IN_REVIEW),
    ]:
        theirs, ours = _all_pages(user, team, status)
        assert ours == theirs, (user, team, status)
    theirs, _ = _all_pages(a_member)
    rows = [row for rows, *_ in theirs for row in rows]
    # What the comparison covered: a cluster's name, unread comments, a job without editor.
    assert any(r["run__dispatch__cluster__name"] == "north" for r in rows)
    assert any(r["unread"] == 2 for r in rows)
    assert any(r["updated_by__email"] is None for r in rows)


def test_a_partner_of_no_team_sees_no_job(busy, client_for):
    loner = make_user("loner@example.org")
    assert _all_pages(loner) == ([([], "", "")], [([], "", "")])
    page = client_for(loner).get("/jobs/").content.decode()
    assert busy[0].name not in page


def test_the_list_sends_the_statement(busy, client_for, a_member, django_assert_num_queries):
    client = client_for(a_member)
    client.get("/jobs/")
    with django_assert_num_queries(5) as queries:
        page = client.get("/jobs/").content.decode()
    assert any(q["sql"].startswith("EXECUTE page_") for q in queries.captured_queries)
    assert page.count("<tr>") == 1 + 10  # the header and both teams' jobs
