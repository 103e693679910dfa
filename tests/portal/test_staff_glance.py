"""The staff home shows the program at a glance: numbers with links."""

import html
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from findings.models import Finding, FindingKind, Impact
from jobs import jobformat, services
from jobs.runs import services as run_services
from jobs.runs.ingest import Incoming
from portal.pagination import COUNT_BOUND
from tests.findings.helpers import file

pytestmark = pytest.mark.django_db


def test_staff_home_counts_what_waits(client_for, team_a, a_member, staff):
    job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    services.submit(job=job, user=a_member)
    file(team_a, a_member)
    page = client_for(staff).get(reverse("home")).content.decode()
    assert "The program at a glance" in page
    assert f'href="{reverse("review_queue")}"><span class="number">1</span>' in page
    assert '<span class="number">1</span> <span class="what">finding untriaged<' in page
    assert '<span class="what">description waiting for review' in page
    assert '<span class="number">0</span> <span class="what">applications waiting' in page


def test_the_glance_says_findings_for_two(client_for, team_a, a_member, staff):
    file(team_a, a_member)
    file(team_a, a_member)
    page = client_for(staff).get(reverse("home")).content.decode()
    assert '<span class="number">2</span> <span class="what">findings untriaged<' in page


def test_each_untriaged_count_is_what_its_link_lists(client_for, team_a, a_member, staff):
    """The queue's age filter means "older than", so the counts are too: a finding ten
    days old is in all three, one three days old in the first two."""
    now = timezone.now()
    for title, days in (("fresh one", 0), ("three days", 3), ("ten days", 10)):
        finding = file(team_a, a_member, title=title)
        Finding.objects.filter(pk=finding.pk).update(created_at=now - timedelta(days=days))
    client = client_for(staff)
    page = client.get(reverse("home")).content.decode()
    shown = re.findall(
        r'<a href="([^"]+)"><span class="number">([\d,+]+)</span> '
        r'<span class="what">(findings? untriaged[^<]*)<',
        page,
    )
    assert [(n, what) for _, n, what in shown] == [
        ("3", "findings untriaged"),
        ("2", "findings untriaged for over a day"),
        ("1", "finding untriaged for over a week"),
    ]
    for link, number, _ in shown:
        listed = client.get(html.unescape(link)).content.decode()
        assert len(re.findall(r'<td><a href="/staff/findings/\d+/">#', listed)) == int(number)


def test_partners_do_not_get_the_glance(client_for, a_member):
    page = client_for(a_member).get(reverse("home")).content.decode()
    assert "The program at a glance" not in page


def test_the_glance_counts_stop_at_the_bound(client_for, team_a, a_member, staff):
    Finding.objects.bulk_create(
        Finding(
            team=team_a,
            filed_by=a_member,
            kind=FindingKind.OTHER,
            impact=Impact.ANNOYANCE,
            title=f"f{i}",
            summary="s",
        )
        for i in range(COUNT_BOUND + 1)
    )
    page = client_for(staff).get(reverse("home")).content.decode()
    assert '<span class="number">1,000+</span> <span class="what">findings untriaged<' in page


def glance(client):
    return client.get(reverse("home")).content.decode()


def test_the_glance_counts_again_after_any_write(client_for, team_a, a_member, staff):
    client = client_for(staff)
    file(team_a, a_member)
    assert '<span class="number">1</span> <span class="what">finding untriaged' in glance(client)
    file(team_a, a_member)
    assert '<span class="number">2</span> <span class="what">findings untriaged' in glance(client)
    # Written another way than by a service.
    Finding.objects.filter(team=team_a).first().delete()
    assert '<span class="number">1</span> <span class="what">finding untriaged' in glance(client)


def test_the_glance_reads_a_fixed_number_of_queries(
    client_for, team_a, a_member, staff, django_assert_num_queries
):
    client = client_for(staff)
    glance(client)
    # Session, user, memberships, the badge's counters, six bounded counts.
    with django_assert_num_queries(10) as first:
        glance(client)
    for _ in range(3):
        file(team_a, a_member)
    with django_assert_num_queries(len(first)):
        glance(client)


def test_runs_moved_by_the_scheduler_are_counted_again(client_for, staff, accepted):
    client = client_for(staff)
    assert '<span class="number">1</span> <span class="what">run active' in glance(client)
    at = timezone.now() - timedelta(hours=1)
    kinds = ["rented", "running", "output", "released"]
    items = [
        Incoming(
            job_id=accepted.pk,
            kind=kind,
            occurred_at=at + timedelta(minutes=i),
            idempotency_key=f"glance:{i}",
        )  # fmt: skip
        for i, kind in enumerate(kinds)
    ]
    outcomes = run_services.record_events(items=items)
    assert all(not o.error for o in outcomes), [o.error for o in outcomes]
    assert '<span class="number">0</span> <span class="what">runs active' in glance(client)


def test_the_staff_home_links_to_the_clusters_page(client_for, staff):
    page = client_for(staff).get(reverse("home")).content.decode()
    assert f'<a href="{reverse("clusters")}">Clusters</a>' in page
