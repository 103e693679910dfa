"""Every URL the project has, for every kind of user (the table and its world: tests/url_matrix.py)."""

import pytest
from django.contrib import admin
from django.db import transaction
from django.urls import reverse

from tests.url_matrix import LOGIN, MATRIX, ROLES, build_world, fill, project_urls


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Built once for the module inside a transaction that is rolled back at its end; each
    test runs in a savepoint of it (pytest-django's django_db), so a POST that changes the
    world (logout, revoke, close) is undone before the next test."""
    # Marked as Django's TestCase marks its own: the services that open the outermost
    # transaction (durable) may run inside it, as they do inside each test's.
    world = transaction.atomic()
    world._from_testcase = True
    with django_db_blocker.unblock(), world:
        yield build_world()
        transaction.set_rollback(True)


def test_every_url_is_in_the_matrix():
    missing = sorted(set(project_urls()) - set(MATRIX))
    stale = sorted(set(MATRIX) - set(project_urls()))
    assert not missing, f"URLs with no expectations in the authorization matrix: {missing}"
    assert not stale, f"matrix rows for URLs that no longer exist: {stale}"


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(MATRIX))
@pytest.mark.parametrize("role", ROLES)
def test_matrix(client_for, world, name, role):
    method, expected_by_role = MATRIX[name]
    pattern = project_urls()[name]
    url = reverse(name, kwargs=fill(pattern, world))
    client = client_for(world["users"][role])
    if method == "post_json":
        response = client.post(url, {}, content_type="application/json")
    elif method == "put_json":
        response = client.put(url, {}, content_type="application/json")
    else:
        response = getattr(client, method)(url)
    expected = expected_by_role[role]
    if expected == LOGIN:
        assert response.status_code == 302, f"{role} {method.upper()} {url}"
        assert response["Location"].startswith(reverse("login")), response["Location"]
    else:
        assert response.status_code == expected, f"{role} {method.upper()} {url}"


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_admin_is_staff_only(client_for, world, role):
    client = client_for(world["users"][role])
    urls = [reverse("admin:index")] + [
        reverse(f"admin:{m._meta.app_label}_{m._meta.model_name}_changelist")
        for m in admin.site._registry
    ]
    for url in urls:
        response = client.get(url)
        if role == "staff":
            assert response.status_code == 200, url
        else:
            assert response.status_code == 302 and "/admin/login/" in response["Location"], url


@pytest.mark.django_db
@pytest.mark.parametrize("role", ("anonymous", "a_member", "staff"))
def test_pages_answer_only_browser_methods(client_for, world, role):
    """TRACE, PATCH, PUT, DELETE and OPTIONS on any page (the admin's too) answer 405 and name
    what the page takes, whoever asks and before any view runs. HEAD answers as GET does."""
    client = client_for(world["users"][role])
    urls = [reverse("admin:index")] + [
        reverse(name, kwargs=fill(pattern, world))
        for name, pattern in project_urls().items()
        if not name.startswith("api:")  # the API declares its methods per route
    ]
    for url in urls:
        for method in ("TRACE", "PATCH", "PUT", "DELETE", "OPTIONS"):
            response = client.generic(method, url)
            assert response.status_code == 405, f"{role} {method} {url}"
            assert response["Allow"] == "GET, HEAD, POST"
    for name, (method, expected_by_role) in MATRIX.items():
        if method == "get" and expected_by_role[role] == 200 and not name.startswith("api:"):
            url = reverse(name, kwargs=fill(project_urls()[name], world))
            assert client.head(url).status_code == 200, f"{role} HEAD {url}"


# What a person who has not passed the second step may still reach.
BEFORE_SECOND_STEP = {
    "logout",
    "second_factor_verify",
    "second_factor_setup",
    "second_factor_qr",
    "second_factor_passkey_add",
    "second_factor_passkey_verify",
}


@pytest.mark.django_db
def test_staff_reach_nothing_before_the_second_step(client, world):
    """Staff logged in with a password alone: every page (and the admin) sends them to set up
    the second step, whatever the method; the API keeps its own tokens."""
    client.force_login(world["users"]["staff"], backend="django.contrib.auth.backends.ModelBackend")
    setup = reverse("second_factor_setup")
    urls = [("get", reverse("admin:index"))] + [
        (method, reverse(name, kwargs=fill(project_urls()[name], world)))
        for name, (method, _) in MATRIX.items()
        if not name.startswith("api:") and name not in BEFORE_SECOND_STEP
    ]
    for method, url in urls:
        response = getattr(client, method)(url)
        assert response.status_code == 302, f"{method.upper()} {url}"
        assert response["Location"].startswith(setup), f"{method.upper()} {url}"
