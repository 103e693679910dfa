"""Writes for the design-partner intake: windows, applications, staged decisions and
their release. Keyword-only arguments; rule violations raise DomainError."""

import uuid
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from portal import submissions
from portal.errors import DomainError
from portal.intake.models import (
    ApplicationStatus,
    CloseReason,
    IntakeApplication,
    IntakeDecision,
    IntakeState,
    IntakeWindow,
    StagedDecision,
)
from portal.models import Role, Team, User
from portal.outbox import absolute_url, queue_email
from portal.services import invite
from portal.validators import fold

from . import rules

# ---------------------------------------------------------------------------
# Windows


def _lock_window(window_id) -> IntakeWindow:
    # Every write that depends on the places (accepting, lowering them, closing) locks the
    # window row first, so two staff releasing at once cannot overfill it.
    return IntakeWindow.objects.select_for_update().get(pk=window_id)


def _accepted(window) -> int:
    return window.applications.filter(status=ApplicationStatus.ACCEPTED).count()


def _close(window, *, reason, by, at):
    window.closed_at = at
    window.close_reason = reason
    window.closed_by = by
    window.save(update_fields=["closed_at", "close_reason", "closed_by"])


def _close_if_full(window, *, by, now):
    if window.closed_at is None and _accepted(window) >= window.places:
        _close(window, reason=CloseReason.FULL, by=by, at=now)


@transaction.atomic
def close_due_windows(*, now: datetime | None = None) -> list[int]:
    """Record the close of every window whose closing time has passed. Idempotent: a
    window already closed (by anyone) is left as it was. Returns the ids it closed."""
    now = now or timezone.now()
    due = list(
        IntakeWindow.objects.select_for_update().filter(closed_at__isnull=True, closes_at__lte=now)
    )
    for window in due:
        # It stopped taking applications at its closing time, whenever the task ran.
        _close(window, reason=CloseReason.SCHEDULE, by=None, at=window.closes_at)
    return [w.pk for w in due]


def _check_times(opens_at, closes_at, places):
    if closes_at <= opens_at:
        raise DomainError("The closing time must be after the opening time.")
    if places < 1:
        raise DomainError("A window needs at least one place.")


@transaction.atomic
def create_window(
    *,
    opens_at: datetime,
    closes_at: datetime,
    places: int,
    announcement: str,
    created_by: User,
    now: datetime | None = None,
) -> IntakeWindow:
    now = now or timezone.now()
    _check_times(opens_at, closes_at, places)
    if closes_at <= now:
        raise DomainError("The closing time is already past.")
    close_due_windows(now=now)
    if IntakeWindow.objects.filter(closed_at__isnull=True).exists():
        raise DomainError("Another intake window is current: close it before scheduling a new one.")
    try:
        with transaction.atomic():
            return IntakeWindow.objects.create(
                opens_at=opens_at,
                closes_at=closes_at,
                places=places,
                announcement=announcement.strip(),
                created_by=created_by,
            )
    except IntegrityError:
        raise DomainError("Another intake window was scheduled just now.") from None


@transaction.atomic(durable=True)
def update_window(
    *,
    window: IntakeWindow,
    opens_at: datetime,
    closes_at: datetime,
    places: int,
    announcement: str,
    updated_by: User,
    now: datetime | None = None,
) -> IntakeWindow:
    now = now or timezone.now()
    window = _lock_window(window.pk)
    if window.closed_at is not None:
        raise DomainError("This window is closed; schedule a new one instead.")
    _check_times(opens_at, closes_at, places)
    if opens_at != window.opens_at and window.opens_at <= now:
        raise DomainError("The window is already open: its opening time can no longer change.")
    window.opens_at, window.closes_at = opens_at, closes_at
    window.places, window.announcement = places, announcement.strip()
    window.save(update_fields=["opens_at", "closes_at", "places", "announcement"])
    # Places lowered to (or below) the teams already accepted: it is full now.
    _close_if_full(window, by=updated_by, now=now)
    return window


@transaction.atomic(durable=True)
def close_window(*, window: IntakeWindow, closed_by: User, now: datetime | None = None):
    """Staff close a window now (idempotent: closing a closed window changes nothing)."""
    window = _lock_window(window.pk)
    if window.closed_at is None:
        _close(window, reason=CloseReason.STAFF, by=closed_by, at=now or timezone.now())
    return window


