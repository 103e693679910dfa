"""Rate limits per client address, counted where every web worker sees the same count:
Redis in production (an atomic INCR), a table of the database on the embedded default
(one UPDATE per use, `RateCount`; the database cache's own incr is a read and a write).

A limit is written "COUNT/PERIOD" with PERIOD one of s, m, h, d (e.g. "60/m")."""

import time
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.db import DatabaseCache
from django.core.exceptions import ImproperlyConfigured
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from .clientip import client_ip
from .models import RateCount

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int

    @classmethod
    def parse(cls, text):
        count, _, period = text.partition("/")
        if not count.strip().isdigit() or period.strip() not in PERIODS:
            raise ImproperlyConfigured(f"A rate limit is COUNT/PERIOD, e.g. 60/m, not {text!r}.")
        return cls(int(count), PERIODS[period.strip()])


class Limited(Exception):
    def __init__(self, retry_after):
        super().__init__(f"Too many requests; try again in {retry_after} s.")
        self.retry_after = retry_after


def _key(request, scope, rate):
    window = int(time.time()) // rate.seconds
    return f"ratelimit:{scope}:{client_ip(request)}:{window}", rate.seconds - int(
        time.time()
    ) % rate.seconds


def _rate(scope):
    return Rate.parse(settings.RATE_LIMITS[scope])


def _in_database():
    return isinstance(caches["default"], DatabaseCache)


def _used(key):
    if _in_database():
        return RateCount.objects.filter(key=key).values_list("count", flat=True).first() or 0
    return cache.get(key) or 0


# SQLite (3.35+) and PostgreSQL both return the new count from the one statement.
_ADD_ONE = 'UPDATE "portal_ratecount" SET "count" = "count" + 1 WHERE "key" = %s RETURNING "count"'


def _count_in_database(key, seconds):
    """One more use, counted by a single UPDATE ... RETURNING: atomic in every worker."""
    with connection.cursor() as cursor:
        cursor.execute(_ADD_ONE, [key])
        row = cursor.fetchone()
    if row is not None:
        return row[0]
    now = timezone.now()
    try:
        with transaction.atomic():
            RateCount.objects.create(key=key, count=1, expires_at=now + timedelta(seconds=seconds))
    except IntegrityError:  # another worker made the row first: count on it
        return _count_in_database(key, seconds)
    RateCount.objects.filter(expires_at__lt=now).delete()  # once per client and window
    return 1


def _count(key, seconds):
    if _in_database():
        return _count_in_database(key, seconds)
    cache.add(key, 0, seconds)
    try:
        return cache.incr(key)  # atomic in Redis (and in local memory, one process)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, seconds)
        return 1


def check(request, scope):
    """Raise Limited when this client has used up `scope` in the current window."""
    rate = _rate(scope)
    key, left = _key(request, scope, rate)
    if _used(key) >= rate.count:
        raise Limited(left)


def hit(request, scope):
    """Count one use of `scope`; raise Limited if it goes over the limit."""
    rate = _rate(scope)
    key, left = _key(request, scope, rate)
    if _count(key, rate.seconds + 1) > rate.count:
        raise Limited(left)
