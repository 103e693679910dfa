"""A way out for a team's data (portal/team_archive.py): the export as a ZIP archive, and
the erasure at the program's end that keeps the published figures."""

import io
import json
import re
import zipfile

import pytest
from axes.models import AccessLog
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from findings import services as finding_services
from findings.counts import recount_problems
from findings.demo import load_findings
from findings.insights import services as insights
from findings.insights.demo import load_program_history
from findings.models import (
    EvidenceSnapshot,
    Finding,
    FindingNote,
    FindingStatus,
    NoteVisibility,
    UnsolvedProblem,
)
from jobs import jobformat
from jobs import services as job_services
from jobs.demo import load_jobs
from jobs.models import Comment, JobDescription, Revision
from jobs.runs import simulator
from jobs.runs.models import Event, Hold, Run
from portal import services, team_archive
from portal.errors import DomainError
from portal.management.commands.load_demo import Command
from portal.models import Membership, Notice, OutboundEmail, Role, Team, TeamErasure, User
from tests.findings.helpers import accepted_job
from tests.findings.helpers import file as file_finding

SBATCH = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --time=12:00:00\npython train.py\n"
PROBLEM = "getting-data-to-compute"


def archive_of(response):
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert "no-store" in response["Cache-Control"]
    return zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))


def records(archive, name):
    return json.loads(archive.read(name))


@pytest.fixture
def busy_team(team_a, a_admin, a_member, staff):
    """Team A with one of each kind of record."""
    job = accepted_job(team_a, a_member, staff)  # a run played: events and holds
    job_services.add_comment(job=job, author=a_member, body="Does staging start early?")
    job_services.add_comment(job=job, author=staff, body="Yes, an hour before.")
    # Imported from a file, then completed and submitted: the revision keeps the file.
    data = jobformat.example_data()
    data["source"] = {"format": "sbatch", "filename": "../../etc/train.sbatch", "text": SBATCH}
    imported = job_services.create_draft(team=team_a, user=a_member, data=data)
    job_services.submit(job=imported, user=a_member, acknowledge_warnings=True)
    draft, _, _ = job_services.import_draft(
        team=team_a, user=a_member, text=SBATCH.replace("2", "4"), filename="/abs/four.sh"
    )
    services.invite(team=team_a, email="new@a.example", role="member", invited_by=a_admin)
    finding = file_finding(team_a, a_member, job=job, title="Staging took all night")
    finding_services.change_status(
        finding=finding,
        actor=staff,
        to_status=FindingStatus.TRIAGED,
        problems=[UnsolvedProblem.objects.get(slug=PROBLEM)],
    )
    finding.refresh_from_db()
    finding_services.add_note(
        finding=finding,
        author=staff,
        visibility=NoteVisibility.RESPONSE,
        body="We see it too.",
        expected_version=finding.version,
    )
    finding.refresh_from_db()
    finding_services.add_note(
        finding=finding,
        author=staff,
        visibility=NoteVisibility.INTERNAL,
        body="STAFF-ONLY: their storage is slow.",
        expected_version=finding.version,
    )
    return {"job": job, "imported": imported, "draft": draft, "finding": finding}


# --- Who may download and erase ----------------------------------------------------------


@pytest.mark.parametrize(
    "who, expected",
    [("a_admin", 200), ("a_member", 403), ("b_member", 404), ("staff", 200), (None, 302)],
)
def test_who_may_download(client_for, team_a, request, who, expected, a_admin, a_member, b_member):
    user = request.getfixturevalue(who) if who else None
    response = client_for(user).get(reverse("team_export", args=[team_a.slug]))
    assert response.status_code == expected


def test_the_download_is_offered_to_admins_only(client_for, team_a, a_admin, a_member):
    url = reverse("team_export", args=[team_a.slug])
    assert url in client_for(a_admin).get(reverse("team_detail", args=[team_a.slug])).text
    assert url not in client_for(a_member).get(reverse("team_detail", args=[team_a.slug])).text


