"""Our own error pages. The 400 and 500 pages are rendered without context processors or
database access: for a 500 whatever failed may be the database itself, a 400 comes from a
request whose body could not be read (maybe before the session and user are known)."""

import sys
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.db import InterfaceError, OperationalError
from django.http import (
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseForbidden,
    HttpResponseServerError,
)
from django.shortcuts import render
from django.template import loader
from django.utils.http import url_has_allowed_host_and_scheme

# A database restart or failover takes seconds; browsers and clients that honour it wait this long.
RETRY_AFTER_SECONDS = 5


def bad_request(request, exception=None):
    """A post the portal could not read: larger than it accepts, too many fields or a
    malformed body. Said plainly, and marked as a failed request so that site.js keeps the
    browser's copy of what was typed (Django's own 400 page did not: the copy was dropped
    as saved)."""
    if isinstance(exception, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE / 2**20
        reason = f"It was larger than the portal accepts ({limit:.1f} MB)."
    elif isinstance(exception, TooManyFieldsSent):
        reason = "It had more fields than the portal accepts."
    else:
        reason = "It was malformed."
    page = loader.get_template("400.html").render({"reason": reason})
    return HttpResponseBadRequest(page)


def permission_denied(request, exception=None):
    return render(request, "403.html", status=403)


def page_not_found(request, exception=None):
    return render(request, "404.html", status=404)


def server_error(request):
    """Our 500 page, or a 503 with Retry-After when the database could not be reached (a
    restart, a failover): the same words whatever failed, and only a POST is told that nothing
    it sent was saved (its transaction was rolled back). A page that failed after a save, or
    on the page a save redirects to, does not claim the save was lost."""
    error = sys.exc_info()[1]
    context = {"posted": request.method == "POST"}
    if isinstance(error, OperationalError | InterfaceError):
        page = loader.get_template("503.html").render(context)
        response = HttpResponse(page, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return HttpResponseServerError(loader.get_template("500.html").render(context))


def csrf_failure(request, reason=""):
    """The form's security token did not match: usually the person logged in or out in
    another tab, which rotates it. An htmx request gets a short answer and a header
    site.js reads; a page gets our own explanation and a way back. Nothing posted is
    used: the browser keeps what was typed (site.js) and saves it from the page."""
    if request.headers.get("HX-Request"):
        response = HttpResponseForbidden(
            "Not saved: this page is out of date because you logged in or out in another tab.",
            content_type="text/plain; charset=utf-8",
        )
        response["X-Portal-Reason"] = "csrf"
        return response
    back = request.headers.get("Referer", "")
    if url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        parts = urlsplit(back)
        back = parts.path + (f"?{parts.query}" if parts.query else "")
    else:
        back = ""
    return render(request, "403_csrf.html", {"back": back}, status=403)
