"""A stale form (another tab logged in or out) gets the site's own answer, never Django's bare page."""

from django.test import Client
from django.urls import reverse

from jobs import services
from tests.users import log_in


def test_a_stale_page_post_gets_our_page_with_a_way_back(team_a, a_member):
    draft = services.create_draft(team=team_a, user=a_member)
    client = Client(enforce_csrf_checks=True)
    log_in(client, a_member)
    step = reverse("job_step", args=[draft.pk, "work"])
    response = client.post(
        step,
        {"work.summary": "typed", "csrfmiddlewaretoken": "stale" * 8},
        headers={"Referer": f"http://testserver{step}"},
    )
    assert response.status_code == 403
    page = response.content.decode()
    assert "This page was out of date, so nothing was saved" in page
    assert f'href="{step}"' in page and "data-request-failed" in page
    assert "CSRF verification failed" not in page


def test_a_foreign_referer_is_not_offered_as_the_way_back(a_member):
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("logout"), headers={"Referer": "https://evil.example/x"})
    assert response.status_code == 403
    assert "evil.example" not in response.content.decode()


def test_a_stale_htmx_request_is_marked_for_the_script(team_a, a_member):
    draft = services.create_draft(team=team_a, user=a_member)
    client = Client(enforce_csrf_checks=True)
    log_in(client, a_member)
    response = client.post(
        reverse("job_autosave", args=[draft.pk, "work"]),
        {"work.summary": "typed"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 403 and response["X-Portal-Reason"] == "csrf"
    draft.refresh_from_db()
    assert "work" not in draft.data


def test_a_buttons_address_opened_as_a_page_gets_our_page_with_the_way_to_the_button(
    client_for, team_a, a_member
):
    # Withdraw while logged out (another tab logged out): the login page goes back to
    # ?next=/jobs/N/withdraw/, a GET, which answered a blank 405 (the browser's own error).
    job = services.create_draft(team=team_a, user=a_member)
    client = client_for(a_member)
    response = client.get(reverse("job_withdraw", args=[job.pk]))
    assert response.status_code == 405 and response["Allow"] == "POST"
    page = response.content.decode()
    assert "Nothing was done: this address belongs to a button" in page
    assert f'<a href="/jobs/{job.pk}/">Go to the page</a>' in page
    # The API keeps its own JSON answers.
    api = client.get("/api/v1/spec/validate")
    assert api.status_code == 405 and "Nothing was done" not in api.content.decode()
