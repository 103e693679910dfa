"""`python manage.py slurm_agent --url … --token …`: the Slurm agent from the portal's checkout.

The agent talks to the portal only over HTTP (the public scheduler API), exactly as it does
when it runs alone on a login node (`python -m jobs.slurm_agent`)."""

import sys

from django.core.management.base import BaseCommand

from jobs.slurm_agent import cli


class Command(BaseCommand):
    help = "Run the Slurm agent: submit jobs dispatched to this cluster and report them."

    def add_arguments(self, parser):
        cli.add_arguments(parser)

    def handle(self, *args, **options):
        code = cli.run(type("Options", (), options))
        if code:
            sys.exit(code)
