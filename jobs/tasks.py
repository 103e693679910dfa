from celery import shared_task

from . import services


@shared_task
def remind_clarifications():
    return services.remind_clarifications()
