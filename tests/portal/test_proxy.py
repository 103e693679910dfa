"""The client's address behind a trusted proxy (issue 11, item 6)."""

import pytest
from django.test import override_settings

from portal.clientip import client_ip

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.2"


def test_forwarded_for_is_ignored_without_a_trusted_proxy(rf):
    request = rf.get("/", REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert client_ip(request) == "203.0.113.9"


@override_settings(TRUSTED_PROXIES=[PROXY, "10.1.0.0/16"])
@pytest.mark.parametrize(
    ("remote", "forwarded", "expected"),
    [
        (PROXY, "198.51.100.4", "198.51.100.4"),
        (PROXY, "6.6.6.6, 198.51.100.4", "198.51.100.4"),  # the left is the client's word
        (PROXY, "198.51.100.4, 10.1.2.3", "198.51.100.4"),  # a chain of trusted proxies
        ("203.0.113.9", "198.51.100.4", "203.0.113.9"),  # not from the proxy: not believed
        (PROXY, "not-an-address", PROXY),
        (PROXY, "", PROXY),
    ],
)
def test_forwarded_for_is_read_only_from_a_trusted_proxy(rf, remote, forwarded, expected):
    request = rf.get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected


def login(client, user, password, forwarded):
    return client.post(
        "/accounts/login/",
        {"username": user.email, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=forwarded,
    )


@override_settings(TRUSTED_PROXIES=[PROXY])
def test_an_attacker_behind_the_proxy_does_not_lock_the_user_out(client, a_member, password):
    for _ in range(6):
        login(client, a_member, "wrong", "198.51.100.66")
    assert login(client, a_member, password, "198.51.100.66").status_code == 429
    welcome = login(client, a_member, password, "203.0.113.20")
    assert welcome.status_code == 302  # the real user, from their own address


@override_settings(TRUSTED_PROXIES=[PROXY])
def test_a_bad_scheduler_token_is_logged_with_the_clients_address(client, caplog):
    with caplog.at_level("WARNING", logger="jobs.runs.scheduler_api"):
        response = client.get(
            "/api/v1/scheduler/jobs/1",
            headers={"Authorization": "Bearer e31s_wrong"},
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR="198.51.100.77",
        )
    assert response.status_code == 401
    [line] = [r.getMessage() for r in caplog.records if "token" in r.getMessage()]
    assert line.endswith("198.51.100.77") and PROXY not in line
