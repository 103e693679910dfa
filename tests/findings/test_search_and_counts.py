"""The triage search (PostgreSQL full-text, substring on SQLite) and the problems' counts
kept on write: after every kind of change they say what counting the findings says."""

import pytest
from django.contrib.admin.sites import site
from django.db import connection
from django.db.models import Count, Q
from django.test import RequestFactory

from findings import rules, services
from findings.models import Finding, FindingStatus, UnsolvedProblem
from tests.findings.helpers import file

pytestmark = pytest.mark.django_db


@pytest.fixture
def problems(db):
    return list(UnsolvedProblem.objects.order_by("pk")[:2])


def _true_counts():
    counted = Q(findings__status__in=rules.COUNTED)
    return {
        p.pk: (p.n, p.t)
        for p in UnsolvedProblem.objects.annotate(
            n=Count("findings", filter=counted, distinct=True),
            t=Count("findings__team", filter=counted, distinct=True),
        )
    }


def _stored_counts():
    return {p.pk: (p.finding_count, p.team_count) for p in UnsolvedProblem.objects.all()}


def test_problem_counts_follow_every_change(team_a, team_b, a_member, b_member, staff, problems):
    one, two = problems
    a1, a2, b1 = file(team_a, a_member), file(team_a, a_member), file(team_b, b_member)
    steps = [
        lambda: services.change_status(
            finding=a1, actor=staff, to_status="triaged", problems=[one]
        ),
        lambda: services.change_status(
            finding=b1, actor=staff, to_status="triaged", problems=[one]
        ),
        lambda: services.change_status(finding=a1, actor=staff, to_status="accepted"),
        lambda: services.link_problems(findings=[a1, a2], problems=[two], actor=staff),
        lambda: services.change_status(
            finding=a2, actor=staff, to_status="triaged", problems=[two]
        ),
        lambda: services.unlink_problem(finding=a1, problem=two, actor=staff),
        lambda: services.merge(source=Finding.objects.get(pk=a2.pk), target=a1, actor=staff),
        lambda: services.unmerge(source=Finding.objects.get(pk=a2.pk), actor=staff),
        lambda: services.change_status(
            finding=b1, actor=staff, to_status="declined", note="Not a network problem."
        ),
    ]
    for step in steps:
        step()
        assert _stored_counts() == _true_counts()
    assert _stored_counts()[one.pk] == (1, 1)


def test_admin_edits_and_deletes_keep_the_counts(rf, team_a, a_member, staff, problems):
    one, _ = problems
    finding = file(team_a, a_member)
    services.change_status(finding=finding, actor=staff, to_status="triaged", problems=[one])
    admin = site._registry[Finding]
    request = RequestFactory().post("/admin/")
    request.user = staff
    admin.delete_queryset(request, Finding.objects.filter(pk=finding.pk))
    assert _stored_counts() == _true_counts() and _stored_counts()[one.pk] == (0, 0)


def _search(client, q, **filters):
    page = client.get("/staff/findings/", {"q": q, **filters}).content.decode()
    return {f.title for f in Finding.objects.all() if f.title in page}


def test_triage_search_finds_words_team_names_and_ids(
    client_for, team_a, team_b, a_member, b_member, staff
):
    file(team_a, a_member, title="Egress throttled", summary="The bucket throttled our egress.")
    file(team_a, a_member, title="Idle tail", summary="Nodes held after the job ended.")
    other = file(team_b, b_member, title="Scratch too small", summary="The disk filled up.")
    client = client_for(staff)
    assert _search(client, "egress") == {"Egress throttled"}
    assert _search(client, "Team B") == {"Scratch too small"}
    assert _search(client, f"#{other.pk}") == {"Scratch too small"}
    assert _search(client, "egress", status=FindingStatus.DECLINED) == set()
    # Hostile text is a search like any other, never an error.
    for q in ["'", '"unclosed', "a & | ! :*", "x" * 200, "99999999999999999999"]:
        assert client.get("/staff/findings/", {"q": q}).status_code == 200


@pytest.mark.skipif(connection.vendor == "postgresql", reason="SQLite's fallback")
def test_triage_search_on_sqlite_matches_substrings_of_title_and_summary(
    client_for, team_a, a_member, staff
):
    file(team_a, a_member, title="Egress throttled", summary="The bucket throttled our egress.")
    file(team_a, a_member, title="Idle tail", summary="Nodes held after the job ended.")
    client = client_for(staff)
    assert _search(client, "THROTT") == {"Egress throttled"}  # any case, part of a word
    assert _search(client, "job ended") == {"Idle tail"}  # from the summary
    assert set(Finding.objects.values_list("search_document", flat=True)) == {None}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="full-text search is PostgreSQL's")
def test_triage_search_on_postgresql_stems_words_and_takes_phrases(
    client_for, team_a, a_member, staff, make_user
):
    file(team_a, a_member, title="Egress throttled", summary="The bucket throttled our egress.")
    file(team_a, a_member, title="Idle tail", summary="Nodes held after the job ended.")
    client = client_for(staff)
    assert _search(client, "throttling") == {"Egress throttled"}  # same stem
    assert _search(client, '"job ended"') == {"Idle tail"}
    assert _search(client, "nodes -egress") == {"Idle tail"}
    make_user("x@e31.example", staff=True)


def test_the_queue_names_each_findings_problems_in_the_problems_order(
    client_for, team_a, a_member, staff
):
    late = UnsolvedProblem.objects.create(slug="zz-late", title="Aa first by title", order=900)
    early = UnsolvedProblem.objects.create(slug="aa-early", title="Zz last by title", order=1)
    finding = file(team_a, a_member, title="Two problems", summary="Both apply.")
    finding.problems.add(late, early)
    page = client_for(staff).get("/staff/findings/").content.decode()
    assert "<td>Zz last by title, Aa first by title</td>" in page
    # A search by the team's name finds its findings (the team picked from the filter's list).
    assert _search(client_for(staff), team_a.name) == {"Two problems"}
