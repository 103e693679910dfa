"""The intake window's rules: its state is computed from the clock and the places taken,
never stored as a flag someone must remember to flip."""

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from portal.intake.models import (
    ApplicationStatus,
    CloseReason,
    IntakeApplication,
    IntakeState,
    IntakeWindow,
)
from portal.transitions import Machine, move

A = ApplicationStatus
STAFF = "staff"
# An application's moves: staff open it, then release a decision (staged first, so all
# applicants of a window hear at once). A decision is final.
APPLICATION_MOVES = Machine(
    A,
    [
        move(A.RECEIVED, A.UNDER_REVIEW, STAFF),
        move(A.UNDER_REVIEW, A.ACCEPTED, STAFF),
        move(A.UNDER_REVIEW, A.DECLINED, STAFF),
        move(A.UNDER_REVIEW, A.NOT_YET, STAFF),
    ],
)

# The longest a public cache may keep the design-partners page. Shorter when the state
# is about to change (see seconds_until_next_change), so a stale state never lingers.
PUBLIC_PAGE_MAX_AGE = 60


def compute_state(
    *,
    opens_at: datetime,
    closes_at: datetime,
    places: int,
    accepted: int,
    closed_at: datetime | None,
    now: datetime,
) -> IntakeState:
    """The state at `now`. The window is open from opens_at (inclusive) to closes_at
    (exclusive); accepting the last place, or places lowered below the accepted count,
    makes it full; an explicit close (staff, scheduler) makes it closed at once."""
    if accepted >= places and (closed_at is not None or now >= opens_at):
        return IntakeState.FULL
    if closed_at is not None or now >= closes_at:
        return IntakeState.CLOSED
    if now < opens_at:
        return IntakeState.NOT_YET_OPEN
    return IntakeState.OPEN


@dataclass(frozen=True)
class WindowStatus:
    """A window and what it means at one moment, for pages and services."""

    window: IntakeWindow | None
    state: IntakeState
    accepted: int
    now: datetime

    @property
    def is_open(self):
        return self.state == IntakeState.OPEN

    @property
    def places_left(self):
        if self.window is None:
            return 0
        return max(self.window.places - self.accepted, 0)

    @property
    def ended_at(self):
        """When the window stopped taking applications, if it has."""
        w = self.window
        if w is None or self.state in (IntakeState.OPEN, IntakeState.NOT_YET_OPEN):
            return None
        if w.closed_at is not None:
            return w.closed_at
        return min(w.closes_at, self.now)

    @property
    def ended_because(self):
        w = self.window
        if w is None or self.ended_at is None:
            return ""
        if w.close_reason:
            return CloseReason(w.close_reason).label
        if self.state == IntakeState.FULL:
            return CloseReason.FULL.label
        return "Closing time reached"

    def seconds_until_next_change(self):
        """Until the clock alone changes the state (opening or closing time), if it will."""
        w = self.window
        if w is None:
            return None
        if self.state == IntakeState.NOT_YET_OPEN:
            return max(int((w.opens_at - self.now).total_seconds()), 0)
        if self.state == IntakeState.OPEN:
            return max(int((w.closes_at - self.now).total_seconds()), 0)
        return None

    def public_max_age(self):
        until = self.seconds_until_next_change()
        return PUBLIC_PAGE_MAX_AGE if until is None else min(PUBLIC_PAGE_MAX_AGE, until)


def with_accepted_count(queryset):
    """Each window with its accepted applications counted through the (window, status)
    index: a join and GROUP BY would read every application of the window (thousands) to
    count the few accepted."""
    accepted = (
        IntakeApplication.objects.filter(window=OuterRef("pk"), status=ApplicationStatus.ACCEPTED)
        .order_by()
        .values("window")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return queryset.annotate(accepted_count=Coalesce(Subquery(accepted), 0))


def status_of(window: IntakeWindow | None, *, now: datetime | None = None) -> WindowStatus:
    now = now or timezone.now()
    if window is None:
        return WindowStatus(window=None, state=IntakeState.NOT_YET_OPEN, accepted=0, now=now)
    accepted = getattr(window, "accepted_count", None)
    if accepted is None:
        accepted = window.applications.filter(status=ApplicationStatus.ACCEPTED).count()
    state = compute_state(
        opens_at=window.opens_at,
        closes_at=window.closes_at,
        places=window.places,
        accepted=accepted,
        closed_at=window.closed_at,
        now=now,
    )
    return WindowStatus(window=window, state=state, accepted=accepted, now=now)


def current_window(*, now: datetime | None = None) -> IntakeWindow | None:
    """The window the public page talks about: the one not yet closed if there is one,
    otherwise the most recent one (so the page can say when intake closed)."""
    windows = with_accepted_count(IntakeWindow.objects.all())
    return windows.filter(closed_at__isnull=True).first() or windows.order_by("-closes_at").first()


def current_status(*, now: datetime | None = None) -> WindowStatus:
    return status_of(current_window(now=now), now=now)


# The private status link: the token is only ever in the applicant's e-mail and the
# redirect after submitting; the database keeps its hash, so a leaked table reveals no link.


def new_status_token() -> tuple[str, str]:
    token = secrets.token_urlsafe(32)
    return token, hash_status_token(token)


def hash_status_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
