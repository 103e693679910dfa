"""The guided steps: saving, precision as you go, repeated groups, conflicts, expiry."""

import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from jobs import jobformat, services
from jobs.jobformat.units import parse_when
from jobs.models import JobDescription, JobStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(team_a, a_member):
    return services.create_draft(team=team_a, user=a_member)


def step_url(job, step):
    return reverse("job_step", args=[job.pk, step])


def test_every_step_renders_with_help_examples_and_units(client_for, draft, a_member):
    client = client_for(a_member)
    for step in ("work", "data", "request", "output", "review"):
        page = client.get(step_url(draft, step))
        assert page.status_code == 200, step
    page = client.get(step_url(draft, "request")).content.decode()
    assert "Unit: s, min, h, d, w, or HH:MM:SS" in page and "Example: <code>36h</code>" in page
    assert 'aria-current="step"' in page


def test_the_time_fields_help_shows_only_times_the_editor_reads(client_for, draft, a_member):
    page = client_for(a_member).get(step_url(draft, "request")).content.decode()
    assert "ISO 8601" not in page
    written = re.compile(
        r"\d{1,2} [A-Z][a-z]+ \d{4}|\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}(?:[+-]\d{2}:\d{2}| UTC)?)?"
    )
    for field in ("request-earliest-start", "request-deadline"):
        help_text = re.search(rf'id="f-{field}-help">(.*?)</div>', page, re.S)[1]
        assert "Time zone: UTC" in help_text and "Example: <code>" in help_text
        shown = written.findall(re.sub(r"<[^>]+>", "", help_text))
        assert len(shown) >= 5, shown
        for text in shown:
            parse_when(text)  # raises UnitError for a time the editor would refuse
    assert parse_when("2027-03-31 09:00+02:00") == datetime(2027, 3, 31, 7, tzinfo=UTC)
    assert parse_when("2027-03-04 09:00 UTC") == datetime(2027, 3, 4, 9, tzinfo=UTC)

    response = client_for(a_member).post(
        step_url(draft, "request"),
        {"version": draft.version, "request.deadline": "31 March 2027", "action": "save"},
    )
    page = client_for(a_member).get(step_url(draft, "request")).content.decode()
    assert response.status_code == 302 and "is not a date" not in page
    draft.refresh_from_db()
    assert parse_when(draft.data["request"]["deadline"]) == datetime(2027, 3, 31, tzinfo=UTC)


def test_next_saves_and_moves_on_and_bad_values_stay_with_their_message(
    client_for, draft, a_member
):
    client = client_for(a_member)
    response = client.post(
        step_url(draft, "request"),
        {
            "version": draft.version,
            "request.nodes": "eight",
            "request.estimate": "about 36h",
            "action": "next",
        },
    )
    assert response.status_code == 302 and response["Location"].endswith("/edit/output/")
    draft.refresh_from_db()
    assert draft.data["request"] == {"nodes": "eight", "estimate": "about 36h"}
    page = client.get(step_url(draft, "request")).content.decode()
    assert 'value="eight"' in page and 'value="about 36h"' in page
    assert "is not a number" in page and "approximate number" in page
    assert 'aria-invalid="true"' in page


