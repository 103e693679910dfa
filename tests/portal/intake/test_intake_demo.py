import pytest

from portal.intake import rules as intake
from portal.intake.demo import load_intake
from portal.intake.models import ApplicationStatus, IntakeApplication, IntakeState, IntakeWindow
from portal.management.commands.load_demo import Command


@pytest.mark.django_db
def test_demo_intake_is_open_with_applications_in_several_states_and_loads_once():
    teams, users = Command().load_accounts()
    load_intake(teams=teams, users=users)
    load_intake(teams=teams, users=users)  # idempotent
    assert IntakeWindow.objects.count() == 2
    current = intake.current_status()
    assert current.state == IntakeState.OPEN and current.places_left == 3
    statuses = set(IntakeApplication.objects.values_list("status", flat=True))
    assert statuses == {
        ApplicationStatus.RECEIVED,
        ApplicationStatus.UNDER_REVIEW,
        ApplicationStatus.DECLINED,
        ApplicationStatus.NOT_YET,
    }
    assert IntakeApplication.objects.filter(staged_decision="accepted").count() == 1
