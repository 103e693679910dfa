import pytest

from portal.models import Team, TeamErasure, User
from tests.findings.helpers import accepted_job

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_staff_erase_a_team_behind_its_typed_name(
    new_page, team_a, a_admin, a_member, team_b, b_member, staff, log_in
):
    accepted_job(team_a, a_member, staff)
    watcher = new_page(width=360)  # on a phone-sized screen
    page = watcher.page
    log_in(watcher, staff)
    page.goto("/staff/teams/")
    watcher.check_accessibility()
    page.get_by_role("link", name="Erase Team A").click()
    page.wait_for_url("**/staff/teams/team-a/erase/")
    page.get_by_role("heading", name="Erase Team A").wait_for()
    assert page.get_by_text("account deleted").count() == 2
    watcher.check_accessibility()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    # A name typed wrong is refused with the error summary, and nothing is erased.
    page.get_by_label("Type the team's name to confirm").fill("team a")
    page.get_by_role("button", name="Erase this team").click()
    page.get_by_text("One thing needs fixing").wait_for()
    watcher.check_accessibility()
    assert Team.objects.filter(slug="team-a").exists()

    page.get_by_label("Type the team's name to confirm").fill("Team A")
    page.get_by_role("button", name="Erase this team").click()
    page.wait_for_url("**/staff/teams/")
    page.get_by_text("Team A's data was erased.").wait_for()
    erased = page.get_by_role("region", name="Erased teams")
    assert erased.get_by_text("Team A").count() == 1
    assert page.get_by_role("link", name="Erase Team A").count() == 0
    assert page.get_by_role("link", name="Erase Team B").count() == 1
    watcher.check_accessibility()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    assert TeamErasure.objects.get().team_name == "Team A"
    assert not User.objects.filter(email__in=[a_admin.email, a_member.email]).exists()
    # The refused form answered 400 on purpose (the browser logs it); nothing else went wrong.
    assert [e for e in watcher.errors if "status of 400" not in e] == []
