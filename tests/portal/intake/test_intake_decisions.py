"""Staff: windows, the review list, staging decisions and releasing them together."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from portal.errors import DomainError
from portal.intake import rules as intake
from portal.intake import services as intake_services
from portal.intake.models import (
    ApplicationStatus,
    CloseReason,
    IntakeDecision,
    IntakeState,
    IntakeWindow,
)
from portal.intake.tasks import close_due_intake_windows
from portal.models import Invitation, Role, Team

from .intake_helpers import make_window, submit

pytestmark = pytest.mark.django_db


def apply_as(n, **overrides):
    values = {"team_name": f"Team {n}", "contact_email": f"lead{n}@t{n}.example", **overrides}
    return submit(**values).application


def stage(application, decision, staff, reason=""):
    return intake_services.stage_decision(
        application=application, decision=decision, reason=reason, by=staff
    )


def test_release_tells_everyone_at_once_creates_teams_and_invites_their_contacts(
    staff, django_capture_on_commit_callbacks
):
    window = make_window(places=2)
    a, b, c = apply_as(1), apply_as(2), apply_as(3, has_real_time=True, real_time_description="x")
    stage(a, "accepted", staff)
    stage(b, "declined", staff, "Demand is flat: no spike to exercise the queue.")
    stage(c, "not_yet", staff, "Say what the output format is.")
    a.refresh_from_db()
    assert a.status == ApplicationStatus.UNDER_REVIEW  # staged, not yet told
    assert not Team.objects.filter(name="Team 1").exists()
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        released = intake_services.release_decisions(window=window, released_by=staff)
    assert len(released) == 3
    a.refresh_from_db(), b.refresh_from_db(), c.refresh_from_db()
    assert (a.status, b.status, c.status) == ("accepted", "declined", "not_yet")
    assert b.reason.startswith("Demand is flat") and c.reason == "Say what the output format is."
    assert a.staged_decision == "" and b.staged_decision == ""

    team = Team.objects.get(name="Team 1")
    assert a.team == team and team.organisation == "Orbit Labs"
    invitation = Invitation.objects.get(team=team)
    assert invitation.email == "lead1@t1.example" and invitation.role == Role.ADMIN
    assert invitation.invited_by == staff

    # One decision e-mail each, plus the invitation.
    recipients = sorted(m.to[0] for m in mail.outbox)
    assert recipients == sorted(
        ["lead1@t1.example", "lead1@t1.example", "lead2@t2.example", "lead3@t3.example"]
    )
    assert any("/invitations/" in m.body for m in mail.outbox)

    rows = IntakeDecision.objects.filter(application=b).order_by("pk")
    assert [(r.from_status, r.to_status) for r in rows] == [
        ("received", "under_review"),
        ("under_review", "declined"),
    ]
    assert rows[1].decided_by == staff and rows[1].released_by == staff
    assert rows[1].reason.startswith("Demand is flat")
    assert intake.status_of(IntakeWindow.objects.get()).places_left == 1


def test_filling_the_last_place_closes_the_window_itself(staff):
    window = make_window(places=1)
    stage(apply_as(1), "accepted", staff)
    intake_services.release_decisions(window=window, released_by=staff)
    window.refresh_from_db()
    assert window.close_reason == CloseReason.FULL and window.closed_at is not None
    assert intake.status_of(window).state == IntakeState.FULL
    assert close_due_intake_windows() == []  # the beat task leaves it as it is


def test_places_are_counted_when_staging_and_again_under_lock_when_releasing(staff):
    window = make_window(places=2)
    a, b, c = apply_as(1), apply_as(2), apply_as(3)
    stage(a, "accepted", staff)
    stage(b, "accepted", staff)
    with pytest.raises(DomainError, match="Every place"):
        stage(c, "accepted", staff)
    # Places lowered after staging: the release refuses and changes nothing.
    IntakeWindow.objects.filter(pk=window.pk).update(places=1)
    with pytest.raises(DomainError, match="only 1 places are left"):
        intake_services.release_decisions(window=window, released_by=staff)
    assert not Team.objects.filter(name__startswith="Team ").exists()
    assert not IntakeDecision.objects.filter(to_status="accepted").exists()


def test_decline_and_not_yet_need_a_reason_and_decided_ones_cannot_be_restaged(staff):
    window = make_window()
    application = apply_as(1)
    with pytest.raises(DomainError, match="why"):
        stage(application, "declined", staff, "  ")
    with pytest.raises(DomainError, match="missing"):
        stage(application, "not_yet", staff)
    stage(application, "declined", staff, "Real-time only.")
    intake_services.release_decisions(window=window, released_by=staff)
    with pytest.raises(DomainError, match="already been decided"):
        stage(application, "accepted", staff)
    with pytest.raises(DomainError, match="No staged"):
        intake_services.release_decisions(window=window, released_by=staff)


def test_a_team_name_already_taken_gets_the_organisation_added(staff, team_a):
    window = make_window()
    application = apply_as(1, team_name="Team A")
    stage(application, "accepted", staff)
    intake_services.release_decisions(window=window, released_by=staff)
    application.refresh_from_db()
    assert application.team.name == "Team A (Orbit Labs)"
    assert application.team.slug != team_a.slug


def test_decisions_can_be_made_after_the_closing_time(staff):
    window = make_window()
    application = apply_as(1)
    IntakeWindow.objects.filter(pk=window.pk).update(
        opens_at=timezone.now() - timedelta(days=3), closes_at=timezone.now() - timedelta(days=1)
    )
    close_due_intake_windows()
    stage(application, "accepted", staff)
    intake_services.release_decisions(window=window, released_by=staff)
    application.refresh_from_db()
    assert application.status == ApplicationStatus.ACCEPTED


# --- views ---------------------------------------------------------------------


def test_staff_stage_through_the_page_and_release(client_for, staff):
    window = make_window(places=1)
    application = apply_as(1)
    client = client_for(staff)
    url = reverse("staff_intake_application", args=[application.pk])
    response = client.post(url, {"decision": "declined", "reason": ""})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Say why" in page
    # One summary, focused on arrival, linking to each field; the choice kept.
    assert '<div class="form-errors error-summary" tabindex="-1" autofocus>' in page
    assert not re.search(r'class="field-error"[^>]*role="alert"', page)
    assert re.search(r'<input type="radio"[^>]*value="declined"[^>]*checked', page)
    empty = client.post(url, {}).content.decode()
    assert '<a href="#id_decision_0">Decision</a>' in empty
    assert client.post(url, {"decision": "accepted", "reason": ""}).status_code == 302
    page = client.get(url).content.decode()
    assert "Staged: <strong>Accept</strong>" in page
    response = client.post(reverse("staff_intake_release", args=[window.pk]), follow=True)
    assert "1 decisions released" in response.content.decode()
    assert intake.status_of(IntakeWindow.objects.get()).state == IntakeState.FULL


def test_hostile_decision_posts_are_messages_not_500s(client_for, staff):
    make_window()
    application = apply_as(1)
    client = client_for(staff)
    url = reverse("staff_intake_application", args=[application.pk])
    for data in [{}, {"decision": "accept-all"}, {"decision": "\x00"}, {"reason": "x" * 5000}]:
        assert client.post(url, data).status_code == 400
    assert client.get(reverse("staff_intake_application", args=[999999])).status_code == 404
    listing = reverse("staff_intake_applications", args=[application.window_id])
    assert client.get(listing, {"status": "bogus", "real_time": "\x00"}).status_code == 200


def test_staff_create_and_close_windows_through_the_pages(client_for, staff):
    client = client_for(staff)
    now = timezone.now()
    data = {
        "opens_at": (now - timedelta(minutes=5)).strftime("%Y-%m-%dT%H:%M"),
        "closes_at": (now + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M"),
        "places": "2",
        "announcement": "Apply by **Friday**.",
    }
    assert client.post(reverse("staff_intake"), data).status_code == 302
    window = IntakeWindow.objects.get()
    assert window.created_by == staff
    assert "Intake is open" in client.get("/design-partners/").content.decode()
    again = client.post(reverse("staff_intake"), data)
    assert again.status_code == 400 and "close it before" in again.content.decode()
    bad = client.post(reverse("staff_intake"), {**data, "closes_at": data["opens_at"]})
    assert bad.status_code == 400 and "must be after the opening time" in bad.content.decode()
    client.post(reverse("staff_intake_window_close", args=[window.pk]))
    window.refresh_from_db()
    assert window.close_reason == CloseReason.STAFF and window.closed_by == staff
    assert "Intake closed on" in client.get("/design-partners/").content.decode()


def test_review_list_filters_and_shows_key_numbers(client_for, staff):
    window = make_window()
    apply_as(1, typical_accelerators="4", peak_accelerators="512")
    apply_as(2, has_real_time="on", real_time_description="Live inference API")
    client = client_for(staff)
    url = reverse("staff_intake_applications", args=[window.pk])
    html = client.get(url).content.decode()
    assert "4 → <strong>512</strong>" in html and "real-time" in html
    only_rt = client.get(url, {"real_time": "yes"}).content.decode()
    assert "Team 2" in only_rt and "Team 1" not in only_rt
    assert "Team 1" not in client.get(url, {"status": "accepted"}).content.decode()


def test_review_list_query_count_does_not_grow(client_for, staff, django_assert_num_queries):
    window = make_window(places=10)
    client = client_for(staff)
    url = reverse("staff_intake_applications", args=[window.pk])

    def queries_for_page():
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        return len(ctx.captured_queries)

    apply_as(1)
    stage(apply_as(2), "accepted", staff)
    baseline = queries_for_page()
    for n in range(3, 9):
        application = apply_as(n)
        if n % 2:
            stage(application, "declined", staff, "Flat demand.")
    intake_services.release_decisions(window=window, released_by=staff)
    with django_assert_num_queries(baseline):
        client.get(url)


def test_the_list_reads_its_staged_counts_with_the_window(
    client_for, staff, django_assert_num_queries
):
    from portal.intake import selectors

    window = make_window(places=10)
    stage(apply_as(1), "accepted", staff)
    stage(apply_as(2), "declined", staff, "Flat demand.")
    apply_as(3)
    with django_assert_num_queries(1):
        read = selectors.get_window_with_staged_counts(window.pk)
        counts = selectors.staged_counts(read)
    assert counts == selectors.staged_counts(window) == {"total": 2, "shown": "2", "accepts": "1"}
    assert (read.opens_at, read.places, read.accepted_count) == (window.opens_at, 10, 0)
    client = client_for(staff)
    html = client.get(reverse("staff_intake_applications", args=[window.pk]))
    assert "2 decisions staged, 1 acceptance" in html.content.decode()
    assert client.get(reverse("staff_intake_applications", args=[window.pk + 1])).status_code == 404


def test_status_page_after_release_links_nothing_staff_only(client, staff):
    window = make_window()
    submitted = submit()
    stage(submitted.application, "accepted", staff)
    intake_services.release_decisions(window=window, released_by=staff)
    html = client.get(reverse("intake_status", args=[submitted.status_token])).content.decode()
    assert "Status: Accepted" in html and "invitation" in html
    assert not re.search(r"/staff/", html)


def test_admin_lists_windows_with_their_computed_state(client_for, staff):
    make_window()
    html = client_for(staff).get(reverse("admin:portal_intakewindow_changelist")).content.decode()
    assert "Open" in html


def test_admin_refuses_a_second_current_window_with_a_message(client_for, staff):
    make_window()
    now = timezone.now()
    response = client_for(staff).post(
        reverse("admin:portal_intakewindow_add"),
        {
            "opens_at_0": now.strftime("%Y-%m-%d"),
            "opens_at_1": "10:00",
            "closes_at_0": (now + timedelta(days=3)).strftime("%Y-%m-%d"),
            "closes_at_1": "10:00",
            "places": "2",
            "announcement": "",
        },
    )
    assert response.status_code == 200
    assert "Another intake window is current" in response.content.decode()
    assert IntakeWindow.objects.count() == 1
