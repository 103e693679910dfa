"""Rate limits per client address, counted in the shared cache (Redis in production, the
database on the embedded default), so every web worker sees the same count.

A limit is written "COUNT/PERIOD" with PERIOD one of s, m, h, d (e.g. "60/m")."""

import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured

from .clientip import client_ip

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


def check(request, scope):
    """Raise Limited when this client has used up `scope` in the current window."""
    rate = _rate(scope)
    key, left = _key(request, scope, rate)
    if (cache.get(key) or 0) >= rate.count:
        raise Limited(left)


def hit(request, scope):
    """Count one use of `scope`; raise Limited if it goes over the limit."""
    rate = _rate(scope)
    key, left = _key(request, scope, rate)
    cache.add(key, 0, rate.seconds + 1)
    try:
        used = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, rate.seconds + 1)
        used = 1
    if used > rate.count:
        raise Limited(left)
