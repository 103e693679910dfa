"""A page that cannot reach the database answers our 503 with Retry-After, never a 500, and
only a POST is told that nothing it sent was saved."""

import pytest
from django.db import OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper

from portal import errors_views

pytestmark = pytest.mark.django_db


@pytest.fixture
def database_down(monkeypatch):
    def refuse(self):
        raise OperationalError("connection refused")

    def down():
        monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", refuse)

    return down


@pytest.mark.parametrize("method", ["get", "post"])
def test_the_database_down_answers_503_with_retry_after(
    client_for, a_member, database_down, method
):
    client = client_for(a_member)
    client.raise_request_exception = False
    database_down()
    response = getattr(client, method)("/jobs/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    page = response.content.decode()
    assert "Try again in a moment" in page
    assert ("Nothing you sent was saved" in page) == (method == "post")
    assert "connection refused" not in page


@pytest.mark.parametrize("method", ["get", "post"])
def test_other_failures_answer_500_and_only_a_post_hears_nothing_was_saved(rf, method):
    response = errors_views.server_error(getattr(rf, method)("/jobs/"))
    assert response.status_code == 500
    assert ("Nothing you entered was saved" in response.content.decode()) == (method == "post")
