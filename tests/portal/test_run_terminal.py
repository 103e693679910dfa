"""Issue 31, item 12: the terminal of `make run`. The worker prints e-mails as blocks (its
stdout is not turned into WARNING log records); the per-minute chatter of beat and the
worker, and kombu's "No hostname was supplied", stay quiet at the default level."""

import io
import logging
import os
import subprocess
import sys

from django.conf import settings
from django.core import mail

from portal.celery import app
from portal.mail import ReadableConsoleBackend

LINK = "http://127.0.0.1:8000/findings/12/?a=1&b=averyveryveryveryveryverylongparameter"


def test_the_worker_writes_to_the_terminal_not_to_a_logger():
    assert app.conf.worker_redirect_stdouts is False


def test_an_email_is_a_readable_block_with_whole_links():
    stream = io.StringIO()
    message = mail.EmailMessage(
        "Test subject", f"Hello,\n\n{LINK}\n", "E31 <partners@localhost>", ["ada@northwind.example"]
    )
    ReadableConsoleBackend(stream=stream).send_messages([message])
    text = stream.getvalue()
    assert text.startswith("From: E31 <partners@localhost>\nTo: ada@northwind.example\n")
    assert "Subject: Test subject\n\nHello,\n\n" + LINK + "\n" in text
    assert "WARNING" not in text and "=\n" not in text


def test_routine_task_chatter_is_quiet_at_the_default_level():
    assert settings.LOG_LEVEL == "INFO"
    for name in ("celery.beat", "celery.worker.strategy", "celery.app.trace"):
        logger = logging.getLogger(name)
        assert not logger.isEnabledFor(logging.INFO), name
        assert logger.isEnabledFor(logging.WARNING), name


def test_kombus_default_hostname_warning_is_dropped_and_nothing_else(caplog):
    logger = logging.getLogger("kombu.connection")
    with caplog.at_level(logging.WARNING):
        logger.warning("No hostname was supplied. Reverting to default 'localhost'")
        logger.warning("Connection to broker lost.")
    assert [r.getMessage() for r in caplog.records] == ["Connection to broker lost."]


def test_debug_shows_the_chatter_again():
    code = (
        "import django, logging; django.setup(); "
        "print(logging.getLogger('celery.beat').isEnabledFor(logging.INFO))"
    )
    env = {"LOG_LEVEL": "DEBUG", "DJANGO_SETTINGS_MODULE": "portal.settings", "TESTING": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True
    )
    assert out.stdout.strip() == "True", out.stderr
