"""The program's figures are kept between looks and computed again as soon as a row they
come from is added or written: the staff page and the exports never show figures older
than the data they say they are computed from."""

import json

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import portal.kept
from findings import services as finding_services
from findings.insights import figures
from findings.models import Finding
from portal.kept import kept, kept_under, stamp
from tests.conftest import make_user

from .helpers import file
from .test_insights import _team, outcome

pytestmark = pytest.mark.django_db


def _runs(staff_client):
    return json.loads(staff_client.get("/staff/insights/insights.json").content)["outcomes"]["all"][
        "runs"
    ]


def _main(response):
    page = response.content.decode()
    return page[page.index("<main") : page.index("</main>")]


def test_a_new_row_shows_at_once_and_nothing_new_costs_no_aggregate(client_for, staff):
    staff_client = client_for(staff)
    outcome(_team(1), duration_ratio=1.2)
    assert _runs(staff_client) == 1
    page = _main(staff_client.get("/staff/insights/"))
    assert "How wrong declarations turn out" in page
    with CaptureQueriesContext(connection) as again:
        assert _main(staff_client.get("/staff/insights/")) == page
    assert not any("GROUP BY" in q["sql"] or "COUNT(" in q["sql"] for q in again)
    outcome(_team(2), duration_ratio=0.9)
    assert _runs(staff_client) == 2


def test_a_written_row_shows_at_once(client_for, staff, team_a, a_member):
    staff_client = client_for(staff)
    finding = file(team_a, a_member)
    problem = figures.UnsolvedProblem.objects.filter(published=True).first()

    def findings_of_problem():
        data = json.loads(staff_client.get("/staff/insights/insights.json").content)
        return next(p["findings"] for p in data["problems"] if p["slug"] == problem.slug)

    before = findings_of_problem()
    # A link to the problem adds no finding: the finding's write time moves.
    finding_services.change_status(
        finding=finding, actor=staff, to_status="triaged", problems=[problem]
    )
    assert findings_of_problem() == before + 1


def test_kept_computes_again_only_when_a_source_moves(team_a, a_member):
    cache.clear()
    calls = []

    def compute():
        calls.append(1)
        return Finding.objects.count()

    sources = [(Finding, "id"), (Finding, "updated_at")]
    assert kept("test:findings", sources=sources, compute=compute) == 0
    assert kept("test:findings", sources=sources, compute=compute) == 0
    assert len(calls) == 1
    finding = file(team_a, make_user("k@example.com", team=team_a))
    assert kept("test:findings", sources=sources, compute=compute) == 1
    Finding.objects.filter(pk=finding.pk).update(updated_at=timezone.now())
    kept("test:findings", sources=sources, compute=compute)
    assert len(calls) == 3
    cache.clear()  # gone from the cache (its age is up): computed again
    kept("test:findings", sources=sources, compute=compute)
    assert len(calls) == 4


def test_the_stamp_is_one_query(django_assert_num_queries):
    with django_assert_num_queries(1):
        assert len(stamp(figures.SOURCES)) == len(figures.SOURCES)


def test_what_older_code_kept_is_not_served(monkeypatch):
    """An entry kept by another deploy (other templates, other code) is computed again."""
    calls = []

    def compute():
        calls.append(1)
        return f"html {len(calls)}"

    assert kept_under("test:code", "same rows", compute) == "html 1"
    assert kept_under("test:code", "same rows", compute) == "html 1"
    monkeypatch.setattr(portal.kept, "code_stamp", lambda: "another deploy")
    assert kept_under("test:code", "same rows", compute) == "html 2"
