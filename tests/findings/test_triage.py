"""Triage services: the moves, their rows, notifications after commit, merge and unmerge,
concurrent edits, bulk actions and the staff digest."""

import pytest
from django.core import mail
from django.utils import timezone

from findings import digest, services
from findings.models import (
    FindingStatus,
    NoteVisibility,
    StatusChange,
    UnsolvedProblem,
)
from portal.errors import DomainError
from portal.models import Notice, OutboundEmail
from tests.findings.helpers import accepted_job, file

pytestmark = pytest.mark.django_db


@pytest.fixture
def problem(db):
    return UnsolvedProblem.objects.get(slug="getting-data-to-compute")


def test_triage_needs_a_problem_or_a_proposal(team_a, a_member, staff, problem):
    finding = file(team_a, a_member)
    with pytest.raises(DomainError, match="at least one unsolved problem"):
        services.change_status(finding=finding, actor=staff, to_status="triaged")
    services.change_status(finding=finding, actor=staff, to_status="triaged", problems=[problem])
    finding.refresh_from_db()
    assert finding.status == "triaged" and list(finding.problems.all()) == [problem]
    other = file(team_a, a_member)
    services.change_status(
        finding=other, actor=staff, to_status="triaged", proposed_problem="Output formats"
    )
    other.refresh_from_db()
    assert other.status == "triaged" and other.proposed_problem == "Output formats"


def test_decline_needs_a_reason_the_partner_reads(client_for, team_a, a_member, staff):
    finding = file(team_a, a_member)
    with pytest.raises(DomainError, match="Say why"):
        services.change_status(finding=finding, actor=staff, to_status="declined")
    services.change_status(
        finding=finding, actor=staff, to_status="declined", note="Real-time work: not ours."
    )
    page = client_for(a_member).get(f"/findings/{finding.pk}/")
    assert b"Real-time work: not ours." in page.content


def test_every_change_is_a_row_and_the_partner_hears_after_commit(
    team_a, a_member, a_admin, staff, problem, django_capture_on_commit_callbacks
):
    finding = file(team_a, a_member)
    services.subscribe(finding=finding, user=a_admin)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.change_status(
            finding=finding, actor=staff, to_status="triaged", problems=[problem], note="Linked."
        )
        assert mail.outbox == []  # nothing leaves before the transaction commits
    assert callbacks
    assert sorted(m.to[0] for m in mail.outbox) == [a_admin.email, a_member.email]
    assert "is now triaged" in mail.outbox[0].subject
    change = finding.changes.get(to_status="triaged")
    assert (change.from_status, change.actor, change.note) == ("new", staff, "Linked.")
    assert Notice.objects.filter(topic="finding", url=f"/findings/{finding.pk}/").count() == 2


def test_a_response_is_sent_and_an_internal_note_is_not(
    client_for, team_a, a_member, staff, django_capture_on_commit_callbacks
):
    finding = file(team_a, a_member)
    with django_capture_on_commit_callbacks(execute=True):
        services.add_note(
            finding=finding, author=staff, visibility=NoteVisibility.INTERNAL, body="SECRET-NOTE"
        )
        services.add_note(
            finding=finding, author=staff, visibility=NoteVisibility.RESPONSE, body="We hear you."
        )
    assert len(mail.outbox) == 1 and "We hear you." in mail.outbox[0].body
    assert "SECRET-NOTE" not in mail.outbox[0].body
    page = client_for(a_member).get(f"/findings/{finding.pk}/")
    assert b"We hear you." in page.content and b"SECRET-NOTE" not in page.content
    listing = client_for(a_member).get("/findings/")
    assert b"We hear you." in listing.content and b"SECRET-NOTE" not in listing.content
    assert b"SECRET-NOTE" in client_for(staff).get(f"/staff/findings/{finding.pk}/").content


