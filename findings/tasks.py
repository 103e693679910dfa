from celery import shared_task


@shared_task
def send_findings_digest():
    """Beat, daily: staff hear of untriaged findings and those waiting on them."""
    from .digest import send_staff_digest

    return send_staff_digest()
