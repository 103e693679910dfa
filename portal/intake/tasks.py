import logging

from celery import shared_task

from .services import close_due_windows

log = logging.getLogger(__name__)


@shared_task
def close_due_intake_windows():
    """Beat, every minute: record the close of an intake window whose closing time passed.
    The page already shows it closed (the state is computed); this records who/what closed it."""
    closed = close_due_windows()
    if closed:
        log.info("closed intake windows %s at their closing time", closed)
    return closed
