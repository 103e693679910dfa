from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from portal.management import backup


class Command(BaseCommand):
    help = "Write a backup of the database (the only place the portal keeps state)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--out",
            type=Path,
            help="file to write (default: VAR_DIR/backups/portal-<UTC time>.dump or .sqlite3)",
        )

    def handle(self, *args, out, **options):
        stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
        out = out or Path(settings.VAR_DIR) / "backups" / f"portal-{stamp}{backup.suffix()}"
        try:
            out = backup.backup(out)
        except backup.BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Backup written to {out} ({out.stat().st_size:,} bytes).")
