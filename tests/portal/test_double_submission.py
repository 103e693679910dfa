"""A double click made two comments, two findings, two notes; two staff creating the same
team or scheduler client at once gave an IntegrityError 500 (issue 11, item 7). Every form
that creates something carries one submission token (portal/submissions.py): the same form
sent twice makes one object and the second answer is the friendly one; a name taken by a
racing request is a message on the field. CI runs these on PostgreSQL."""

import re
import threading
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from findings.models import Finding, FindingNote
from jobs import jobformat
from jobs import services as job_services
from jobs.models import Comment, JobDescription
from jobs.runs import services as run_services
from jobs.runs.models import SchedulerClient
from portal.models import Team
from tests.findings.helpers import file as file_finding
from tests.users import log_in

TOKEN = "submission_token"


def _comment(f):
    job = job_services.create_draft(
        team=f["team_a"], user=f["a_member"], data=jobformat.example_data()
    )
    url = reverse("comment_create", args=[job.pk])
    return "a_member", url, {"body": "Before or after compression?"}, Comment.objects.all()


def _reply(f):
    job = job_services.create_draft(
        team=f["team_a"], user=f["a_member"], data=jobformat.example_data()
    )
    first = job_services.add_comment(job=job, author=f["staff"], body="Which bucket?")
    data = {"body": "The footage one.", "parent": first.pk}
    return "a_member", reverse("comment_create", args=[job.pk]), data, first.replies.all()


def _finding(f):
    data = {"kind": "other", "title": "Staging was slow", "impact": "costs_time",
            "summary": "Typed.", "what_happened": "x", "what_expected": "y"}  # fmt: skip
    return "a_member", reverse("finding_new"), data, Finding.objects.all()


def _information(f):
    finding = file_finding(f["team_a"], f["a_member"])
    url = reverse("finding_information", args=[finding.pk])
    return "a_member", url, {"body": "It was the eu bucket."}, FindingNote.objects.all()


def _staff_note(f):
    finding = file_finding(f["team_a"], f["a_member"])
    data = {"body": "Which bucket?", "visibility": "response", "version": finding.version}
    url = reverse("staff_finding_note", args=[finding.pk])
    return "staff", url, data, FindingNote.objects.all()


def _team(f):
    data = {"name": "Twice Vision", "organisation": "T", "admin_email": "first@t.example"}
    return "staff", reverse("staff_teams"), data, Team.objects.filter(name="Twice Vision")


def _client(f):
    data = {"name": "eu-west"}
    return "staff", reverse("scheduler_clients"), data, SchedulerClient.objects.all()


def _new_job(f):
    data = {"team": f["team_a"].pk, "scratch": "1"}
    return "a_member", reverse("job_new"), data, JobDescription.objects.all()


def _imported_job(f):
    data = {"team": f["team_a"].pk, "source_format": "sbatch", "text": "#SBATCH -N 2\nsrun x\n"}
    return "a_member", reverse("job_new"), data, JobDescription.objects.all()


FORMS = {
    "new job": _new_job,
    "imported job": _imported_job,
    "comment": _comment,
    "reply": _reply,
    "finding": _finding,
    "finding information": _information,
    "staff answer": _staff_note,
    "staff create a team": _team,
    "staff create a scheduler client": _client,
}


@pytest.mark.django_db
@pytest.mark.parametrize("name", list(FORMS))
def test_the_same_form_sent_twice_makes_one(name, client_for, team_a, a_member, staff):
    who, url, data, made = FORMS[name]({"team_a": team_a, "a_member": a_member, "staff": staff})
    client = client_for({"a_member": a_member, "staff": staff}[who])
    data = {**data, TOKEN: str(uuid.uuid4())}
    first = client.post(url, data)
    assert first.status_code in (200, 302), first.content.decode()[:1000]
    second = client.post(url, data)
    assert made.count() == 1
    # The friendly answer: where the first one went (or the same page, saying so), no error.
    assert second.status_code in (200, 302), second.content.decode()[:1000]
    if first.status_code == 302:
        assert second.status_code == 302
        assert second["Location"].split("#")[0] == first["Location"].split("#")[0] or (
            name == "staff create a scheduler client"
        )
    # A new page (a new token) makes a second one: the token is not a uniqueness rule on text.
    # (Names are unique anyway; a staff answer names the finding's version, now older.)
    if name not in ("staff create a team", "staff create a scheduler client", "staff answer"):
        client.post(url, {**data, TOKEN: str(uuid.uuid4())})
        assert made.count() == 2


