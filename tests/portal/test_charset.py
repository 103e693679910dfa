"""A request whose Content-Type names a charset that is no text encoding is read as UTF-8,
never a bare 500 before any middleware (portal/wsgi.py). The test client builds requests
without the WSGI entry point, so these call it as gunicorn does."""

import io
import json
from wsgiref.util import setup_testing_defaults

import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from portal.wsgi import application, decodes_text

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def keep_the_test_connection():
    """As Django's test client does: a request through the handler would otherwise close
    the connection that holds the test's transaction (PostgreSQL: "the connection is
    closed" on the next query)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def call(method, path, query="", body=b"", content_type=""):
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "CONTENT_TYPE": content_type,
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
        "SERVER_NAME": "testserver",
        "HTTP_HOST": "testserver",
    }
    setup_testing_defaults(environ)
    status = []
    chunks = application(environ, lambda s, headers, exc_info=None: status.append(s))
    content = b"".join(chunks)
    if hasattr(chunks, "close"):
        chunks.close()
    return int(status[0].split()[0]), content


@pytest.mark.parametrize(
    "charset", ["base64", "zlib", "rot13", "hex", '"BASE64"', "idna", "undefined"]
)
def test_a_binary_charset_is_read_as_utf8(charset):
    status, _ = call("GET", "/problems/", "q=x", content_type=f"text/plain; charset={charset}")
    assert status == 200
    status, content = call(
        "POST",
        "/api/v1/spec/validate",
        "x=1",
        body=json.dumps({"work": {"name": "é"}}).encode(),
        content_type=f"application/json; charset={charset}",
    )
    assert status == 200 and "issues" in json.loads(content)


def test_text_charsets_are_kept():
    assert decodes_text("utf-8") and decodes_text("latin-1") and decodes_text("utf-16")
    assert not decodes_text("base64") and not decodes_text("no-such-charset")
    assert not decodes_text("idna")  # it takes no errors="replace", which Django passes


def test_a_query_of_too_many_fields_with_a_charset_is_read_as_any_other():
    # Django read it building the request, before any middleware: a bare 500. Now a page
    # that reads it answers Django's 400, one that does not (this one) its page.
    query = "&".join(["a"] * 1_100)
    status, _ = call("GET", "/problems/", query, content_type="text/plain; charset=utf-8")
    assert status == 200


def test_a_content_type_django_cannot_parse_is_read_as_none():
    status, _ = call("GET", "/problems/", "q=x", content_type="text/plain; charset*=bogus''x")
    assert status == 200
