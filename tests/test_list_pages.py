"""Every list that grows with the program shows 50 rows a page with a fixed number of
queries, and the SQL it sends is the same at 60 rows and at 180: no COUNT(*) over every
row, no OFFSET, no query per row. (The speed itself is measured by `manage.py bench`.)"""

import re
import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from findings.models import Finding, FindingKind, FindingStatus, Impact
from jobs import jobformat
from jobs.models import Comment, JobDescription, JobStatus, Revision
from portal.intake.models import IntakeApplication, IntakeWindow
from portal.pagination import PAGE_SIZE

pytestmark = pytest.mark.django_db


def _jobs(team, user, n, status=JobStatus.DRAFT):
    now = timezone.now()
    jobs = JobDescription.objects.bulk_create(
        JobDescription(
            team=team,
            name=f"job-{uuid.uuid4().hex[:8]}",
            data=jobformat.example_data(),
            status=status,
            created_by=user,
            last_activity_at=now - timedelta(minutes=i % 7),  # ties: the pk breaks them
        )
        for i in range(n)
    )
    Comment.objects.bulk_create(Comment(job=j, author=user, body="hello") for j in jobs)
    return jobs


def _in_review(team, user, n):
    jobs = _jobs(team, user, n, status=JobStatus.IN_REVIEW)
    Revision.objects.bulk_create(
        Revision(job=j, number=k, data=j.data, submitted_by=user, awaiting_review=k == 2)
        for j in jobs
        for k in (1, 2)
    )


def _findings(team, user, n):
    Finding.objects.bulk_create(
        Finding(
            team=team,
            filed_by=user,
            kind=FindingKind.STAGING_SLOWER,
            status=FindingStatus.NEW,
            impact=Impact.COSTS_TIME,
            title=f"Staging slower than declared {i}",
            summary="The bucket egress was throttled while staging.",
        )
        for i in range(n)
    )


def _window():
    now = timezone.now()
    return IntakeWindow.objects.get_or_create(
        closed_at=None,
        defaults={
            "opens_at": now - timedelta(days=1),
            "closes_at": now + timedelta(days=9),
            "places": 3,
            "announcement": "Open.",
        },
    )[0]


def _applications(n):
    window, now = _window(), timezone.now()
    IntakeApplication.objects.bulk_create(
        IntakeApplication(
            window=window,
            submission_token=uuid.uuid4(),
            status_token_hash=uuid.uuid4().hex,
            team_name=f"Applicant {i}",
            organisation="Org",
            contact_name="C",
            contact_email=f"{uuid.uuid4().hex}@apply.example",
            engineering_contacts="Lead",
            job_work="w",
            job_data="d",
            job_request="r",
            job_output="o",
            accelerator_type="H100",
            accelerator_count=8,
            data_size_text="1 TiB",
            data_size_bytes=2**40,
            duration_text="36h",
            duration_seconds=36 * 3600,
            deadline_text="2030-01-01",
            deadline=now + timedelta(days=90),
            typical_accelerators=2,
            peak_accelerators=64,
            spike_interval_text="3w",
            spike_interval_seconds=3 * 7 * 86400,
            next_spike_text="2030-01-01",
            next_spike=now + timedelta(days=30),
            consented_at=now,
        )
        for i in range(n)
    )
    return window


# (name, who looks, url, how to add n rows)
LISTS = {
    "partner jobs": ("a_member", lambda w: "/jobs/", lambda w, n: _jobs(w.team_a, w.a_member, n)),
    "partner jobs by status": (
        "a_member",
        lambda w: "/jobs/?status=draft",
        lambda w, n: _jobs(w.team_a, w.a_member, n),
    ),
    "partner findings": (
        "a_member",
        lambda w: "/findings/",
        lambda w, n: _findings(w.team_a, w.a_member, n),
    ),
    "staff triage": (
        "staff",
        lambda w: "/staff/findings/",
        lambda w, n: _findings(w.team_a, w.a_member, n),
    ),
    "staff triage filtered, searched, sorted": (
        "staff",
        lambda w: "/staff/findings/?status=new&q=staging&sort=oldest",
        lambda w, n: _findings(w.team_a, w.a_member, n),
    ),
    "staff review queue": (
        "staff",
        lambda w: "/staff/reviews/",
        lambda w, n: _in_review(w.team_a, w.a_member, n),
    ),
    "staff applications": (
        "staff",
        lambda w: f"/staff/intake/windows/{_window().pk}/applications/",
        lambda w, n: _applications(n),
    ),
}


# The queries of each page, pinned: session and user, the memberships (menu, badge and
# scoping at once), what the page needs, its rows in one query with their relations.
PINNED = {
    "partner jobs": 5,  # + the 5 bounded status counts in one query, the page (notices: none to read)
    "partner jobs by status": 5,
    "partner findings": 5,
    "staff triage": 7,  # + the filters' problems and staff, the page, its bounded count
    "staff triage filtered, searched, sorted": 8,  # + the teams whose name the search has
    "staff review queue": 6,  # + the accepted runs waiting for a cluster, the clusters
    "staff applications": 5,  # + the window with its staged counts (bounded), the page
}


def _shape(sql):
    """The SQL with its values taken out: what must not change with the number of rows."""
    sql = re.sub(r"_django_curs_\w+", "_django_curs_", sql)  # PostgreSQL's named cursors
    sql = re.sub(r"'(?:[^']|'')*'", "?", sql)
    sql = re.sub(r"\b\d+(\.\d+)?\b", "?", sql)
    return re.sub(r"\((?:\?, )+\?\)", "(?…)", sql)


def _capture(client, url):
    client.get(url)  # warm: notices shown once are marked read on the first visit
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return response, [_shape(q["sql"]) for q in queries.captured_queries]


class World:
    def __init__(self, **kw):
        self.__dict__.update(kw)


@pytest.mark.parametrize("name", LISTS)
def test_a_list_page_costs_the_same_at_60_and_180_rows(
    name, client_for, team_a, a_member, staff, django_assert_num_queries
):
    who, url, grow = LISTS[name]
    world = World(team_a=team_a, a_member=a_member, staff=staff)
    client = client_for({"a_member": a_member, "staff": staff}[who])
    grow(world, 60)
    small, small_sql = _capture(client, url(world))
    grow(world, 120)
    large, large_sql = _capture(client, url(world))
    assert large_sql == small_sql
    assert len(large_sql) == PINNED[name]
    assert len(large_sql) == len(small_sql)
    for sql in large_sql:
        assert "OFFSET" not in sql.upper()
        if "COUNT(" in sql.upper():  # only counts that stop at a bound
            assert "LIMIT" in sql.upper(), sql
    assert large.content.count(b'rel="next"') == 1
    # The next page costs what the first did.
    next_url = re.search(rb'href="(\?[^"]*after=[^"]+)" rel="next"', large.content)
    path = url(world).split("?")[0] + next_url.group(1).decode().replace("&amp;", "&")
    with django_assert_num_queries(len(large_sql)):
        second = client.get(path)
    assert second.status_code == 200 and b'rel="prev"' in second.content


def test_a_list_shows_at_most_one_page_of_rows(client_for, team_a, a_member):
    _findings(team_a, a_member, PAGE_SIZE + 5)
    page = client_for(a_member).get("/findings/").content.decode()
    assert page.count("Staging slower than declared") == PAGE_SIZE
