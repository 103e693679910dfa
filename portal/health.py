"""/healthz for the load balancer: 200 while the database answers, 503 when it does not.

The broker is reported but does not fail the check: every enqueue goes through the outbox
(portal/outbox.py), which keeps what was to be sent until the broker is back, so the site
works without it. Failing here would have the load balancer take every web node out at
once for a broker outage. The body names the part that is down (and, for the broker, its
address without credentials). No data, no login, never cached."""

import logging

from django.conf import settings
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from kombu.utils.url import maybe_sanitize_url

from .celery import app as celery_app
from .models import Team

log = logging.getLogger(__name__)


def _database():
    # A query through the ORM, not just an open connection: a connection kept from an
    # earlier request (CONN_MAX_AGE) can outlive the server it was made to.
    Team.objects.exists()


def _broker():
    # A fresh connection to the URL configured now, never a pooled one: a pooled Redis
    # connection made before the broker went away would report it as still up.
    with celery_app.connection_for_write(url=settings.CELERY_BROKER_URL) as conn:
        conn.ensure_connection(max_retries=1, timeout=2)


def _probe(name, probe):
    try:
        probe()
    except Exception as error:
        log.warning("health check: the %s is down: %s", name, error)
        return "down"
    return "ok"


@never_cache
@require_safe
def healthz(request):
    body = {"status": "ok", "database": _probe("database", _database)}
    body["broker"] = _probe("broker", _broker)
    if body["broker"] != "ok":
        body["status"] = "degraded"
        body["broker_url"] = maybe_sanitize_url(settings.CELERY_BROKER_URL)
    if body["database"] != "ok":
        body["status"] = "down"
    return JsonResponse(body, status=200 if body["database"] == "ok" else 503)
