"""At the edge, before any view: the methods a page answers, NUL characters and the anonymous
API's rate limit; after the view, the site's own page for a button's address opened as a
page.

NUL characters, once. PostgreSQL cannot store U+0000 in text, so a NUL
in a query parameter or a form field reached the database and answered 500. No one
types one: it is removed from the path's parameters and the form fields before any view
sees them (JSON bodies are cleaned by the API's parser, jobs/api.py).

The API's requests keep their body unread: it reads the body itself, as JSON whatever the
content type says, and reading a multipart body as a form here consumed it, so the API then
failed to read it (a 500 for a scheduler posting `multipart/form-data`)."""

import logging

from django.conf import settings
from django.http import HttpResponseNotAllowed, HttpResponseNotFound, JsonResponse
from django.shortcuts import render

from . import ratelimit
from .clientip import client_ip

log = logging.getLogger(__name__)

NUL = "\x00"
# Where portal/urls.py mounts the API (jobs/api.py).
API_PREFIX = "/api/"


def _clean(querydict):
    cleaned = querydict.copy()
    for key in list(cleaned):
        values = [v.replace(NUL, "") if isinstance(v, str) else v for v in cleaned.getlist(key)]
        del cleaned[key]
        cleaned.setlist(key.replace(NUL, ""), values)
    cleaned._mutable = False
    return cleaned


def _has_nul(querydict):
    return any(NUL in key or any(NUL in v for v in querydict.getlist(key) if isinstance(v, str))
               for key in querydict)  # fmt: skip


class StripNulMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if NUL in request.path:
            return HttpResponseNotFound("Not found.")  # no URL of ours has one
        if "%00" in request.META.get("QUERY_STRING", "") and _has_nul(request.GET):
            request.GET = _clean(request.GET)
        if (
            request.method == "POST"
            and not request.path_info.startswith(API_PREFIX)
            and request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data")
            and _has_nul(request.POST)
        ):
            request.POST = _clean(request.POST)
        return self.get_response(request)


# What a browser sends to a page. TRACE would echo the request (headers, cookies) back; PUT,
# PATCH, DELETE and OPTIONS reached function views written for GET and POST, some of which
# answered them as a GET. The API under API_PREFIX declares its own methods per route.
PAGE_METHODS = ("GET", "HEAD", "POST")


class PageMethodsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in PAGE_METHODS and not request.path_info.startswith(API_PREFIX):
            response = HttpResponseNotAllowed(PAGE_METHODS, "Method not allowed.")
            response["Content-Type"] = "text/plain; charset=utf-8"
            return response
        return self.get_response(request)


class ApiRateLimitMiddleware:
    """Anonymous API endpoints (settings.RATE_LIMITED_PATHS: path prefix -> scope) answer
    429 in the API's JSON once a client has used up its limit."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        for prefix, scope in settings.RATE_LIMITED_PATHS.items():
            if request.path.startswith(prefix):
                try:
                    ratelimit.hit(request, scope)
                except ratelimit.Limited as limited:
                    log.info("rate limit %s reached by %s", scope, client_ip(request))
                    response = JsonResponse({"detail": str(limited)}, status=429)
                    response["Retry-After"] = str(limited.retry_after)
                    return response
                break
        return self.get_response(request)


class ButtonAddressPageMiddleware:
    """A button's address (a view that takes only POST: withdraw, submit, delete, reopen…)
    opened as a page answered Django's empty 405, shown as the browser's own error. It
    happens after logging in again (the login page goes back to ?next=, the address the
    button posted to) or from a bookmark. The page says nothing was done and links to the
    page the button is on (the address one level up). The API keeps its JSON answers."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            response.status_code == 405
            and request.method in ("GET", "HEAD")
            and not request.path_info.startswith(API_PREFIX)
            and not response.content
        ):
            back = request.path.rstrip("/").rsplit("/", 1)[0] + "/"
            page = render(request, "405.html", {"back": back}, status=405)
            page["Allow"] = response.get("Allow", "POST")
            return page
        return response
