"""Staff read a revision on one page; the dashboard shows each run's phase and what waits
on the person; smaller things a new user tripped over."""

import pytest
from django.urls import reverse

from jobs import jobformat, services
from jobs.models import JobStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def submitted(team_a, a_member):
    job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    services.submit(job=job, user=a_member)
    job.refresh_from_db()
    return job


def test_revision_one_is_a_description_with_issues_talk_and_the_decision(
    client_for, submitted, a_member, staff
):
    services.add_comment(job=submitted, author=a_member, body="Sizes are compressed.")
    page = (
        client_for(staff).get(reverse("revision_detail", args=[submitted.pk, 1])).content.decode()
    )
    assert "What changed since" not in page and "Everything in the first revision" not in page
    assert "The description" in page
    assert "Kind" in page and "footage processing" in page
    assert "Precision check" in page and "Sizes are compressed." in page
    assert "Record the review" in page and "data-print" in page


def test_the_team_reads_it_without_the_decision_form(client_for, submitted, a_member):
    page = (
        client_for(a_member)
        .get(reverse("revision_detail", args=[submitted.pk, 1]))
        .content.decode()
    )
    assert "The description" in page and "Record the review" not in page


def test_read_the_description_opens_the_read_page_not_the_wizard(client_for, submitted, staff):
    page = client_for(staff).get(reverse("job_detail", args=[submitted.pk])).content.decode()
    assert (
        f'href="{reverse("revision_detail", args=[submitted.pk, 1])}">Read the description' in page
    )


def test_a_later_revision_shows_its_changes_and_the_whole_description(
    client_for, submitted, a_member, staff
):
    services.review(
        revision=submitted.revisions.get(),
        reviewer=staff,
        outcome="clarify",
        note="Size?",
        fields=["data.inputs.0.size"],
    )
    submitted.refresh_from_db()
    data = dict(submitted.data)
    data["data"] = {**data["data"], "stage_before_rent": False}
    services.save_draft(
        job=submitted, user=a_member, parts={"data": data["data"]}, version=submitted.version
    )
    services.submit(job=submitted, user=a_member)
    page = (
        client_for(staff).get(reverse("revision_detail", args=[submitted.pk, 2])).content.decode()
    )
    assert "What changed since revision 1" in page and "The whole description" in page
    assert "Data › Data can be staged before compute is rented" in page  # in the summary
    assert 'No <span class="was">changed from <del>Yes</del></span>' in page


def test_withdraw_asks_first(client_for, submitted, a_member):
    client = client_for(a_member)
    asked = client.post(reverse("job_withdraw", args=[submitted.pk]))
    assert asked.status_code == 200 and "Yes, withdraw it from review" in asked.content.decode()
    submitted.refresh_from_db()
    assert submitted.status == JobStatus.IN_REVIEW
    client.post(reverse("job_withdraw", args=[submitted.pk]), {"confirm": "1"})
    submitted.refresh_from_db()
    assert submitted.status == JobStatus.DRAFT


def test_the_imported_file_is_viewable(client_for, team_a, a_member):
    text = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --time=12:00:00\npython train.py\n"
    job, _, _ = services.import_draft(
        team=team_a, user=a_member, text=text, filename="train.sbatch"
    )
    page = client_for(a_member).get(reverse("job_detail", args=[job.pk])).content.decode()
    assert "The imported file, train.sbatch" in page and "#SBATCH --nodes=2" in page


def test_dashboard_says_what_waits_on_the_person(client_for, team_a, a_member, staff, submitted):
    services.review(
        revision=submitted.revisions.get(),
        reviewer=staff,
        outcome="clarify",
        note="?",
        fields=["data.inputs.0.size"],
    )
    page = client_for(a_member).get(reverse("job_list")).content.decode()
    assert "Needs your action" in page and "staff asked you to clarify" in page
    staff_page = client_for(staff).get(reverse("job_list")).content.decode()
    assert "Needs your action" not in staff_page or "waits for your review" not in staff_page


def test_dashboard_draws_each_runs_phase(client_for, team_a, a_member, staff, submitted):
    services.review(revision=submitted.revisions.get(), reviewer=staff, outcome="accepted")
    page = client_for(a_member).get(reverse("job_list")).content.decode()
    assert 'class="phase-strip"' in page and 'role="img"' in page
    assert "Submit now, Rent to come" in page


def test_an_accepted_job_not_yet_run_has_no_negative_gap(client_for, submitted, a_member, staff):
    services.review(revision=submitted.revisions.get(), reviewer=staff, outcome="accepted")
    page = client_for(a_member).get(reverse("job_detail", args=[submitted.pk])).content.decode()
    assert "h against expected" not in page
    assert "-1200" not in page and "−1200" not in page
