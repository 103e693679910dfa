"""A staff member's passkey in the browser, made by Chromium's virtual authenticator (over the
DevTools protocol, as a laptop's fingerprint reader would answer): added at the first login
instead of an app, listed on the second-step page, then the second step passed with it."""

import re

import pytest

from portal.second_factor import services
from portal.second_factor.models import Passkey
from tests.e2e.conftest import HOME

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def virtual_authenticator(page):
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    options = {
        "protocol": "ctap2",
        "transport": "internal",
        "hasResidentKey": True,
        "hasUserVerification": True,
        "isUserVerified": True,
        "automaticPresenceSimulation": True,
    }
    return cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})["authenticatorId"]


def test_staff_add_a_passkey_and_log_in_with_it(
    new_page, live_server, staff, password_step, settings
):
    settings.WEBAUTHN_RP_ID = "localhost"
    settings.WEBAUTHN_ORIGINS = [live_server.url]
    assert live_server.url.startswith("http://localhost:")
    watcher = new_page(width=360)
    page = watcher.page
    virtual_authenticator(page)

    password_step(page, staff.email)
    page.get_by_role("heading", name="Set up the second step").wait_for()
    page.get_by_role("link", name="Add a passkey instead").click()
    page.get_by_role("heading", name="Add a passkey").wait_for()
    watcher.check_accessibility()
    assert not page.get_by_text("This browser cannot make passkeys").is_visible()
    page.get_by_label("Name of the passkey").fill("Work laptop")
    page.get_by_role("button", name="Add the passkey").click()
    page.get_by_role("heading", name="The second step is on").wait_for()
    codes = (
        page.get_by_role("list", name="Recovery codes").get_by_role("listitem").all_inner_texts()
    )
    assert len(codes) == 10
    page.get_by_role("link", name="I have kept them: continue").click()
    page.wait_for_url(HOME)

    page.goto("/accounts/second-step/")
    passkeys = page.get_by_role("list", name="Your passkeys")
    assert passkeys.get_by_text("Work laptop", exact=True).is_visible()
    assert passkeys.get_by_role("button", name="Remove the passkey Work laptop").is_visible()
    watcher.check_accessibility()
    page.get_by_role("button", name=re.compile("^Log out")).click()

    password_step(page, staff.email)
    page.get_by_role("heading", name="Second step").wait_for()
    watcher.check_accessibility()
    page.get_by_role("button", name="Use a passkey").click()
    page.wait_for_url(HOME)
    assert Passkey.objects.get(user=staff).last_used_at is not None
    page.goto("/staff/teams/")  # past the step: staff pages open
    page.wait_for_url("**/staff/teams/")
    assert watcher.errors == []


def test_without_webauthn_the_page_says_so_and_a_code_still_works(
    new_page, live_server, a_member, password_step, settings
):
    settings.WEBAUTHN_RP_ID = "localhost"
    settings.WEBAUTHN_ORIGINS = [live_server.url]
    settings.OTP_STATIC_THROTTLE_FACTOR = 0
    Passkey.objects.create(user=a_member, name="Phone", credential_id="cGhvbmU", public_key=b"k")
    codes = services.new_recovery_codes(a_member)
    watcher = new_page(width=360)
    page = watcher.page
    page.add_init_script("delete window.PublicKeyCredential;")  # an older browser
    password_step(page, a_member.email)
    page.get_by_role("heading", name="Second step").wait_for()
    page.get_by_text("This browser cannot use passkeys: type a code below.").wait_for()
    assert not page.get_by_role("button", name="Use a passkey").is_visible()
    watcher.check_accessibility()
    page.get_by_label("Code").fill(codes[0])
    page.get_by_role("button", name="Continue").click()
    page.wait_for_url(HOME)
    assert watcher.errors == []
