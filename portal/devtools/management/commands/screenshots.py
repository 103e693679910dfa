"""Screenshots of the main pages at 1280 and 360 px wide, for the README: `make screenshots`."""

import os
from pathlib import Path

from django.core.management.base import BaseCommand

from portal.devtools.demo_pages import live_site, main_pages, session_cookie

WIDTHS = (1280, 360)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


class Command(BaseCommand):
    help = "Save screenshots of the demo's main pages (1280 and 360 px) to docs/screenshots/."

    def add_arguments(self, parser):
        parser.add_argument("--out", default="docs/screenshots")
        parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))

    def handle(self, *args, out, chromium, **options):
        from playwright.sync_api import sync_playwright  # only this command needs a browser

        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        pages = main_pages()
        cookies = {who: session_cookie(who) for _, _, who in pages if who}
        with live_site() as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            for name, path, who in pages:
                for width in WIDTHS:
                    context = browser.new_context(
                        base_url=base,
                        viewport={"width": width, "height": 900 if width > 600 else 780},
                    )
                    if who:
                        context.add_cookies([{**cookies[who], "url": base}])
                    page = context.new_page()
                    page.goto(path, wait_until="networkidle")
                    target = folder / f"{name}-{width}.png"
                    page.screenshot(path=str(target), full_page=True)
                    context.close()
                    self.stdout.write(f"{target}")
            browser.close()
