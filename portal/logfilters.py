"""Log filters. A refused request (403) is an everyday event, not a failure: one line
(method, path, who), without Django's traceback of the PermissionDenied."""

import logging


class RefusalsOnOneLine(logging.Filter):
    def filter(self, record):
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
