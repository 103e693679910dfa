"""An id in a URL larger than an id column holds is a 404, never a 500. Django's `int`
converter takes any digits; the database then refused the query (SQLite: OverflowError on a
revision's page and export, on a window's applications; PostgreSQL: "bigint out of range"
on a job's page). Every id in a URL is an `<id:…>` (portal/converters.py). CI runs these
on PostgreSQL."""

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.converters import IntConverter

from portal.converters import MAX_ID, RowId

pytestmark = pytest.mark.django_db

# The other arguments as any URL of the kind would carry them.
OTHER_ARGS = {"slug": "team-a", "step": "work", "fmt": "yaml", "problem_slug": "x"}


def walk(patterns, prefix=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            if p.app_name != "admin":
                yield from walk(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), p


NUMBERS = (RowId, IntConverter)


def with_ids():
    return [
        (route, p)
        for route, p in walk(get_resolver().url_patterns)
        if any(isinstance(c, NUMBERS) for c in p.pattern.converters.values())
    ]


def url_with(route, pattern, id_value):
    """The route with `id_value` for each id and OTHER_ARGS for the rest."""
    converters = pattern.pattern.converters

    def value(match):
        name = match.group(1)
        return id_value if isinstance(converters.get(name), NUMBERS) else OTHER_ARGS[name]

    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", value, route)


def test_no_url_takes_an_unbounded_number():
    unbounded = [
        route
        for route, p in walk(get_resolver().url_patterns)
        if any(isinstance(c, IntConverter) for c in p.pattern.converters.values())
    ]
    assert not unbounded, f"use <id:…> (portal/converters.py), not <int:…>: {unbounded}"
    assert len(with_ids()) > 30


@pytest.mark.parametrize("value", [str(MAX_ID + 1), "9" * 19, "9" * 26])
@pytest.mark.parametrize("role", ["staff", "member"])
def test_an_id_too_large_for_the_database_is_not_found(client_for, staff, a_member, role, value):
    client = client_for(staff if role == "staff" else a_member)
    for route, pattern in with_ids():
        url = url_with(route, pattern, value)
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            assert response.status_code == 404, f"{method.upper()} {url}"


def test_the_largest_id_still_reaches_the_view_and_is_not_found(client_for, staff):
    client = client_for(staff)
    for url in (
        f"/jobs/{MAX_ID}/",
        f"/jobs/{MAX_ID}/revisions/1/",
        f"/jobs/1/revisions/{MAX_ID}/export.yaml",
        f"/staff/intake/windows/{MAX_ID}/applications/",
    ):
        assert client.get(url).status_code == 404, url
