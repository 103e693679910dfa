"""The staff home shows the program at a glance: numbers with links."""

import pytest
from django.urls import reverse

from findings.models import Finding, FindingKind, Impact
from jobs import services, spec
from portal.pagination import COUNT_BOUND
from tests.findings.helpers import file

pytestmark = pytest.mark.django_db


def test_staff_home_counts_what_waits(client_for, team_a, a_member, staff):
    job = services.create_draft(team=team_a, user=a_member, data=spec.example_data())
    services.submit(job=job, user=a_member)
    file(team_a, a_member)
    page = client_for(staff).get(reverse("home")).content.decode()
    assert "The program at a glance" in page
    assert f'href="{reverse("review_queue")}"><span class="number">1</span>' in page
    assert (
        '<span class="number">1</span> <span class="what">finding untriaged, under a day old'
        in page
    )
    assert '<span class="what">description waiting for review' in page
    assert '<span class="number">0</span> <span class="what">applications waiting' in page


def test_the_glance_says_findings_for_two(client_for, team_a, a_member, staff):
    file(team_a, a_member)
    file(team_a, a_member)
    page = client_for(staff).get(reverse("home")).content.decode()
    assert (
        '<span class="number">2</span> <span class="what">findings untriaged, under a day old'
        in page
    )


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
    assert (
        '<span class="number">1,000+</span> <span class="what">findings untriaged, under a day'
        in page
    )
