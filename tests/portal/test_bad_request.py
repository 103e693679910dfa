"""A post the portal cannot read (too large, too many fields, a broken multipart body) gets
the site's own page, marked as a failed request so the browser's copy of what was typed is
put back (site.js), never Django's bare "Bad Request (400)"."""

import pytest
from django.urls import reverse

from jobs import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def step_url(team_a, a_member):
    draft = services.create_draft(team=team_a, user=a_member)
    return reverse("job_step", args=[draft.pk, "work"])


def post_raw(client, url, body, content_type):
    return client.generic("POST", url, body, content_type=content_type)


@pytest.mark.parametrize(
    ("body", "content_type", "says"),
    [
        (
            b"name=" + b"x" * 3_000_000,
            "application/x-www-form-urlencoded",
            "larger than the portal accepts (2.5 MB)",
        ),
        (
            "&".join(f"f{i}=1" for i in range(1_100)).encode(),
            "application/x-www-form-urlencoded",
            "more fields than the portal accepts",
        ),
        (b'--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nzz', "multipart/form-data", ""),
    ],
    ids=["too-large", "too-many-fields", "no-boundary"],
)
def test_an_unreadable_post_gets_our_page_and_keeps_the_typing(
    client_for, a_member, step_url, body, content_type, says
):
    response = post_raw(client_for(a_member), step_url, body, content_type)
    assert response.status_code == 400
    page = response.content.decode()
    assert "data-request-failed" in page and "/static/portal/site.js" in page
    assert "nothing was saved" in page and says in page
    assert "Bad Request (400)" not in page


def test_an_anonymous_unreadable_post_gets_the_page_too(client):
    response = post_raw(
        client,
        reverse("login"),
        b"username=" + b"x" * 3_000_000,
        "application/x-www-form-urlencoded",
    )
    assert response.status_code == 400
    assert "data-request-failed" in response.content.decode()
