import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import OperationalError, connection
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]


def test_production_settings_pass_the_deploy_check(tmp_path):
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {
            "DEBUG",
            "TESTING",
            "HTTPS",
            "SECRET_KEY",
            "ALLOWED_HOSTS",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        }
    }
    env.update(
        DEBUG="0",
        HTTPS="1",
        SECRET_KEY="q8Zr-" + "x7Kp2-vN4m9-Lw3e8-Tb6y1-Hs5d0-Jf2g7-Rc9k4-Ua1o6-Zi3q8" * 2,
        ALLOWED_HOSTS="partners.e31.example",
        CSRF_TRUSTED_ORIGINS="https://partners.e31.example",
        EMAIL_HOST="smtp.e31.example",
        VAR_DIR=str(tmp_path),
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.django_db
def test_strict_csp_header_and_no_inline_script(client):
    response = client.get(reverse("home"))
    policy = response["Content-Security-Policy"]
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "script-src 'self' 'nonce-" in policy
    html = response.content.decode()
    # Every <script> loads a file; none carries code of its own.
    assert "<script>" not in html
    for tag in html.split("<script")[1:]:
        assert "src=" in tag.split(">")[0]
    assert 'name="htmx-config"' in html and '"includeIndicatorStyles": false' in html


@pytest.mark.django_db
def test_custom_error_pages(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert b"Page not found" in response.content


@pytest.mark.django_db
def test_healthz_answers_ok_when_the_database_and_broker_answer(client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "broker": "ok"}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_stays_up_when_only_the_broker_is_down(client, settings):
    """The outbox keeps what was to be sent until the broker is back: a broker outage must
    not have the load balancer take every web node out."""
    settings.CELERY_BROKER_URL = "redis://:secret@127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json() == {
        "status": "degraded",
        "database": "ok",
        "broker": "down",
        "broker_url": "redis://:**@127.0.0.1:1/0",
    }


@pytest.mark.django_db
def test_healthz_answers_503_when_the_database_is_down(client):
    def refuse(execute, sql, params, many, context):
        raise OperationalError("connection refused")

    with connection.execute_wrapper(refuse):
        response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json()["status"] == "down"
    assert response.json()["database"] == "down"


@pytest.mark.parametrize("value", ["ture", "2", "enabled"])
def test_a_malformed_boolean_setting_stops_the_start(value, tmp_path):
    env = {**os.environ, "DEBUG": value, "VAR_DIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-c", "import portal.settings"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert f"DEBUG={value!r} is not a boolean" in result.stderr


def test_boolean_settings_read_the_usual_words(monkeypatch):
    from portal.settings import env_bool

    for word, expected in [
        ("1", True),
        ("Yes", True),
        ("off", False),
        ("FALSE", False),
        ("", True),
    ]:
        monkeypatch.setenv("X_FLAG", word)
        assert env_bool("X_FLAG", default=True) is expected
