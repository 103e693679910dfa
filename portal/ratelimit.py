"""Rate limits per client address, counted in a table of the database (`RateCount`), which
every web worker shares whatever cache is configured: one UPDATE per use adds to the count
atomically. (Django's cache incr is atomic in Redis and memcached, but the database cache,
the embedded default, reads and writes back: two workers at once lost a count.)

A limit is written "COUNT/PERIOD" with PERIOD one of s, m, h, d (e.g. "60/m")."""

import time
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import IntegrityError, transaction
from django.db.models import F
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
    """The count's key for this client and the current window, and the seconds left in it
    (one reading of the clock: two could fall either side of the window's end)."""
    now = int(time.time())
    window, into = divmod(now, rate.seconds)
    return f"ratelimit:{scope}:{client_ip(request)}:{window}", rate.seconds - into


def _rate(scope):
    return Rate.parse(settings.RATE_LIMITS[scope])


def _used(key):
    return RateCount.objects.filter(key=key).values_list("count", flat=True).first() or 0


def _count(key, seconds):
    """One more use; returns the count with it. The UPDATE locks the row until the
    transaction ends, so the count read back is this use's own: atomic in every worker,
    on any database."""
    with transaction.atomic():
        if RateCount.objects.filter(key=key).update(count=F("count") + 1):
            return RateCount.objects.filter(key=key).values_list("count", flat=True).get()
    now = timezone.now()
    try:
        with transaction.atomic():
            RateCount.objects.create(key=key, count=1, expires_at=now + timedelta(seconds=seconds))
    except IntegrityError:  # another worker made the row first: count on it
        return _count(key, seconds)
    RateCount.objects.filter(expires_at__lt=now).delete()  # once per client and window
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
