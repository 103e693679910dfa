"""The window's state at the edges, and the writes that close it."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import IntegrityError, transaction

from portal.errors import DomainError
from portal.intake import rules as intake
from portal.intake import services as intake_services
from portal.intake.models import CloseReason, IntakeState, IntakeWindow
from portal.intake.tasks import close_due_intake_windows

from .intake_helpers import make_window

OPENS = datetime(2027, 1, 10, 9, 0, tzinfo=UTC)
CLOSES = datetime(2027, 1, 24, 17, 0, tzinfo=UTC)
SECOND = timedelta(seconds=1)


def state(now, *, places=3, accepted=0, closed_at=None):
    return intake.compute_state(
        opens_at=OPENS,
        closes_at=CLOSES,
        places=places,
        accepted=accepted,
        closed_at=closed_at,
        now=now,
    )


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        (OPENS - SECOND, IntakeState.NOT_YET_OPEN),
        (OPENS, IntakeState.OPEN),
        (OPENS + SECOND, IntakeState.OPEN),
        (CLOSES - SECOND, IntakeState.OPEN),
        (CLOSES, IntakeState.CLOSED),
        (CLOSES + SECOND, IntakeState.CLOSED),
    ],
)
def test_clock_edges(now, expected):
    assert state(now) == expected


def test_at_capacity_it_is_full():
    assert state(OPENS + SECOND, places=3, accepted=2) == IntakeState.OPEN
    assert state(OPENS + SECOND, places=3, accepted=3) == IntakeState.FULL


def test_capacity_lowered_below_accepted_is_full_not_negative():
    assert state(OPENS + SECOND, places=1, accepted=2) == IntakeState.FULL
    assert state(CLOSES + SECOND, places=1, accepted=2) == IntakeState.FULL


def test_closed_by_staff_is_closed_at_once_even_before_opening():
    assert state(OPENS + SECOND, closed_at=OPENS + SECOND) == IntakeState.CLOSED
    assert state(OPENS - SECOND, closed_at=OPENS - 2 * SECOND) == IntakeState.CLOSED


def test_status_places_left_and_cache_lifetime_near_a_change():
    window = IntakeWindow(opens_at=OPENS, closes_at=CLOSES, places=3, announcement="")
    window.accepted_count = 1
    status = intake.status_of(window, now=CLOSES - 10 * SECOND)
    assert status.is_open and status.places_left == 2
    assert status.public_max_age() == 10  # never cached past the closing time
    closed = intake.status_of(window, now=CLOSES + SECOND)
    assert closed.ended_at == CLOSES and closed.public_max_age() == intake.PUBLIC_PAGE_MAX_AGE


@pytest.mark.django_db
def test_no_window_means_not_yet_open():
    status = intake.current_status()
    assert status.window is None and status.state == IntakeState.NOT_YET_OPEN


@pytest.mark.django_db
def test_the_database_refuses_a_second_current_window():
    make_window()
    with pytest.raises(IntegrityError), transaction.atomic():
        make_window()


@pytest.mark.django_db
def test_create_window_refuses_while_another_is_current(staff):
    now = datetime.now(UTC)
    make_window()
    with pytest.raises(DomainError, match="close it"):
        intake_services.create_window(
            opens_at=now,
            closes_at=now + timedelta(days=1),
            places=2,
            announcement="",
            created_by=staff,
        )


@pytest.mark.django_db
def test_create_window_first_records_the_close_of_an_overdue_one(staff):
    old = make_window(opens_in=timedelta(days=-10), closes_in=timedelta(days=-1))
    now = datetime.now(UTC)
    new = intake_services.create_window(
        opens_at=now,
        closes_at=now + timedelta(days=1),
        places=2,
        announcement=" hi ",
        created_by=staff,
    )
    old.refresh_from_db()
    assert old.close_reason == CloseReason.SCHEDULE and old.closed_at == old.closes_at
    assert intake.current_window() == new and new.announcement == "hi"


@pytest.mark.django_db
def test_beat_task_closes_at_closing_time_once_and_records_what_closed_it():
    window = make_window(opens_in=timedelta(days=-2), closes_in=timedelta(minutes=-1))
    assert close_due_intake_windows() == [window.pk]
    window.refresh_from_db()
    assert window.closed_at == window.closes_at
    assert window.close_reason == CloseReason.SCHEDULE and window.closed_by is None
    assert close_due_intake_windows() == []  # idempotent: nothing left to close
    window.refresh_from_db()
    assert window.closed_at == window.closes_at


@pytest.mark.django_db
def test_beat_task_leaves_open_windows_and_staff_closes_alone(staff):
    open_window = make_window()
    assert close_due_intake_windows() == []
    intake_services.close_window(window=open_window, closed_by=staff)
    open_window.refresh_from_db()
    first_close = open_window.closed_at
    assert open_window.close_reason == CloseReason.STAFF and open_window.closed_by == staff
    intake_services.close_window(window=open_window, closed_by=staff)  # idempotent
    open_window.refresh_from_db()
    assert open_window.closed_at == first_close
    assert intake.status_of(open_window).state == IntakeState.CLOSED


@pytest.mark.django_db
def test_lowering_places_to_the_accepted_count_closes_it_as_full(staff):
    from portal.intake.models import ApplicationStatus

    from .intake_helpers import submit

    window = make_window(places=3)
    application = submit().application
    application.status = ApplicationStatus.ACCEPTED
    application.save()
    intake_services.update_window(
        window=window,
        opens_at=window.opens_at,
        closes_at=window.closes_at,
        places=1,
        announcement="",
        updated_by=staff,
    )
    window.refresh_from_db()
    assert window.close_reason == CloseReason.FULL
    assert intake.status_of(window).state == IntakeState.FULL


@pytest.mark.django_db
def test_a_closed_window_cannot_be_edited_nor_an_open_ones_opening_moved(staff):
    window = make_window()
    with pytest.raises(DomainError, match="already open"):
        intake_services.update_window(
            window=window,
            opens_at=window.opens_at + timedelta(hours=1),
            closes_at=window.closes_at,
            places=3,
            announcement="",
            updated_by=staff,
        )
    intake_services.close_window(window=window, closed_by=staff)
    with pytest.raises(DomainError, match="closed"):
        intake_services.update_window(
            window=window,
            opens_at=window.opens_at,
            closes_at=window.closes_at,
            places=3,
            announcement="",
            updated_by=staff,
        )
