"""A staff member's second step in the browser: set up at the first login with the key the
page shows, then refused without a code, and let in with one (and with a recovery code)."""

import re

import pytest

from tests.e2e.conftest import HOME, app_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_staff_set_up_the_second_step_then_log_in_with_a_code(
    new_page, staff, password_step, settings
):
    # django-otp makes a device wait a second after a wrong code; this browser types faster.
    settings.OTP_TOTP_THROTTLE_FACTOR = settings.OTP_STATIC_THROTTLE_FACTOR = 0
    watcher = new_page(width=360)
    page = watcher.page

    password_step(page, staff.email)
    page.get_by_role("heading", name="Set up the second step").wait_for()
    watcher.check_accessibility()
    assert page.get_by_role("img", name=re.compile("QR code")).is_visible()
    key = page.get_by_label("Key").input_value()
    page.get_by_label("Code from the app").fill("12345")
    page.get_by_role("button", name="Turn on the second step").click()
    page.get_by_text("That code is not right").first.wait_for()
    assert page.get_by_label("Key").input_value() == key  # the same key to try again
    page.get_by_label("Code from the app").fill(app_code(key))
    page.get_by_role("button", name="Turn on the second step").click()
    page.get_by_role("heading", name="The second step is on").wait_for()
    codes = (
        page.get_by_role("list", name="Recovery codes").get_by_role("listitem").all_inner_texts()
    )
    assert len(codes) == 10
    watcher.check_accessibility()
    page.get_by_role("link", name="I have kept them: continue").click()
    page.wait_for_url(HOME)
    page.get_by_role("button", name=re.compile("^Log out")).click()

    password_step(page, staff.email)
    page.get_by_role("heading", name="Second step").wait_for()
    watcher.check_accessibility()
    page.goto("/staff/teams/")  # refused without the code: back to the step
    page.get_by_role("heading", name="Second step").wait_for()
    page.get_by_label("Code").fill(codes[0])
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url("**/staff/teams/")
    page.get_by_role("button", name=re.compile("^Log out")).click()

    password_step(page, staff.email)
    page.get_by_label("Code").fill(codes[0])  # a recovery code works once
    page.get_by_role("button", name="Continue").click()
    page.get_by_text("That code is not right").first.wait_for()
    assert watcher.errors == []
