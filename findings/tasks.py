from celery import shared_task

from .digest import send_staff_digest


@shared_task
def send_findings_digest():
    """Beat, daily: staff hear of untriaged findings and those waiting on them."""
    return send_staff_digest()
