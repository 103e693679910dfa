"""Passkeys (WebAuthn) beside the app's codes: added on the second-step page, then the step
passed by signing the challenge the code page made. Refused for another challenge, another
origin, a counter that did not go up, a replayed answer and garbage; a person removes only their
own passkeys; staff keep a way through the step."""

import json
import re

import pytest
from django.urls import reverse
from django_otp.plugins.otp_static.models import StaticToken

from portal.second_factor import services
from portal.second_factor.models import Passkey
from tests.portal.second_factor.authenticator import SoftAuthenticator, page_options

pytestmark = pytest.mark.django_db

ADD = "/accounts/second-step/set-up/passkey/"
CODE = "/accounts/second-step/code/"
SIGN_IN = "/accounts/second-step/code/passkey/"
MANAGE = "/accounts/second-step/"


@pytest.fixture(autouse=True)
def _site(settings):
    settings.WEBAUTHN_RP_ID = "localhost"
    settings.WEBAUTHN_ORIGINS = ["http://localhost:8000"]


def password_step(client, user, password):
    client.logout()
    response = client.post(reverse("login"), {"username": user.email, "password": password})
    assert response.status_code == 302
    return client.get(response["Location"], follow=True)


def add_passkey(client, key, name="Work laptop"):
    page = client.get(ADD)
    assert page.status_code == 200
    return client.post(ADD, {"name": name, "credential": key.create(page_options(page))})


def passed(client):
    return client.session.get(services.SESSION_KEY) == services.PASSED


def test_a_partner_adds_a_passkey_then_passes_the_step_with_it(client, a_member, password):
    password_step(client, a_member, password)
    key = SoftAuthenticator()
    done = add_passkey(client, key)
    assert done.status_code == 200  # the first way through: the recovery codes, shown once
    assert "The second step is on" in done.content.decode()
    assert StaticToken.objects.filter(device__user=a_member).count() == 10
    stored = Passkey.objects.get(user=a_member)
    assert (stored.name, stored.sign_count, stored.last_used_at) == ("Work laptop", 0, None)
    manage = client.get(MANAGE).content.decode()
    assert "Work laptop" in manage and "a passkey" in manage

    page = password_step(client, a_member, password)
    assert page.redirect_chain[-1][0].startswith(CODE)
    assert not passed(client)
    assert client.get(reverse("job_list"))["Location"].startswith(CODE)
    answer = client.post(SIGN_IN, {"credential": key.get(page_options(page)), "next": "/jobs/"})
    assert answer.status_code == 302 and answer["Location"] == "/jobs/"
    assert passed(client)
    stored.refresh_from_db()
    assert stored.sign_count == 1 and stored.last_used_at is not None


def refused(client, answer):
    response = client.post(SIGN_IN, {"credential": answer})
    assert response.status_code == 200
    assert "The passkey was not accepted" in response.content.decode()
    assert not passed(client)
    return response


@pytest.fixture
def partner_with_passkey(client, a_member, password):
    password_step(client, a_member, password)
    key = SoftAuthenticator()
    add_passkey(client, key)
    return key


def test_an_answer_for_another_challenge_is_refused(
    client, a_member, password, partner_with_passkey
):
    page = password_step(client, a_member, password)
    options = page_options(page)
    refused(client, partner_with_passkey.get(options, challenge="bm90LXRoZS1jaGFsbGVuZ2U"))


def test_an_answer_from_another_origin_or_site_is_refused(
    client, a_member, password, partner_with_passkey
):
    key = partner_with_passkey
    page = password_step(client, a_member, password)
    refused(client, key.get(page_options(page), origin="https://phish.example"))
    page = client.get(CODE)
    refused(client, key.get(page_options(page), rp_id="phish.example"))


def test_a_counter_that_did_not_go_up_is_refused(client, a_member, password, partner_with_passkey):
    key = partner_with_passkey
    page = password_step(client, a_member, password)
    client.post(SIGN_IN, {"credential": key.get(page_options(page), count=5)})
    assert passed(client)
    page = password_step(client, a_member, password)
    refused(client, key.get(page_options(page), count=5))  # a cloned key signs with an old count
    page = client.get(CODE)
    client.post(SIGN_IN, {"credential": key.get(page_options(page), count=6)})
    assert passed(client)


def test_an_answer_works_once(client, a_member, password, partner_with_passkey):
    page = password_step(client, a_member, password)
    answer = partner_with_passkey.get(page_options(page))
    client.post(SIGN_IN, {"credential": answer})
    assert passed(client)
    password_step(client, a_member, password)
    refused(client, answer)  # the challenge it signed is used up


def test_someone_elses_passkey_does_not_pass_the_step(
    client, a_member, a_admin, password, partner_with_passkey
):
    other = SoftAuthenticator()
    password_step(client, a_admin, password)
    add_passkey(client, other)
    page = password_step(client, a_member, password)
    refused(client, other.get(page_options(page)))


@pytest.mark.parametrize(
    "answer",
    [
        "",
        "null",
        "{}",
        "[1]",
        '{"id": 1, "rawId": "!!", "response": {}}',
        "x" * 70_000,
        json.dumps(
            {
                "id": "AA",
                "rawId": "AA",
                "type": "public-key",
                "response": {"clientDataJSON": "%%", "authenticatorData": "AA", "signature": "AA"},
            }
        ),
    ],
)
def test_garbage_is_refused_with_a_message(
    client, a_member, password, partner_with_passkey, answer
):
    password_step(client, a_member, password)
    response = refused(client, answer)
    assert "a code" in response.content.decode()  # the code form is still there


