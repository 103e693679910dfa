"""The WSGI entry point (gunicorn, runserver).

Before Django reads a request, a charset in its Content-Type that is no text encoding
(base64, zlib, rot13, or idna, which refuses Django's errors="replace") is dropped, and the
request is read as UTF-8 like one that names no charset. Django accepted such a charset and
then failed decoding the query string with it while building the request, before any
middleware or error page: a bare 500 on every URL (GET /healthz?x=1 with
`Content-Type: text/plain; charset=base64`), and on every multipart form.

The request itself (Request) is built without reading its query string, which Django did
as soon as any charset was named: a query of more than 1,000 fields then failed there (a
bare 500) instead of in the middleware (Django's 400). A Content-Type Django cannot parse
(`charset*=bogus''x`) is read as none (it raised BadRequest there, also a bare 500)."""

import os
import re

from django.core.exceptions import BadRequest
from django.core.handlers.wsgi import WSGIRequest
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")

CHARSET = re.compile(r";\s*charset\s*=\s*\"?([^\";\s]*)\"?", re.IGNORECASE)


def decodes_text(name):
    """Whether Django can decode text with it as it does (errors="replace")."""
    try:
        b" \xff".decode(name, "replace")
    except (LookupError, UnicodeError):  # not a text encoding; idna takes no "replace"
        return False
    return True


class Request(WSGIRequest):
    def _set_content_type_params(self, meta):
        try:
            super()._set_content_type_params(meta)
        except BadRequest:
            self.content_type, self.content_params = "", {}

    @property
    def encoding(self):
        return self._encoding

    @encoding.setter
    def encoding(self, value):
        # Django's setter asks hasattr(self, "GET"), which builds GET: only forget it.
        self._encoding = value
        self.__dict__.pop("GET", None)
        self.__dict__.pop("_post", None)


def without_binary_charset(app):
    def application(environ, start_response):
        content_type = environ.get("CONTENT_TYPE", "")
        if any(not decodes_text(m.group(1)) for m in CHARSET.finditer(content_type)):
            environ["CONTENT_TYPE"] = CHARSET.sub("", content_type)
        return app(environ, start_response)

    return application


django_application = get_wsgi_application()
django_application.request_class = Request
application = without_binary_charset(django_application)
