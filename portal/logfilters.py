"""Log filters. A refused request (400, 403, any 4xx) is an everyday event, not a failure:
one line (what, path), without Django's traceback of the exception that refused it (a body
too large, too many fields, a malformed upload, PermissionDenied)."""

import logging


class RefusalsOnOneLine(logging.Filter):
    def filter(self, record):
        if 400 <= getattr(record, "status_code", 0) < 500:
            record.exc_info = None
            record.exc_text = None
        return True


class QuietDefaultHostname(logging.Filter):
    """kombu warns "No hostname was supplied. Reverting to default 'localhost'" for a broker
    URL without a host, which the embedded filesystem:// broker never has: that is not
    news, once a connection, in the terminal of `make run`."""

    def filter(self, record):
        return not str(record.msg).startswith("No hostname was supplied")
