"""The client's address. Behind a proxy every request comes from the proxy, so
X-Forwarded-For is read, but only when the request comes from a proxy named in
TRUSTED_PROXIES (anyone else could write the header to pose as someone else). The
address is then the right-most one in the header that is not itself a trusted proxy."""

import ipaddress
from functools import lru_cache

from django.conf import settings


@lru_cache(maxsize=8)
def _networks(proxies):
    return tuple(ipaddress.ip_network(p, strict=False) for p in proxies)


def _trusted(address):
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _networks(tuple(settings.TRUSTED_PROXIES)))


def client_ip(request):
    remote = request.META.get("REMOTE_ADDR", "")
    if not settings.TRUSTED_PROXIES or not _trusted(remote):
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    hops = [hop.strip() for hop in forwarded.split(",")[-20:] if hop.strip()]
    for hop in reversed(hops):
        try:
            address = str(ipaddress.ip_address(hop))
        except ValueError:
            return remote  # a garbled header is not believed
        if not _trusted(address):
            return address
    return hops[0] if hops else remote
