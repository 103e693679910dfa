from celery import shared_task

from .digest import send_staff_digest
from .insights import services as insight_services


@shared_task
def send_findings_digest():
    """Beat, daily: staff hear of untriaged findings and those waiting on them."""
    return send_staff_digest()


@shared_task
def recompute_program_figures():
    """Beat, every five minutes: the insights and problem pages read what this stores.
    Rewrites the one row, so a run twice or a late run does no harm."""
    insight_services.recompute()