def test_partner_verifies_or_reopens(client_for, team_a, a_member, staff, problem):
    finding = file(team_a, a_member)
    for to in ("triaged", "accepted", "addressed"):
        services.change_status(finding=finding, actor=staff, to_status=to, problems=[problem])
    client = client_for(a_member)
    response = client.post(f"/findings/{finding.pk}/reopen/", {"note": ""})
    assert response.status_code == 400 and b"Say what still does not work" in response.content
    assert (
        client.post(f"/findings/{finding.pk}/reopen/", {"note": "Still slow."}).status_code == 302
    )
    finding.refresh_from_db()
    assert finding.status == "reopened"
    services.change_status(finding=finding, actor=staff, to_status="addressed")
    with pytest.raises(DomainError, match="Only the partner team"):
        services.change_status(finding=finding, actor=staff, to_status="verified")
    assert client.post(f"/findings/{finding.pk}/verify/").status_code == 302
    finding.refresh_from_db()
    assert finding.status == "verified"
    assert [c.to_status for c in finding.changes.all()] == [
        "new", "triaged", "accepted", "addressed", "reopened", "addressed", "verified",
    ]  # fmt: skip


def test_a_partner_text_too_long_is_refused_and_kept_never_cut(
    client_for, team_a, a_member, staff, problem
):
    # The views cut it (10,000 and 2,000 characters) and saved the rest, saying "Added".
    finding = file(team_a, a_member)
    client = client_for(a_member)
    long_information = "x" * 10_000 + "THE LAST PARAGRAPH"
    response = client.post(f"/findings/{finding.pk}/information/", {"body": long_information})
    assert response.status_code == 400
    page = response.content.decode()
    assert "at most 10,000 characters; this one has 10,018" in page
    assert long_information in page  # kept in the form to shorten
    # Focus lands on the field, its error read with it (aria-describedby).
    assert 'aria-invalid="true" autofocus>' + long_information in page
    assert not finding.notes.exists()
    for to in ("triaged", "accepted", "addressed"):
        services.change_status(finding=finding, actor=staff, to_status=to, problems=[problem])
    long_note = "y" * 2_000 + "STILL BROKEN"
    response = client.post(f"/findings/{finding.pk}/reopen/", {"note": long_note})
    assert response.status_code == 400
    assert "at most 2,000 characters" in response.content.decode()
    assert 'aria-describedby="reopen-error" autofocus>' + long_note in response.content.decode()
    finding.refresh_from_db()
    assert finding.status == "addressed"
    fits = "z" * 10_000
    assert client.post(f"/findings/{finding.pk}/information/", {"body": fits}).status_code == 302
    assert finding.notes.get().body == fits


def test_two_staff_cannot_silently_overwrite_each_other(team_a, a_member, staff, problem):
    finding = file(team_a, a_member)
    seen = finding.version
    services.add_note(
        finding=finding, author=staff, visibility="internal", body="First.", expected_version=seen
    )
    with pytest.raises(DomainError, match="Someone else changed this finding"):
        services.change_status(
            finding=finding, actor=staff, to_status="declined", note="No.", expected_version=seen
        )
    finding.refresh_from_db()
    assert finding.status == "new"


def test_stale_form_on_the_page_keeps_what_was_typed(client_for, team_a, a_member, staff):
    finding = file(team_a, a_member)
    response = client_for(staff).post(
        f"/staff/findings/{finding.pk}/status/",
        {"to_status": "declined", "note": "My careful reason", "version": finding.version - 1},
    )
    assert response.status_code == 400
    assert b"Someone else changed this finding" in response.content
    assert b"My careful reason" in response.content


def test_merge_carries_evidence_and_subscribers_and_unmerge_takes_them_back(
    team_a, a_member, a_admin, staff, problem
):
    job = accepted_job(team_a, a_member, staff)
    source = file(team_a, a_admin, job=job)
    target = file(team_a, a_member)
    services.change_status(finding=target, actor=staff, to_status="triaged", problems=[problem])
    assert source.evidence.count() == 1 and target.evidence.count() == 0

    services.merge(source=source, target=target, actor=staff)
    source.refresh_from_db()
    assert source.status == "duplicate" and source.duplicate_of == target
    carried = target.evidence.get()
    assert carried.carried_from == source and carried.ledger == source.evidence.get().ledger
    assert set(target.subscriptions.values_list("user", flat=True)) == {a_member.pk, a_admin.pk}
    with pytest.raises(DomainError, match="unmerge it first"):
        services.change_status(finding=source, actor=staff, to_status="triaged")
    with pytest.raises(DomainError, match="itself a duplicate"):
        services.merge(source=file(team_a, a_member), target=source, actor=staff)

    services.unmerge(source=source, actor=staff)
    source.refresh_from_db()
    assert source.status == "new" and source.duplicate_of is None
    assert target.evidence.count() == 0
    assert set(target.subscriptions.values_list("user", flat=True)) == {a_member.pk}
    assert source.evidence.count() == 1  # its own evidence never moved


