"""Our own error pages. The 500 page is rendered without context processors or
database access, since whatever failed may be the database itself."""

from django.http import HttpResponseServerError
from django.shortcuts import render
from django.template import loader


def permission_denied(request, exception=None):
    return render(request, "403.html", status=403)


def page_not_found(request, exception=None):
    return render(request, "404.html", status=404)


def server_error(request):
    return HttpResponseServerError(loader.get_template("500.html").render())