@pytest.mark.django_db
def test_a_repeated_scheduler_client_form_says_the_token_was_shown_once(client_for, staff):
    client = client_for(staff)
    data = {"name": "eu-west", TOKEN: str(uuid.uuid4())}
    first = client.post(reverse("scheduler_clients"), data).content.decode()
    [token] = set(re.findall(r"e31s_[\w-]{40,}", first))
    page = client.post(reverse("scheduler_clients"), data, follow=True).content.decode()
    assert "already created by this form" in page and token not in page


@pytest.mark.django_db
def test_a_token_from_another_persons_page_finds_nothing_of_theirs(
    client_for, team_a, a_member, b_member, staff
):
    job = job_services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    token = uuid.uuid4()
    job_services.add_comment(job=job, author=staff, body="Mine.", submission_token=token)
    # a_member sends the same token: it is not staff's comment that comes back.
    response = client_for(a_member).post(
        reverse("comment_create", args=[job.pk]), {"body": "Theirs.", TOKEN: str(token)}
    )
    assert response.status_code == 400
    assert "already sent" in response.content.decode()
    assert list(Comment.objects.values_list("body", flat=True)) == ["Mine."]


# --- Races: the conflicting row arrives between the check and the insert ----------------


@pytest.mark.django_db
def test_a_team_created_meanwhile_is_a_message_not_a_500(client_for, staff, monkeypatch):
    real = Team.unique_slug_for

    def another_staff_member_wins(name):
        slug = real(name)
        Team.objects.create(name=name, slug=slug)  # committed by the other request
        return slug

    monkeypatch.setattr(Team, "unique_slug_for", staticmethod(another_staff_member_wins))
    data = {"name": "Race Vision", "admin_email": "r@r.example", TOKEN: str(uuid.uuid4())}
    response = client_for(staff).post(reverse("staff_teams"), data)
    assert response.status_code == 400
    assert "already exists" in " ".join(response.context["form"].errors["name"])
    # (The other request's team was written in this request's transaction here, so it went
    # with the refusal's rollback; nothing of this request's was kept either.)
    assert not Team.objects.filter(name="Race Vision").exists()


@pytest.mark.django_db
def test_a_scheduler_client_created_meanwhile_is_a_message_not_a_500(
    client_for, staff, monkeypatch
):
    real = run_services.hash_token

    def another_staff_member_wins(token):
        SchedulerClient.objects.create(name="eu-west", token_hash="x" * 64, token_prefix="x")
        return real(token)

    monkeypatch.setattr(run_services, "hash_token", another_staff_member_wins)
    response = client_for(staff).post(
        reverse("scheduler_clients"), {"name": "eu-west", TOKEN: str(uuid.uuid4())}
    )
    assert response.status_code == 400
    assert "already exists" in response.content.decode()
    assert not SchedulerClient.objects.exists()  # (the other's went with the rollback, as above)


def _at_once(n, send):
    """Run `send(i)` in n threads released together; each closes its own connection."""
    barrier = threading.Barrier(n)
    results = [None] * n

    def run(i):
        try:
            barrier.wait()
            results[i] = send(i)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


@pytest.mark.skipif(connection.vendor != "postgresql", reason="real concurrency: PostgreSQL (CI)")
@pytest.mark.django_db(transaction=True)
def test_two_clicks_at_once_on_postgresql_make_one_comment(team_a, a_member):
    job = job_services.create_draft(team=team_a, user=a_member, data=jobformat.example_data())
    data = {"body": "Twice at once?", TOKEN: str(uuid.uuid4())}

    def send(i):
        client = Client()
        log_in(client, a_member)
        return client.post(reverse("comment_create", args=[job.pk]), data).status_code

    assert _at_once(2, send) == [302, 302]
    assert Comment.objects.count() == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="real concurrency: PostgreSQL (CI)")
@pytest.mark.django_db(transaction=True)
def test_two_staff_creating_one_team_at_once_on_postgresql(staff):
    def send(i):
        client = Client()
        log_in(client, staff)
        data = {"name": "Same Name", "admin_email": f"a{i}@s.example", TOKEN: str(uuid.uuid4())}
        return client.post(reverse("staff_teams"), data).status_code

    assert sorted(_at_once(2, send)) in ([302, 400], [302, 302])
    assert Team.objects.filter(name="Same Name").count() == 1