def test_merging_across_teams_is_refused_and_shows_nothing_of_the_other_team(
    client_for, team_a, team_b, a_member, b_member, staff
):
    # Team B's finding, with its job's evidence, must never be carried onto team A's finding.
    job_b = accepted_job(team_b, b_member, staff)
    source = file(team_b, b_member, job=job_b)
    target = file(team_a, a_member)
    with pytest.raises(DomainError, match="another team"):
        services.merge(source=source, target=target, actor=staff)

    response = client_for(staff).post(
        f"/staff/findings/{source.pk}/merge/",
        {"target": target.pk, "note": "same thing", "version": source.version},
    )
    assert response.status_code == 400
    assert b"another team" in response.content
    source.refresh_from_db()
    assert source.status != "duplicate" and source.duplicate_of is None
    assert target.evidence.count() == 0 and not target.subscriptions.filter(user=b_member).exists()
    partner_page = client_for(a_member).get(f"/findings/{target.pk}/")
    assert partner_page.status_code == 200
    assert job_b.name.encode() not in partner_page.content


def test_bulk_moves_what_it_may_and_reports_the_rest(
    client_for, team_a, a_member, staff, problem, make_user
):
    ready, addressed = file(team_a, a_member), file(team_a, a_member)
    for to in ("triaged", "accepted", "addressed"):
        services.change_status(finding=addressed, actor=staff, to_status=to, problems=[problem])
    client = client_for(staff)
    response = client.post(
        "/staff/findings/bulk/",
        {"findings": [ready.pk, addressed.pk], "action": "status", "status": "triaged",
         "problem": problem.pk, "next": "/staff/findings/?status=new"},
        follow=True,
    )  # fmt: skip
    ready.refresh_from_db()
    assert ready.status == "triaged"
    assert f"#{addressed.pk} not moved".encode() in response.content
    assert response.redirect_chain[-1][0] == "/staff/findings/?status=new"

    other = make_user("other-staff@e31.example", staff=True)
    client.post(
        "/staff/findings/bulk/",
        {"findings": [ready.pk, addressed.pk], "action": "assign", "assignee": other.pk},
    )
    assert {f.assignee for f in (ready, addressed) if not f.refresh_from_db()} == {other}
    response = client.post(
        "/staff/findings/bulk/",
        {"findings": [ready.pk], "action": "link", "next": "//evil.example/"},
    )
    assert response["Location"] == "/staff/findings/"


@pytest.mark.parametrize("target", ["junk", "staff_finding_queue.x", "", "https://evil.example/x"])
def test_bulk_goes_back_to_the_queue_when_next_is_no_path_of_ours(client_for, staff, target):
    # "junk" was taken for a URL name by redirect(): NoReverseMatch, a 500.
    response = client_for(staff).post("/staff/findings/bulk/", {"next": target})
    assert response.status_code == 302 and response["Location"] == "/staff/findings/"


def test_bulk_with_nothing_ticked_says_what_to_do(client_for, staff):
    response = client_for(staff).post("/staff/findings/bulk/", {"action": "status"}, follow=True)
    page = response.content.decode()
    assert (
        "Nothing was changed. Findings: Tick at least one finding in the list first. "
        "New status: Choose the status to set." in page
    )
    assert "This field is required" not in page


