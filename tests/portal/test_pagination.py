"""Keyset pages: every row once, in order, both ways; a hostile cursor is the first page."""

import base64
import json

import pytest
from django.db.models import OuterRef
from django.utils import timezone

from findings.models import Finding, FindingKind, Impact
from portal.models import Team
from portal.pagination import (
    BoundedCount,
    bounded_count,
    bounded_counts,
    keyset_page,
    shown_count,
)

pytestmark = pytest.mark.django_db

ORDER = ("-created_at", "-pk")


@pytest.fixture
def findings(team_a, a_member):
    now = timezone.now()
    return Finding.objects.bulk_create(
        Finding(
            team=team_a,
            filed_by=a_member,
            kind=FindingKind.OTHER,
            impact=Impact.ANNOYANCE,
            title=f"f{i}",
            summary="s",
            created_at=now.replace(microsecond=0) - timezone.timedelta(seconds=i // 3),  # ties
        )
        for i in range(23)
    )


def _walk(queryset, order, size, direction="after"):
    seen, page = [], keyset_page(queryset, order=order, size=size)
    while True:
        seen += [f.pk for f in page]
        if not page.next_cursor:
            return seen, page
        page = keyset_page(queryset, order=order, size=size, after=page.next_cursor)


@pytest.mark.parametrize("order", [ORDER, ("created_at", "pk"), ("kind", "-created_at", "-pk")])
def test_pages_hold_every_row_once_in_order(findings, order):
    queryset = Finding.objects.all()
    expected = list(queryset.order_by(*order).values_list("pk", flat=True))
    seen, last = _walk(queryset, order, 5)
    assert seen == expected
    # And back again from the last page.
    back, page = [f.pk for f in last], last
    while page.prev_cursor:
        page = keyset_page(queryset, order=order, size=5, before=page.prev_cursor)
        back = [f.pk for f in page] + back
    assert back == expected and page.is_first


@pytest.mark.parametrize(
    "cursor",
    [
        "garbage",
        "x" * 600,
        base64.urlsafe_b64encode(b"[1]").decode(),
        base64.urlsafe_b64encode(json.dumps(["not a date", 1]).encode()).decode(),
        base64.urlsafe_b64encode(json.dumps(["2027-01-01T00:00:00Z", "\x00"]).encode()).decode(),
        base64.urlsafe_b64encode(json.dumps({"a": 1}).encode()).decode(),
        # Each was a 500: a time with no UTC equivalent (OverflowError), an empty value
        # (ValueError: the query cannot compare with None).
        base64.urlsafe_b64encode(json.dumps(["9999-12-31T23:59:59-14:00", 5]).encode()).decode(),
        base64.urlsafe_b64encode(json.dumps(["0001-01-01T00:00:00+14:00", 5]).encode()).decode(),
        base64.urlsafe_b64encode(json.dumps([None, None]).encode()).decode(),
        base64.urlsafe_b64encode(json.dumps(["2027-01-01T00:00:00Z", None]).encode()).decode(),
        # A pk past 64 bits: PostgreSQL's prepared job list, "bigint out of range".
        base64.urlsafe_b64encode(json.dumps(["2027-01-01T00:00:00Z", 2**63]).encode()).decode(),
        base64.urlsafe_b64encode(json.dumps(["2027-01-01T00:00:00Z", -(10**20)]).encode()).decode(),
        base64.urlsafe_b64encode(json.dumps(["2027-01-01T00:00:00Z", 1e308]).encode()).decode(),
    ],
)
def test_a_hostile_cursor_is_the_first_page(findings, cursor, client_for, staff, a_member):
    page = keyset_page(Finding.objects.all(), order=ORDER, size=5, after=cursor)
    assert page.is_first and len(page) == 5
    page = keyset_page(Finding.objects.all(), order=ORDER, size=5, before=cursor)
    assert page.is_first and len(page) == 5
    for user, url in (
        (staff, "/staff/findings/"),
        (staff, "/staff/findings/?sort=oldest"),
        (staff, "/staff/reviews/"),
        (a_member, "/findings/"),
        (a_member, "/jobs/"),
        (a_member, "/jobs/?status=accepted"),
    ):
        response = client_for(user).get(url, {"after": cursor, "before": cursor})
        assert response.status_code == 200


def test_counts_stop_at_the_bound(findings):
    assert bounded_count(Finding.objects.all(), bound=10) == 11
    assert shown_count(11, bound=10) == "10+"
    assert shown_count(1234, bound=2000) == "1,234"


def test_bounded_counts_are_each_bounded_count(findings, team_b, django_assert_num_queries):
    querysets = [
        Finding.objects.all(),
        Finding.objects.filter(title__in=["f1", "f2"]),
        Finding.objects.filter(team=team_b),
    ]
    with django_assert_num_queries(len(querysets)):
        counts = bounded_counts(querysets, bound=10)
    assert counts == [bounded_count(q, bound=10) for q in querysets] == [11, 2, 0]
    assert bounded_counts([]) == []


def test_a_bounded_count_in_another_query_is_bounded_count(
    findings, team_a, team_b, django_assert_num_queries
):
    mine = Finding.objects.filter(team=OuterRef("pk"))
    with django_assert_num_queries(1):
        teams = dict(
            Team.objects.filter(pk__in=[team_a.pk, team_b.pk])
            .annotate(n=BoundedCount(mine, bound=10))
            .values_list("pk", "n")
        )
    assert teams == {team_a.pk: 11, team_b.pk: 0}
    few = Team.objects.annotate(few=BoundedCount(mine.filter(title__in=["f1", "f2"]))).get(
        pk=team_a.pk
    )
    assert few.few == 2
