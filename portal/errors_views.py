"""Our own error pages. The 500 page is rendered without context processors or
database access, since whatever failed may be the database itself."""

from urllib.parse import urlsplit

from django.http import HttpResponseForbidden, HttpResponseServerError
from django.shortcuts import render
from django.template import loader
from django.utils.http import url_has_allowed_host_and_scheme


def permission_denied(request, exception=None):
    return render(request, "403.html", status=403)


def page_not_found(request, exception=None):
    return render(request, "404.html", status=404)


def server_error(request):
    return HttpResponseServerError(loader.get_template("500.html").render())


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
