import re

import pytest
from django.core import mail

HOME = re.compile(r"^http://[^/]+/(jobs/)?$")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_admin_invites_a_teammate_who_joins_in_another_browser(
    new_page, team_a, a_admin, log_in_by_email, password
):
    admin = new_page()
    log_in_by_email(admin, a_admin.email)
    admin.check_accessibility()
    admin.page.get_by_role("link", name="Team A").first.click()
    admin.page.wait_for_url("**/teams/team-a/")
    admin.check_accessibility()

    # An invalid address is refused in place (htmx) and the typed text stays.
    admin.page.get_by_label("E-mail address").fill("not-an-address")
    admin.page.get_by_role("button", name="Send invitation").click()
    error = admin.page.locator(".field-error")
    error.wait_for()
    assert "valid email" in error.inner_text().lower()
    assert admin.page.get_by_label("E-mail address").input_value() == "not-an-address"

    admin.page.get_by_label("E-mail address").fill("newbie@a.example")
    admin.page.get_by_role("button", name="Send invitation").click()
    admin.page.get_by_text("Invitation sent to newbie@a.example").wait_for()
    assert admin.page.locator("#team-panel").get_by_text("newbie@a.example").count() >= 1
    admin.check_accessibility()

    link = re.search(r"http://testserver(/invitations/\S+)", mail.outbox[-1].body).group(1)
    guest = new_page(width=360)  # a second browser context, on a phone-sized screen
    guest.page.goto(link)
    guest.check_accessibility()
    guest.page.get_by_label("Your name").fill("New Bie")
    guest.page.get_by_label("Password (required)", exact=True).fill(password)
    guest.page.get_by_label("Password again (required)").fill(password)
    guest.page.get_by_role("button", name="Create account and join").click()
    guest.page.wait_for_url("**/teams/team-a/")
    guest.page.get_by_text("Welcome to Team A").wait_for()
    assert guest.page.locator("#team-panel tbody tr", has_text="newbie@a.example").count() == 1
    guest.check_accessibility()
    # Nothing overflows sideways on a 360 px screen.
    assert guest.page.evaluate("document.documentElement.scrollWidth") <= 360

    admin.page.reload()
    assert admin.page.locator("#team-panel tbody tr", has_text="newbie@a.example").count() == 1
    assert admin.page.get_by_text("No pending invitations.").count() == 1
    assert admin.errors == [] and guest.errors == []


def test_keyboard_only_login(new_page, a_member, password):
    watcher = new_page()
    page = watcher.page
    page.goto("/")
    page.keyboard.press("Tab")  # the skip link comes first
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    page.get_by_role("link", name="Log in").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/accounts/login/")
    page.locator("#id_username:focus").wait_for()  # the address field has focus on arrival
    page.keyboard.type(a_member.email)
    page.keyboard.press("Tab")
    page.keyboard.type(password)
    page.keyboard.press("Enter")
    page.wait_for_url(HOME)
    assert page.get_by_role("button", name=re.compile("Log out")).count() == 1
    assert watcher.errors == []