# ---------------------------------------------------------------------------
# Applications


@dataclass(frozen=True)
class Submitted:
    application: IntakeApplication
    status_token: str | None  # None when this was a repeat of an earlier submission


def status_url(token: str) -> str:
    return absolute_url(reverse("intake_status", args=[token]))


@transaction.atomic
def submit_application(
    *, submission_token: uuid.UUID, data: dict, now: datetime | None = None
) -> Submitted:
    """Record an application while intake is open and e-mail its status link.

    `data` holds IntakeApplication field values (as the form cleaned them). The same
    submission token twice returns the first application (a double click, a reload)."""
    now = now or timezone.now()
    repeat = submissions.earlier(IntakeApplication.objects.all(), submission_token)
    if repeat is not None:
        return Submitted(application=repeat, status_token=None)
    window = rules.current_window(now=now)
    if window is None:
        raise DomainError("Intake is not open.")
    # Lock so an application cannot slip in while the window is being closed or filled.
    window = _lock_window(window.pk)
    if rules.status_of(window, now=now).state != IntakeState.OPEN:
        raise DomainError("Intake is not open.")
    email = User.objects.normalize_email(data["contact_email"].strip()).lower()
    if window.applications.filter(contact_email__iexact=email).exists():
        raise DomainError(
            "An application from this address was already received for this intake. "
            "Its status link is in the confirmation e-mail."
        )
    token, token_hash = rules.new_status_token()
    try:
        application, created = submissions.create_once(
            IntakeApplication.objects.all(),
            submission_token,
            lambda: IntakeApplication.objects.create(
                **{**data, "contact_email": email},
                window=window,
                submission_token=submission_token,
                status_token_hash=token_hash,
                submitted_at=now,
                consented_at=now,
            ),
        )
    except IntegrityError:
        # The same address raced in from another form and won.
        raise DomainError("An application from this address was already received.") from None
    if not created:  # the same form raced in from a second request and won
        return Submitted(application=application, status_token=None)
    queue_email(
        key=f"intake-received:{application.pk}",
        to=application.contact_email,
        subject="We received your design-partner application",
        template="portal/intake/emails/received.txt",
        context={"application": application},
        private_link=status_url(token),  # in the message sent, not in the stored copy
    )
    return Submitted(application=application, status_token=token)


# ---------------------------------------------------------------------------
# Decisions: staged by staff, released together so applicants hear at the same time.

DECIDED = {ApplicationStatus.ACCEPTED, ApplicationStatus.DECLINED, ApplicationStatus.NOT_YET}


def _record(application, *, to_status, reason="", decided_by, released_by, now):
    """Move the application through the one table, with its decision row as history."""

    def record(source, target):
        IntakeDecision.objects.create(
            application=application,
            from_status=source,
            to_status=target,
            reason=reason,
            decided_by=decided_by,
            released_by=released_by,
            created_at=now,
        )

    rules.APPLICATION_MOVES.apply(application, to_status, actor=rules.STAFF, record=record)


def _lock_application(application_id) -> IntakeApplication:
    return IntakeApplication.objects.select_for_update().get(pk=application_id)


@transaction.atomic
def start_review(*, application: IntakeApplication, by: User, now: datetime | None = None):
    """received → under review (the applicant sees that someone is looking at it)."""
    application = _lock_application(application.pk)
    if application.status == ApplicationStatus.RECEIVED:
        _record(
            application,
            to_status=ApplicationStatus.UNDER_REVIEW,
            decided_by=by,
            released_by=by,
            now=now or timezone.now(),
        )
        application.save(update_fields=["status"])
    return application


