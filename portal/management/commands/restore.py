from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from portal.management import backup


class Command(BaseCommand):
    help = (
        "Replace the database's content with a backup made by `manage.py backup`. "
        "Stop the web server and the worker first."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--noinput", "--no-input", action="store_false", dest="interactive",
            help="do not ask for confirmation",
        )  # fmt: skip

    def handle(self, *args, file, interactive, **options):
        if interactive:
            answer = input(f"Replace everything in the database with {file}? Type 'yes': ")
            if answer.strip() != "yes":
                raise CommandError("Nothing restored.")
        try:
            backup.restore(file)
        except backup.BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Restored {file}. Run `manage.py migrate` if the code is newer.")
