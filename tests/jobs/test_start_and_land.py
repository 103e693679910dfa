"""Issue 31, item 9: start and land where people expect. "Start from scratch" is a button
(with the job's name if they have one); an import needs a file; an unnamed draft is numbered
in its team, not after an id over every team; a partner lands on their jobs after logging in,
staff on the home page; intake is announced on the design-partners page only."""

import pytest
from django.urls import reverse

from jobs import services
from jobs.models import JobDescription
from tests.portal.intake.intake_helpers import make_window
from tests.users import PASSWORD

pytestmark = pytest.mark.django_db


def test_start_from_scratch_is_a_button_with_an_optional_name(client_for, team_a, a_member):
    client = client_for(a_member)
    page = client.get(reverse("job_new")).content.decode()
    assert '<button type="submit" name="scratch" value="1">Start from scratch</button>' in page
    response = client.post(
        reverse("job_new"), {"scratch": "1", "team": team_a.pk, "name": "masks v8"}
    )
    job = JobDescription.objects.get()
    assert response["Location"] == reverse("job_step", args=[job.pk, "work"])
    assert job.name == "masks v8" and job.team == team_a


def test_an_import_without_a_file_says_so_and_creates_nothing(client_for, team_a, a_member):
    response = client_for(a_member).post(
        reverse("job_new"), {"team": team_a.pk, "source_format": "auto"}
    )
    assert response.status_code == 400
    assert "Choose a file or paste its text" in response.content.decode()
    assert not JobDescription.objects.exists()


def test_an_unnamed_draft_is_numbered_in_its_team(client_for, team_a, team_b, a_member, b_member):
    for _ in range(3):
        services.create_draft(team=team_b, user=b_member)
    client = client_for(a_member)
    client.post(reverse("job_new"), {"scratch": "1", "team": team_a.pk})
    client.post(reverse("job_new"), {"scratch": "1", "team": team_a.pk})
    first, second = JobDescription.objects.filter(team=team_a).order_by("pk")
    assert (str(first), str(second)) == ("Untitled job 1", "Untitled job 2")
    page = client.get(reverse("job_list")).content.decode()
    assert "Untitled job 2" in page and f"Untitled job {second.pk}" not in page


def _log_in(client, user):
    return client.post(reverse("login"), {"username": user.email, "password": PASSWORD})


def test_a_partner_lands_on_their_jobs_staff_on_the_home_page(client, a_member, staff):
    assert _log_in(client, a_member)["Location"] == reverse("job_list")
    client.logout()
    assert _log_in(client, staff)["Location"] == reverse("home")
    client.logout()
    response = client.post(
        reverse("login") + "?next=/findings/", {"username": a_member.email, "password": PASSWORD}
    )
    assert response["Location"] == "/findings/"


def test_intake_is_announced_on_the_design_partners_page_only(client):
    make_window(announcement="We take three teams this spring.")
    home = client.get(reverse("home")).content.decode()
    assert "We take three teams this spring." not in home
    assert reverse("design_partners") in home
    page = client.get(reverse("design_partners")).content.decode()
    assert "We take three teams this spring." in page