@transaction.atomic
def stage_decision(
    *,
    application: IntakeApplication,
    decision: str,
    reason: str,
    by: User,
    now: datetime | None = None,
) -> IntakeApplication:
    """Prepare a decision without telling the applicant; release_decisions tells them."""
    now = now or timezone.now()
    if decision not in StagedDecision.values:
        raise DomainError("Choose accept, decline or not yet.")
    reason = reason.strip()
    if decision == StagedDecision.DECLINE and not reason:
        raise DomainError("Say why the application is declined: the applicant reads it.")
    if decision == StagedDecision.NOT_YET and not reason:
        raise DomainError("Say what is missing from the job description: the applicant reads it.")
    application = _lock_application(application.pk)
    if application.status in DECIDED:
        raise DomainError("This application has already been decided.")
    window = _lock_window(application.window_id)
    if decision == StagedDecision.ACCEPT:
        staged_accepts = (
            window.applications.filter(staged_decision=StagedDecision.ACCEPT)
            .exclude(pk=application.pk)
            .count()
        )
        if _accepted(window) + staged_accepts >= window.places:
            raise DomainError("Every place is already taken or staged to be taken.")
    if application.status == ApplicationStatus.RECEIVED:
        _record(
            application,
            to_status=ApplicationStatus.UNDER_REVIEW,
            decided_by=by,
            released_by=by,
            now=now,
        )
    application.staged_decision = decision
    application.staged_reason = reason
    application.staged_by = by
    application.staged_at = now
    application.save(
        update_fields=["status", "staged_decision", "staged_reason", "staged_by", "staged_at"]
    )
    return application


@transaction.atomic
def unstage_decision(*, application: IntakeApplication) -> IntakeApplication:
    application = _lock_application(application.pk)
    application.staged_decision, application.staged_reason = "", ""
    application.staged_by, application.staged_at = None, None
    application.save(update_fields=["staged_decision", "staged_reason", "staged_by", "staged_at"])
    return application


def _unique_team_name(name, organisation):
    candidates = [name, f"{name} ({organisation})"] if organisation else [name]
    for candidate in candidates:
        if not Team.objects.filter(name__iexact=candidate).exists():
            return candidate[:120]
    n = 2
    while Team.objects.filter(name__iexact=f"{name} {n}").exists():
        n += 1
    return f"{name[:110]} {n}"


def _accept(application, *, released_by):
    # An application stored before names were one line must not make a two-line team.
    organisation = fold(application.organisation)
    name = _unique_team_name(fold(application.team_name), organisation)
    team = Team.objects.create(
        name=name, organisation=organisation, slug=Team.unique_slug_for(name)
    )
    application.team = team
    invite(team=team, email=application.contact_email, role=Role.ADMIN, invited_by=released_by)


@transaction.atomic
def release_decisions(
    *, window: IntakeWindow, released_by: User, now: datetime | None = None
) -> list[IntakeApplication]:
    """Apply every staged decision of a window at once, all or nothing: create the
    accepted teams and invite their contacts, record each decision, e-mail each applicant
    after commit, and close the window if its places are now filled."""
    now = now or timezone.now()
    window = _lock_window(window.pk)
    staged = list(
        window.applications.select_for_update()
        .filter(staged_decision__in=StagedDecision.values)
        .exclude(status__in=DECIDED)
        .order_by("staged_at", "pk")
    )
    if not staged:
        raise DomainError("No staged decisions to release.")
    accepts = sum(1 for a in staged if a.staged_decision == StagedDecision.ACCEPT)
    left = window.places - _accepted(window)
    if accepts > left:
        raise DomainError(
            f"{accepts} acceptances are staged but only {max(left, 0)} places are left: "
            "withdraw some before releasing."
        )
    for application in staged:
        decision = application.staged_decision
        if decision == StagedDecision.ACCEPT:
            _accept(application, released_by=released_by)
        _record(
            application,
            to_status=decision,
            reason=application.staged_reason,
            decided_by=application.staged_by,
            released_by=released_by,
            now=now,
        )
        application.reason = "" if decision == StagedDecision.ACCEPT else application.staged_reason
        application.staged_decision, application.staged_reason = "", ""
        application.save(
            update_fields=["status", "reason", "team", "staged_decision", "staged_reason"]
        )
        queue_email(
            key=f"intake-decision:{application.pk}:{decision}",
            to=application.contact_email,
            subject="A decision on your design-partner application",
            template="portal/intake/emails/decision.txt",
            context={"application": application},
        )
    _close_if_full(window, by=released_by, now=now)
    return staged
