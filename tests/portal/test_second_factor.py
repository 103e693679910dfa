"""The second step at login: required of staff, optional for partners, passed with an app's
code or a recovery code once, never skipped by the set-up page."""

import re
from base64 import b32decode, b32encode

import pytest
from django.conf import settings
from django.urls import reverse
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_waiting(settings):
    """django-otp makes a device wait 1 s after a wrong code, 2 s after two…: these tests type
    the right code at once after a wrong one. test_wrong_codes_slow_the_account_down waits."""
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    settings.OTP_STATIC_THROTTLE_FACTOR = 0


SETUP = "/accounts/second-step/set-up/"
CODE = "/accounts/second-step/code/"


def log_in(client, user, password):
    response = client.post(reverse("login"), {"username": user.email, "password": password})
    assert response.status_code == 302
    return client.get(response["Location"])


def code_for(key_text, offset=0):
    totp = TOTP(b32decode(key_text.replace(" ", "")))
    totp.time += offset * 30
    return f"{totp.token():06d}"


def shown_key(page):
    return re.search(r'id="setup-key"[^>]*value="([A-Z2-7 ]+)"', page.content.decode()).group(1)


def set_up(client):
    page = client.get(SETUP)
    key = shown_key(page)
    done = client.post(SETUP, {"code": code_for(key)})
    assert done.status_code == 200
    codes = re.findall(r"<li><code>([a-z2-7]{8})</code></li>", done.content.decode())
    return key, codes


def test_staff_set_it_up_at_their_first_login(client, staff, password):
    answer = log_in(client, staff, password)
    assert answer.status_code == 302 and answer["Location"].startswith(SETUP)
    assert client.get(reverse("staff_teams"))["Location"].startswith(SETUP)
    assert client.get("/admin/")["Location"].startswith(SETUP)

    page = client.get(SETUP)
    assert page.status_code == 200
    qr = client.get(reverse("second_factor_qr"))
    assert qr["Content-Type"] == "image/svg+xml" and b"<svg" in qr.content
    key = shown_key(page)
    wrong = client.post(SETUP, {"code": "000000" if code_for(key) != "000000" else "111111"})
    assert wrong.status_code == 200 and "not right" in wrong.content.decode()
    assert shown_key(wrong) == key  # the same key, to try again

    done = client.post(SETUP, {"code": code_for(key)})
    codes = re.findall(r"<li><code>([a-z2-7]{8})</code></li>", done.content.decode())
    assert len(set(codes)) == 10
    assert client.get(reverse("staff_teams")).status_code == 200
    assert client.get("/admin/").status_code == 200
    assert client.session.get_expiry_age() == settings.STAFF_SESSION_AGE


def test_later_logins_ask_for_a_code_and_a_recovery_code_works_once(client, staff, password):
    log_in(client, staff, password)
    key, codes = set_up(client)
    client.post(reverse("logout"))

    answer = log_in(client, staff, password)
    assert answer["Location"].startswith(CODE)
    # The set-up page cannot be used to skip the step by setting up another app.
    assert client.get(SETUP)["Location"].startswith(CODE)
    assert client.get(reverse("staff_teams"))["Location"].startswith(CODE)
    refused = client.post(CODE, {"code": "not-a-code"})
    assert refused.status_code == 200 and "not right" in refused.content.decode()

    passed = client.post(CODE, {"code": codes[0].upper(), "next": "/staff/teams/"})
    assert passed.status_code == 302 and passed["Location"] == "/staff/teams/"
    assert client.get(reverse("staff_teams")).status_code == 200
    client.post(reverse("logout"))

    log_in(client, staff, password)
    assert client.post(CODE, {"code": codes[0]}).status_code == 200  # used once: asked again
    assert client.post(CODE, {"code": code_for(key, offset=1)}).status_code == 302
    assert client.get(reverse("staff_teams")).status_code == 200


def test_a_foreign_next_is_not_followed(client, staff, password):
    log_in(client, staff, password)
    key, _ = set_up(client)
    client.post(reverse("logout"))
    log_in(client, staff, password)
    response = client.post(CODE, {"code": code_for(key, offset=1), "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_wrong_codes_slow_the_account_down(client, staff, password, settings):
    settings.OTP_TOTP_THROTTLE_FACTOR = 60
    log_in(client, staff, password)
    key, _ = set_up(client)
    client.post(reverse("logout"))
    log_in(client, staff, password)
    for _ in range(3):
        client.post(CODE, {"code": "123456" if code_for(key) != "123456" else "654321"})
    refused = client.post(CODE, {"code": code_for(key, offset=1)})
    assert refused.status_code == 200
    assert re.search(r"Too many wrong codes in a row: wait \d+ seconds", refused.content.decode())


def test_partners_may_turn_it_on_and_off_staff_may_not_turn_it_off(
    client, a_member, staff, password
):
    assert log_in(client, a_member, password).status_code == 200  # no second step asked
    page = client.get(reverse("second_factor_manage"))
    assert "Set up the second step" in page.content.decode()
    set_up(client)
    assert TOTPDevice.objects.filter(user=a_member, confirmed=True).count() == 1
    client.post(reverse("logout"))
    assert log_in(client, a_member, password)["Location"].startswith(CODE)
    assert client.get(reverse("job_list"))["Location"].startswith(CODE)

    device = TOTPDevice.objects.get(user=a_member)
    key = b32encode(device.bin_key).decode()
    client.post(CODE, {"code": code_for(key, offset=1)})
    client.post(reverse("second_factor_off"))
    assert not TOTPDevice.objects.filter(user=a_member).exists()
    client.post(reverse("logout"))
    assert log_in(client, a_member, password).status_code == 200

    client.post(reverse("logout"))
    log_in(client, staff, password)
    set_up(client)
    client.post(reverse("second_factor_off"))
    assert TOTPDevice.objects.filter(user=staff, confirmed=True).exists()


def test_new_recovery_codes_replace_the_old(client, a_member, password):
    log_in(client, a_member, password)
    key, old = set_up(client)
    page = client.post(reverse("second_factor_codes"))
    new = re.findall(r"<li><code>([a-z2-7]{8})</code></li>", page.content.decode())
    assert len(new) == 10 and not set(new) & set(old)
    client.post(reverse("logout"))
    log_in(client, a_member, password)
    assert client.post(CODE, {"code": old[0]}).status_code == 200  # asked again
    assert client.post(CODE, {"code": new[0]}).status_code == 302


def test_the_api_is_not_asked_for_a_second_step(client, staff, password):
    log_in(client, staff, password)
    assert client.get(reverse("api:openapi-json")).status_code == 200
