"""/healthz for the load balancer: 200 when the database answers and the broker accepts
a connection, 503 (with which part failed) otherwise. No data, no login, never cached."""

import logging

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .celery import app as celery_app

log = logging.getLogger(__name__)


def _database():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _broker():
    # A fresh connection to the URL configured now, never a pooled one: a pooled Redis
    # connection made before the broker went away would report it as still up.
    with celery_app.connection_for_write(url=settings.CELERY_BROKER_URL) as conn:
        conn.ensure_connection(max_retries=1, timeout=2)


@never_cache
@require_GET
def healthz(request):
    checks = {}
    for name, probe in (("database", _database), ("broker", _broker)):
        try:
            probe()
        except Exception as error:
            log.warning("health check: the %s is down: %s", name, error)
            checks[name] = "down"
        else:
            checks[name] = "ok"
    healthy = all(v == "ok" for v in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "down", **checks}, status=200 if healthy else 503
    )