@pytest.mark.parametrize("who", ["a_admin", "a_member", "b_member"])
def test_only_staff_may_erase(client_for, team_a, request, who, a_admin, a_member, b_member):
    client = client_for(request.getfixturevalue(who))
    url = reverse("staff_team_erase", args=[team_a.slug])
    assert client.get(url).status_code == 403
    assert client.post(url, {"confirm_name": team_a.name}).status_code == 403
    assert Team.objects.filter(pk=team_a.pk).exists()


def test_anonymous_is_sent_to_log_in(client, team_a):
    response = client.post(
        reverse("staff_team_erase", args=[team_a.slug]), {"confirm_name": team_a.name}
    )
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert Team.objects.filter(pk=team_a.pk).exists()


def test_a_wrong_name_erases_nothing(client_for, team_a, a_member, staff):
    response = client_for(staff).post(
        reverse("staff_team_erase", args=[team_a.slug]), {"confirm_name": "team a"}
    )
    assert response.status_code == 400
    assert "One thing needs fixing" in response.text and "exactly" in response.text
    assert Team.objects.filter(pk=team_a.pk).exists() and not TeamErasure.objects.exists()


def test_the_service_checks_the_name_too(team_a, staff):
    with pytest.raises(DomainError):
        team_archive.erase(team=team_a, erased_by=staff, confirm_name="Team B")


# --- What the archive holds --------------------------------------------------------------


def test_the_archive_holds_every_kind_of_record(
    client_for, busy_team, team_a, team_b, a_admin, b_member
):
    other = file_finding(team_b, b_member, title="Another team's own trouble")
    response = client_for(a_admin).get(reverse("team_export", args=[team_a.slug]))
    archive = archive_of(response)
    names = archive.namelist()
    assert names[0] == "README.txt"
    readme = archive.read("README.txt").decode()
    for name in names:
        assert not name.startswith("/") and ".." not in name.split("/")
        if not name.startswith(("imports/", "README")):
            assert name in readme
    assert records(archive, "team.json")["name"] == "Team A"
    assert {m["email"] for m in records(archive, "members.json")} == {
        "admin@a.example",
        "member@a.example",
    }
    assert [i["email"] for i in records(archive, "invitations.json")] == ["new@a.example"]
    jobs = {j["id"]: j for j in records(archive, "jobs.json")}
    draft = busy_team["draft"]
    assert set(jobs) == {busy_team["job"].pk, busy_team["imported"].pk, draft.pk}
    revisions = records(archive, "revisions.json")
    assert len(revisions) == Revision.objects.filter(job__team=team_a).count() == 2
    assert records(archive, "reviews.json")[0]["outcome"] == "accepted"
    assert records(archive, "job_history.json")
    assert [c["body"] for c in records(archive, "comments.json")] == [
        "Does staging start early?",
        "Yes, an hour before.",
    ]
    runs = records(archive, "runs.json")
    assert [r["job_id"] for r in runs] == [busy_team["job"].pk]
    assert (
        len(records(archive, "run_events.json"))
        == Event.objects.filter(run__job__team=team_a).count()
        > 0
    )
    assert (
        len(records(archive, "run_holds.json"))
        == Hold.objects.filter(run__job__team=team_a).count()
        > 0
    )
    assert records(archive, "run_dispatches.json") == []
    findings = records(archive, "findings.json")
    assert [f["title"] for f in findings] == ["Staging took all night"]
    assert findings[0]["problems"][0]["slug"] == PROBLEM
    assert records(archive, "finding_evidence.json")
    assert [c["to_status"] for c in records(archive, "finding_history.json")][-1] == "triaged"
    assert [n["body"] for n in records(archive, "finding_notes.json")] == ["We see it too."]
    assert records(archive, "notices.json")
    # The imported file as it was, under a name that stays inside the archive.
    imported = busy_team["imported"]
    file_name = f"imports/{imported.pk}-r1-train.sbatch"
    assert archive.read(file_name).decode() == SBATCH
    revision = next(r for r in revisions if r["job_id"] == imported.pk)
    assert revision["data"]["source"] == {
        "format": "sbatch",
        "filename": "../../etc/train.sbatch",
        "file": file_name,
    }
    assert jobs[imported.pk]["data"]["source"]["file"] == file_name  # written once
    assert archive.read(f"imports/{draft.pk}-draft-four.sh").decode() == SBATCH.replace("2", "4")
    # Nothing of another team, nor staff's internal notes.
    everything = b"".join(archive.read(n) for n in names)
    assert b"STAFF-ONLY" not in everything
    assert b"Team B" not in everything and b"member@b.example" not in everything
    assert other.title.encode() not in everything


