"""Lighthouse (accessibility and best practices) on the main pages, offline, with Debian's
Chromium: `make lighthouse` installs the npm package and runs this. Fails below --min."""

import json
import os
import subprocess
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from portal.devtools.demo_pages import live_site, main_pages, session_cookie

PAGES = ("home", "design-partners", "jobs", "job", "draft-step", "revision-read", "triage")
CATEGORIES = ("accessibility", "best-practices")


class Command(BaseCommand):
    help = "Run Lighthouse on the main pages and fail if a score is below --min."

    def add_arguments(self, parser):
        parser.add_argument("--lighthouse", default="var/node/node_modules/.bin/lighthouse")
        parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
        parser.add_argument("--min", type=float, default=0.95)
        parser.add_argument("--out", default="", help="folder for the JSON reports")

    def handle(self, *args, lighthouse, chromium, min, out, **options):
        if not Path(lighthouse).exists():
            raise CommandError(f"{lighthouse} not found: run `make lighthouse` to install it.")
        folder = Path(out or tempfile.mkdtemp(prefix="lighthouse-"))
        folder.mkdir(parents=True, exist_ok=True)
        pages = [p for p in main_pages() if p[0] in PAGES]
        failures = []
        with live_site() as base:
            for name, path, who in pages:
                report = folder / f"{name}.json"
                command = [
                    lighthouse,
                    base + path,
                    f"--only-categories={','.join(CATEGORIES)}",
                    "--output=json",
                    f"--output-path={report}",
                    "--quiet",
                    "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
                ]
                if who:
                    cookie = session_cookie(who)
                    command.append(
                        "--extra-headers="
                        + json.dumps({"Cookie": f"{cookie['name']}={cookie['value']}"})
                    )
                subprocess.run(command, check=True, env={**os.environ, "CHROME_PATH": chromium})
                scores = json.loads(report.read_text())["categories"]
                row = {c: scores[c]["score"] for c in CATEGORIES}
                self.stdout.write(
                    f"{name:16} {path:32} " + "  ".join(f"{c} {row[c]:.2f}" for c in CATEGORIES)
                )
                failures += [f"{name} {c} {row[c]:.2f}" for c in CATEGORIES if row[c] < min]
        self.stdout.write(f"Reports: {folder}")
        if failures:
            raise CommandError(f"Below {min}: " + ", ".join(failures))
