from celery import shared_task
from django.core.management import call_command


@shared_task
def recount():
    """`manage.py recount` on the beat's schedule: a count kept on write drifts only after a
    write that bypasses the services (a bulk import, a hand edit), and is put right within
    the hour without anyone running the command."""
    call_command("recount", verbosity=0)