def test_safe_names_stay_in_their_folder():
    assert team_archive.safe_name("../../etc/passwd") == "passwd"
    assert team_archive.safe_name("C:\\Users\\x\\job.sh") == "job.sh"
    assert team_archive.safe_name("/abs/..") == "file"
    assert team_archive.safe_name("ünï côde job.yaml") == "n-c-de-job.yaml"
    assert team_archive.safe_name(None) == "file"


# --- Erasure, end to end -----------------------------------------------------------------


def _public_pages():
    """The public problem pages as an anonymous visitor reads them (nothing cached)."""
    cache.clear()
    client = Client()
    pages = (reverse("problem_detail", args=[PROBLEM]), reverse("problem_list"))
    # Each response has its own script nonce and CSRF token: the rest is compared.
    unique = re.compile(r'nonce="[^"]*"|"X-CSRFToken": "[^"]*"')
    return [unique.sub("", client.get(url).text).splitlines() for url in pages]


def test_export_then_erase_keeps_the_published_figures(
    client_for, busy_team, team_a, team_b, a_admin, a_member, b_member, staff, make_user
):
    # Two more teams back the problem, so its public figures show (three teams at least).
    problem = UnsolvedProblem.objects.get(slug=PROBLEM)
    team_c = Team.objects.create(name="Team C", slug="team-c")
    c_member = make_user("member@c.example", team=team_c)
    for team, person in ((team_b, b_member), (team_c, c_member)):
        accepted_job(team, person, staff)
        finding = file_finding(team, person)
        finding_services.change_status(
            finding=finding, actor=staff, to_status=FindingStatus.TRIAGED, problems=[problem]
        )
    # A member of Team A who is in Team B too, and staff in Team A: both stay.
    both = make_user("both@a.example", team=team_a)
    Membership.objects.create(team=team_b, user=both)
    Membership.objects.create(team=team_a, user=staff, role=Role.ADMIN)
    for address in ("member@a.example", "both@a.example"):
        AccessLog.objects.create(username=address, ip_address="192.0.2.1", user_agent="test")
    insights.recompute()
    problem.refresh_from_db()
    counts = (problem.finding_count, problem.team_count)
    assert counts == (3, 3)
    figures = insights.current().figures
    public = insights.public_figures()
    before = _public_pages()
    assert any("3 findings from 3 teams" in line for line in before[0])

    archive = archive_of(client_for(a_admin).get(reverse("team_export", args=[team_a.slug])))
    assert "Staging took all night" in archive.read("findings.json").decode()

    staff_client = client_for(staff)
    url = reverse("staff_team_erase", args=[team_a.slug])
    page = staff_client.get(url).text
    assert "member@a.example" in page and "account deleted" in page
    assert "Jobs: 3" in page and "Findings: 1" in page and "People: 2" in page
    response = staff_client.post(url, {"confirm_name": "Team A"})
    assert response.status_code == 302 and response["Location"] == reverse("staff_teams")

    assert not Team.objects.filter(pk=team_a.pk).exists()
    assert not User.objects.filter(email__in=["admin@a.example", "member@a.example"]).exists()
    assert User.objects.filter(pk=both.pk).exists() and User.objects.filter(pk=staff.pk).exists()
    assert list(both.memberships.values_list("team__slug", flat=True)) == ["team-b"]
    assert not JobDescription.objects.filter(team_id=team_a.pk).exists()
    assert not Run.objects.filter(job__team_id=team_a.pk).exists()
    assert not Comment.objects.filter(job__team_id=team_a.pk).exists()
    assert not Finding.objects.filter(team_id=team_a.pk).exists()
    assert not FindingNote.objects.filter(finding__team_id=team_a.pk).exists()
    assert not EvidenceSnapshot.objects.filter(finding__team_id=team_a.pk).exists()
    assert not Notice.objects.filter(team_id=team_a.pk).exists()
    assert not OutboundEmail.objects.filter(to__in=["member@a.example", "new@a.example"]).exists()
    assert not AccessLog.objects.filter(username="member@a.example").exists()
    assert AccessLog.objects.filter(username="both@a.example").exists()
    # Team B's data is untouched.
    assert Finding.objects.filter(team=team_b).count() == 1
    assert JobDescription.objects.filter(team=team_b).count() == 1

    erasure = TeamErasure.objects.get()
    assert (erasure.team_name, erasure.team_slug, erasure.erased_by) == ("Team A", "team-a", staff)
    assert erasure.counts["jobs"] == 3 and erasure.counts["findings"] == 1
    assert erasure.counts["people"] == 2 and erasure.counts["comments"] == 2
    listing = staff_client.get(reverse("staff_teams")).text
    assert "Erased teams" in listing and "Team A" in listing and "jobs: 3" in listing

    # The published figures, as they were; and after the beat's recompute and a recount.
    insights.recompute()
    recount_problems()
    problem.refresh_from_db()
    assert (problem.finding_count, problem.team_count) == counts
    assert insights.current().figures == figures
    assert insights.public_figures() == public
    for was, now in zip(before, _public_pages(), strict=True):
        assert now == was


