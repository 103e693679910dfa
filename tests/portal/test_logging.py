"""Every refusal (403, 400) logs one line, not a traceback."""

import logging

import pytest

from portal.logfilters import RefusalsOnOneLine

pytestmark = pytest.mark.django_db


def test_a_refusal_is_one_line(client_for, a_member, caplog):
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert client_for(a_member).get("/staff/teams/").status_code == 403
    [record] = [r for r in caplog.records if getattr(r, "status_code", None) == 403]
    assert RefusalsOnOneLine().filter(record) and record.exc_info is None
    formatted = logging.Formatter().format(record)
    assert "Traceback" not in formatted and "/staff/teams/" in formatted


def test_the_console_handler_applies_it():
    filters = [f for h in logging.getLogger().handlers for f in h.filters]
    assert any(isinstance(f, RefusalsOnOneLine) for f in filters)


@pytest.mark.parametrize(
    "body",
    [
        {f"field{i}": "x" for i in range(1_200)},  # more fields than the portal reads
        {"text": "x" * (3 * 2**20)},  # larger than it accepts
    ],
    ids=["too many fields", "too large"],
)
def test_a_bad_request_is_one_line(client, body, caplog):
    with caplog.at_level(logging.WARNING):
        assert client.post("/accounts/login/", body).status_code == 400
    [record] = [r for r in caplog.records if getattr(r, "status_code", None) == 400]
    assert RefusalsOnOneLine().filter(record)
    formatted = logging.Formatter().format(record)
    assert "Traceback" not in formatted and "\n" not in formatted