def test_autosave_answers_with_the_fields_issues_out_of_band(client_for, draft, a_member):
    client = client_for(a_member)
    response = client.post(
        reverse("job_autosave", args=[draft.pk, "data"]),
        {
            "version": draft.version,
            "data.inputs.0.size": "a few TB",
            "data.inputs.0.location": "s3://x/",
        },
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="f-data-inputs-0-size-issues"' in html and 'hx-swap-oob="true"' in html
    assert "a vague count" in html
    assert f'value="{draft.version + 1}"' in html  # the new version goes back to the form
    assert "Saved at" in html


def test_real_time_work_shows_the_explanation(client_for, draft, a_member):
    client = client_for(a_member)
    client.post(
        step_url(draft, "work"),
        {"version": draft.version, "realtime.serves_requests": "true", "action": "save"},
    )
    page = client.get(step_url(draft, "work")).content.decode()
    assert "Not a network job." in page and "your own systems" in page


def test_groups_can_be_added_and_removed_in_place(client_for, draft, a_member):
    client = client_for(a_member)
    url = step_url(draft, "data")
    response = client.post(
        url, {"version": draft.version, "action": "add:data.inputs"}, headers={"HX-Request": "true"}
    )
    assert 'id="f-data-inputs-0"' in response.content.decode()
    draft.refresh_from_db()
    response = client.post(
        url,
        {
            "version": draft.version,
            "data.inputs.0.location": "s3://a/",
            "action": "add:data.inputs",
        },
        headers={"HX-Request": "true"},
    )
    draft.refresh_from_db()
    assert draft.data["data"]["inputs"] == [{"location": "s3://a/"}, {}]
    client.post(
        url,
        {
            "version": draft.version,
            "data.inputs.0.location": "s3://a/",
            "data.inputs.1.location": "s3://b/",
            "action": "remove:data.inputs.0",
        },
    )
    draft.refresh_from_db()
    assert draft.data["data"]["inputs"] == [{"location": "s3://b/"}]


def test_a_second_tab_is_told_and_nothing_is_overwritten(client_for, draft, a_member):
    client = client_for(a_member)
    stale = draft.version
    client.post(
        step_url(draft, "work"), {"version": stale, "work.summary": "First tab", "action": "save"}
    )
    response = client.post(
        step_url(draft, "work"), {"version": stale, "work.summary": "Second tab", "action": "save"}
    )
    assert response.status_code == 302 and response["Location"].endswith("/conflict/")
    draft.refresh_from_db()
    assert draft.data["work"]["summary"] == "First tab"
    page = client.get(response["Location"]).content.decode()
    assert "First tab" in page and "Second tab" in page
    client.post(response["Location"], {"keep": "mine"})
    draft.refresh_from_db()
    assert draft.data["work"]["summary"] == "Second tab"


def test_autosave_conflict_in_htmx_points_to_the_comparison(client_for, draft, a_member):
    client = client_for(a_member)
    client.post(
        step_url(draft, "work"), {"version": draft.version, "work.summary": "A", "action": "save"}
    )
    response = client.post(
        reverse("job_autosave", args=[draft.pk, "work"]),
        {"version": draft.version, "work.summary": "B"},
        headers={"HX-Request": "true"},
    )
    assert "changed elsewhere" in response.content.decode()


def test_a_post_after_the_session_expired_is_saved_after_login(client, client_for, draft, a_member):
    url = step_url(draft, "work")
    response = client.post(
        url, {"version": draft.version, "work.summary": "Typed while logged out", "action": "next"}
    )
    assert response.status_code == 302 and reverse("login") in response["Location"]
    client_for_session = client  # same browser: the session carries the stash through login
    client_for_session.force_login(a_member, backend="django.contrib.auth.backends.ModelBackend")
    page = client_for_session.get(url)
    assert "Typed while logged out" in page.content.decode()
    draft.refresh_from_db()
    assert draft.data["work"]["summary"] == "Typed while logged out"


def test_an_expired_session_on_autosave_redirects_htmx_to_login(client, draft):
    response = client.post(
        reverse("job_autosave", args=[draft.pk, "work"]),
        {"version": 1},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 204 and reverse("login") in response["HX-Redirect"]


def test_unknown_step_is_404(client_for, draft, a_member):
    assert client_for(a_member).get(step_url(draft, "sideways")).status_code == 404


def test_another_teams_draft_is_404_on_every_endpoint(client_for, draft, b_member):
    client = client_for(b_member)
    for url in (
        step_url(draft, "work"),
        reverse("job_autosave", args=[draft.pk, "work"]),
        reverse("job_conflict", args=[draft.pk]),
        reverse("job_delete", args=[draft.pk]),
    ):
        assert (
            client.post(
                url, {"version": 1, "work.summary": "x"}, headers={"HX-Request": "true"}
            ).status_code
            == 404
        )
    draft.refresh_from_db()
    assert draft.data == {}


def test_huge_and_hostile_values_are_refused_safely(client_for, draft, a_member):
    client = client_for(a_member)
    response = client.post(
        step_url(draft, "request"),
        {
            "version": "x",
            "request.nodes": "9" * 5000,
            "request.expected_accelerator_hours": "nan",
            "action": "save",
        },
    )
    assert response.status_code in (200, 302)
    response = client.post(
        step_url(draft, "data"), {"version": draft.version, "action": "remove:data.inputs.999"}
    )
    assert response.status_code == 302


def test_import_from_a_pasted_sbatch_script(client_for, team_a, a_member):
    client = client_for(a_member)
    text = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gres=gpu:a100:8\n#SBATCH --time=12:00:00\npython train.py\n"
    response = client.post(
        reverse("job_new"), {"team": team_a.pk, "text": text, "source_format": "auto"}
    )
    job = JobDescription.objects.get()
    assert response["Location"] == reverse("job_imported", args=[job.pk])
    page = client.get(response["Location"]).content.decode()
    assert (
        "Request › Nodes" in page and "missing_deadline" not in page and "Give a deadline" in page
    )
    assert job.data["request"]["maximum"] == "12:00:00"  # as the script wrote it


def test_the_import_page_shows_each_value_read_and_its_line(client_for, team_a, a_member):
    client = client_for(a_member)
    text = (
        "#!/bin/bash\n#SBATCH --job-name=masks-v7\n#SBATCH --nodes=4\n"
        "#SBATCH --gres=gpu:a100:8\n#SBATCH --partition=gpu\npython train.py\n"
    )
    response = client.post(
        reverse("job_new"), {"team": team_a.pk, "text": text, "source_format": "auto"}
    )
    page = client.get(response["Location"]).content.decode()
    nodes = page.index("<dt>Request › Nodes</dt>")
    row = page[nodes : page.index("</div>", nodes)]
    assert "<dd>4<" in row and "line 3: <code>#SBATCH --nodes=4</code>" in row
    assert "line 2: <code>#SBATCH --job-name=masks-v7</code>" in page
    assert "python train.py" in page  # the command, as the steps show it
    assert "--partition gpu" in page  # the notes, before the steps
    assert "request.nodes" not in page  # the form's words, not the file's keys


def test_import_of_unreadable_text_keeps_it_and_explains(client_for, team_a, a_member):
    response = client_for(a_member).post(
        reverse("job_new"), {"team": team_a.pk, "text": "run: [", "source_format": "auto"}
    )
    assert response.status_code == 400
    assert (
        "YAML cannot be read" in response.content.decode() and "run: [" in response.content.decode()
    )
    assert not JobDescription.objects.exists()


def test_import_refuses_another_teams_id(client_for, team_b, a_member):
    response = client_for(a_member).post(reverse("job_new"), {"team": team_b.pk, "text": ""})
    assert response.status_code == 400
    assert not JobDescription.objects.exists()


def test_delete_draft_asks_first(client_for, draft, a_member):
    client = client_for(a_member)
    url = reverse("job_delete", args=[draft.pk])
    assert "cannot be undone" in client.get(url).content.decode()
    client.post(url)
    assert not JobDescription.objects.filter(pk=draft.pk).exists()


def test_dashboard_groups_by_status_with_constant_queries(
    client_for, team_a, a_member, django_assert_num_queries
):
    client = client_for(a_member)
    services.create_draft(team=team_a, user=a_member, data={"name": "one"})
    client.get(reverse("job_list"))
    with django_assert_num_queries(5) as first:
        client.get(reverse("job_list"))
    baseline = len(first)  # read now: the query log is a bounded deque
    for i in range(10):
        job = services.create_draft(
            team=team_a, user=a_member, data={**jobformat.example_data(), "name": f"j{i}"}
        )
        services.submit(job=job, user=a_member)
        services.add_comment(job=job, author=a_member, body="hello")
    with django_assert_num_queries(baseline):
        response = client.get(reverse("job_list"))
    # As a name between tags: a random token on the page may contain "j9" too.
    assert len(re.findall(r">\s*j9\s*<", response.content.decode())) == 1
    assert JobStatus.IN_REVIEW.label in response.content.decode()


def _status_count(page, status):
    return re.search(rf"{status.label} <span class=\"muted\">\((\d+)\)</span>", page).group(1)


def test_the_status_counts_follow_writes_and_stay_with_the_team(
    client_for, team_a, team_b, a_member, b_member, staff
):
    """The counts' SQL is compiled once per set of teams: the numbers are still read on
    every visit, and another team's jobs never count."""
    services.create_draft(team=team_b, user=b_member, data={"name": "theirs"})
    client = client_for(a_member)
    page = client.get(reverse("job_list")).content.decode()
    assert _status_count(page, JobStatus.DRAFT) == "0"
    services.create_draft(team=team_a, user=a_member, data={"name": "ours"})
    page = client.get(reverse("job_list")).content.decode()
    assert _status_count(page, JobStatus.DRAFT) == "1"
    page = client.get(reverse("job_list") + f"?team={team_a.slug}").content.decode()
    assert _status_count(page, JobStatus.DRAFT) == "1"
    page = client_for(staff).get(reverse("job_list")).content.decode()
    assert _status_count(page, JobStatus.DRAFT) == "2"
    page = client_for(staff).get(reverse("job_list") + f"?team={team_b.slug}").content.decode()
    assert _status_count(page, JobStatus.DRAFT) == "1"


def test_a_step_reads_the_job_once_and_the_same_however_many_fields(
    client_for, team_a, a_member, staff, django_assert_num_queries
):
    job = services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    client = client_for(a_member)
    url = reverse("job_step", args=[job.pk, "data"])
    client.get(url)
    # Session, user, memberships, the job (not read again when nothing waited to be saved),
    # whether it was ever submitted (nothing seen yet on this draft), its comments.
    with django_assert_num_queries(6):
        assert client.get(url).status_code == 200
    data = jobformat.example_data()
    data["data"]["inputs"] = data["data"]["inputs"] * 5
    JobDescription.objects.filter(pk=job.pk).update(data=data)
    for i in range(4):
        services.add_comment(job=job, author=staff, body=f"Size {i}?", anchor="data.inputs.N.size")
    with django_assert_num_queries(6):
        page = client.get(url).content.decode()
    assert "4 comments on this field" in page and "Remove input 5" in page