def test_a_bulk_action_that_changed_nothing_comes_back_ticked_with_its_choices(
    client_for, team_a, a_member, staff
):
    first, second, other = (file(team_a, a_member) for _ in range(3))
    client = client_for(staff)
    # Triage with no problem named: refused for both, so nothing was changed.
    response = client.post(
        "/staff/findings/bulk/",
        {"findings": [first.pk, second.pk], "action": "status", "status": "triaged",
         "note": "Looking at it.", "next": "/staff/findings/?status=new"},
        follow=True,
    )  # fmt: skip
    page = response.content.decode()
    assert f"#{first.pk} not moved" in page
    for finding in (first, second):
        assert f'id="sel-{finding.pk}" checked aria-label' in page
    assert f'id="sel-{other.pk}" aria-label' in page
    assert '<option value="status" selected>' in page
    assert '<option value="triaged" selected>' in page
    assert 'id="bulk-note" maxlength="2000" value="Looking at it."' in page
    # Shown once: the next visit is the queue as usual.
    again = client.get("/staff/findings/?status=new").content.decode()
    assert " checked aria-label" not in again and 'value="Looking at it."' not in again


def test_assigning_findings_already_assigned_says_so(client_for, team_a, a_member, staff):
    first, second = file(team_a, a_member), file(team_a, a_member)
    client = client_for(staff)
    services.assign(findings=[first], assignee=staff, actor=staff)
    both = {"findings": [first.pk, second.pk], "action": "assign", "assignee": staff.pk}
    page = client.post("/staff/findings/bulk/", both, follow=True).content.decode()
    assert f"1 finding assigned to {staff}. 1 was already assigned to {staff}." in page
    page = client.post("/staff/findings/bulk/", both, follow=True).content.decode()
    assert f"0 findings assigned to {staff}. 2 were already assigned to {staff}." in page
    nobody = {**both, "assignee": ""}
    client.post("/staff/findings/bulk/", nobody)
    page = client.post("/staff/findings/bulk/", nobody, follow=True).content.decode()
    assert "0 findings assigned to nobody. 2 were already unassigned." in page


def test_staff_digest_is_daily_and_idempotent(team_a, a_member, staff, problem):
    old = file(team_a, a_member, title="Old untriaged")
    old.created_at = timezone.now() - timezone.timedelta(days=3)
    old.save(update_fields=["created_at"])
    file(team_a, a_member, title="Fresh")
    asked = file(team_a, a_member, title="Partner answered")
    services.change_status(finding=asked, actor=staff, to_status="triaged", problems=[problem])
    services.add_note(finding=asked, author=staff, visibility="response", body="Which region?")
    services.add_note(finding=asked, author=a_member, visibility="partner", body="eu-west-1")

    untriaged, waiting = digest.digest_rows()
    assert [f.title for f in untriaged] == ["Old untriaged"]
    assert [f.title for f in waiting] == ["Partner answered"]
    assert digest.send_staff_digest() == 1
    digest.send_staff_digest()
    emails = OutboundEmail.objects.filter(dedupe_key__startswith="findings-digest:")
    assert emails.count() == 1
    assert "Old untriaged" in emails.get().body and "Fresh" not in emails.get().body


def test_status_change_rows_record_the_actor(team_a, a_member, staff):
    finding = file(team_a, a_member)
    assert StatusChange.objects.get(finding=finding).actor == a_member
    assert finding.status == FindingStatus.NEW


def test_staff_unlink_a_wrong_problem_from_the_triage_page(
    client_for, team_a, a_member, staff, problem
):
    finding = file(team_a, a_member)
    services.change_status(finding=finding, actor=staff, to_status="triaged", problems=[problem])
    other = UnsolvedProblem.objects.exclude(pk=problem.pk).first()
    client = client_for(staff)
    page = client.get(f"/staff/findings/{finding.pk}/").content.decode()
    assert f"/staff/findings/{finding.pk}/problems/{problem.pk}/unlink/" in page
    assert (
        client.post(f"/staff/findings/{finding.pk}/problems/{other.pk}/unlink/").status_code == 404
    )
    client.post(f"/staff/findings/{finding.pk}/problems/{problem.pk}/unlink/")
    assert not finding.problems.exists()
    assert (
        client_for(a_member)
        .post(f"/staff/findings/{finding.pk}/problems/{problem.pk}/unlink/")
        .status_code
        == 403
    )