def test_erasing_twice_is_refused(team_a, a_admin, staff):
    team_archive.erase(team=team_a, erased_by=staff, confirm_name="Team A")
    with pytest.raises(DomainError):
        team_archive.erase(team=team_a, erased_by=staff, confirm_name="Team A")
    assert TeamErasure.objects.count() == 1


def test_erasure_takes_the_team_off_staff_badges(team_a, a_member, staff, accepted):
    job_services.add_comment(job=accepted, author=a_member, body="Anyone there?")
    staff.refresh_from_db()
    assert staff.unread_comments == 1
    team_archive.erase(team=team_a, erased_by=staff, confirm_name="Team A")
    staff.refresh_from_db()
    assert staff.unread_comments == 0


def test_simulated_runs_leave_with_the_team(team_a, a_member, staff, accepted):
    simulator.play_now(accepted.run)
    team_archive.erase(team=team_a, erased_by=staff, confirm_name="Team A")
    assert not Event.objects.exists() and not Hold.objects.exists()


def test_recompute_now_says_the_figures_are_frozen(client_for, team_a, staff):
    team_archive.erase(team=team_a, erased_by=staff, confirm_name="Team A")
    response = client_for(staff).post(reverse("staff_insights_recompute"), follow=True)
    assert "kept as they stood when a team" in response.text


def test_the_demo_exports_and_erases(db, client_for):
    """Every kind of record the demo holds (dispatches, imported files, revised jobs) goes
    into Northwind's archive, and the team erases cleanly, keeping Helio Sims."""
    teams, users = Command().load_accounts()
    for load in (load_jobs, load_findings, load_program_history):
        load(teams=teams, users=users)
    northwind = Team.objects.get(name="Northwind Vision")
    admin = User.objects.get(email="ada@northwind.example")
    archive = archive_of(client_for(admin).get(reverse("team_export", args=[northwind.slug])))
    imports = [n for n in archive.namelist() if n.startswith("imports/")]
    assert imports and all(archive.read(n) for n in imports)
    assert (
        len(records(archive, "revisions.json"))
        == Revision.objects.filter(job__team=northwind).count()
    )
    assert b"Helio" not in b"".join(archive.read(n) for n in archive.namelist())
    staff = User.objects.filter(is_staff=True).first()
    team_archive.erase(team=northwind, erased_by=staff, confirm_name="Northwind Vision")
    assert not Team.objects.filter(name="Northwind Vision").exists()
    assert Team.objects.filter(name="Helio Sims").exists()