def test_a_bad_registration_keeps_the_name_and_says_what_to_do(client, a_member, password):
    password_step(client, a_member, password)
    page = client.get(ADD)
    key = SoftAuthenticator()
    wrong = key.create(page_options(page), origin="https://phish.example")
    response = client.post(ADD, {"name": "My phone", "credential": wrong})
    text = response.content.decode()
    assert response.status_code == 200 and "could not be added" in text
    assert 'value="My phone"' in text
    response = client.post(ADD, {"name": "My phone", "credential": "{]"})
    assert response.status_code == 200 and 'value="My phone"' in response.content.decode()
    response = client.post(ADD, {"name": "", "credential": ""})
    assert "This field is required" in response.content.decode()
    response = client.post(ADD, {"name": "n" * 65, "credential": ""})
    assert 'value="' + "n" * 65 + '"' in response.content.decode()  # refused, kept whole
    assert not Passkey.objects.exists()


def test_the_same_passkey_is_not_added_twice(client, a_member, password, partner_with_passkey):
    response = add_passkey(client, partner_with_passkey, name="Again")
    assert "That passkey is already added" in response.content.decode()
    assert Passkey.objects.count() == 1


def test_another_persons_passkey_cannot_be_removed(client_for, a_member, b_member):
    passkey = Passkey.objects.create(
        user=a_member, name="A's key", credential_id="AAAA", public_key=b"k"
    )
    url = reverse("second_factor_passkey_remove", args=[passkey.pk])
    assert client_for(b_member).post(url).status_code == 404
    assert Passkey.objects.filter(pk=passkey.pk).exists()
    assert client_for(a_member).post(url).status_code == 302
    assert not Passkey.objects.filter(pk=passkey.pk).exists()


def test_a_partner_removing_the_last_passkey_turns_the_step_off(
    client, a_member, password, partner_with_passkey
):
    passkey = Passkey.objects.get(user=a_member)
    response = client.post(reverse("second_factor_passkey_remove", args=[passkey.pk]), follow=True)
    assert "the second step is off" in response.content.decode()
    assert not StaticToken.objects.filter(device__user=a_member).exists()
    assert password_step(client, a_member, password).request["PATH_INFO"] == "/jobs/"


def test_staff_set_up_with_a_passkey_and_log_in_with_it_or_a_recovery_code(
    client, staff, password, settings
):
    settings.OTP_STATIC_THROTTLE_FACTOR = 0
    page = password_step(client, staff, password)
    assert page.redirect_chain[-1][0].startswith("/accounts/second-step/set-up/")
    assert "Add a passkey instead" in page.content.decode()
    key = SoftAuthenticator()
    done = add_passkey(client, key, name="Security key")
    codes = re.findall(r"<li><code>([a-z2-7]{8})</code></li>", done.content.decode())
    assert len(codes) == 10 and passed(client)
    assert client.get(reverse("staff_teams")).status_code == 200

    passkey = Passkey.objects.get(user=staff)
    response = client.post(reverse("second_factor_passkey_remove", args=[passkey.pk]), follow=True)
    assert "Staff accounts keep the second step" in response.content.decode()
    assert Passkey.objects.filter(pk=passkey.pk).exists()

    page = password_step(client, staff, password)
    assert client.get("/admin/")["Location"].startswith(CODE)
    client.post(SIGN_IN, {"credential": key.get(page_options(page))})
    assert passed(client) and client.get("/admin/").status_code == 200

    password_step(client, staff, password)
    assert client.post(CODE, {"code": codes[0]})["Location"] == "/"
    assert passed(client)


def test_the_pages_say_so_where_passkeys_cannot_work(client_for, a_member, settings):
    settings.WEBAUTHN_RP_ID = "127.0.0.1"
    client = client_for(a_member)
    assert "not at an address" in client.get(MANAGE).content.decode()
    page = client.get(ADD).content.decode()
    assert "data-passkey" not in page and "authenticator app" in page


def test_the_pages_cost_a_fixed_number_of_queries(client_for, a_member, django_assert_num_queries):
    for n in range(3):
        Passkey.objects.create(
            user=a_member, name=f"Key {n}", credential_id=f"id{n}", public_key=b"k"
        )
    client = client_for(a_member)
    client.get(MANAGE)
    # session, user, the nav's teams, app, passkeys, recovery codes
    with django_assert_num_queries(6):
        assert client.get(MANAGE).status_code == 200
    # session, user, the passkeys to exclude, the nav's teams; the challenge kept in the session
    with django_assert_num_queries(7):
        assert client.get(ADD).status_code == 200


def test_a_passkey_cannot_be_added_before_the_step_is_passed(
    client, a_member, password, partner_with_passkey
):
    password_step(client, a_member, password)
    for response in (client.get(ADD), client.post(ADD, {"name": "Thief", "credential": "{}"})):
        assert response.status_code == 302 and response["Location"] == CODE
    assert Passkey.objects.filter(user=a_member).count() == 1
