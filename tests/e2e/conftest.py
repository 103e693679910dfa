"""Browser tests: Playwright driving Debian's Chromium against a live server.

Without a Chromium they are skipped, loudly; with REQUIRE_BROWSER=1 a missing
browser fails the run instead (CI sets it)."""

import os
import re
import shutil

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def find_chromium():
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def pytest_collection_modifyitems(config, items):
    if find_chromium():
        return
    if os.environ.get("REQUIRE_BROWSER") == "1":
        return  # the browser fixture fails each test, so the run fails
    marker = pytest.mark.skip(
        reason="NO CHROMIUM FOUND: browser tests skipped (apt-get install chromium)"
    )
    for item in items:
        if "e2e" in str(item.path):
            item.add_marker(marker)


def pytest_terminal_summary(terminalreporter):
    if not find_chromium():
        terminalreporter.write_sep(
            "!", "NO CHROMIUM FOUND: the browser tests did not run", red=True
        )


@pytest.fixture(scope="session")
def browser():
    path = find_chromium()
    if path is None:
        pytest.fail("REQUIRE_BROWSER=1 but no Chromium was found (install Debian's chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class PageWatcher:
    """Collects console errors and page errors, and runs axe on each page visited."""

    def __init__(self, page):
        self.page = page
        self.errors = []
        page.on("console", lambda msg: msg.type == "error" and self.errors.append(msg.text))
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def check_accessibility(self):
        from axe_playwright_python.sync_playwright import Axe

        results = Axe().run(self.page)
        assert results.violations_count == 0, (self.page.url, results.generate_report())


@pytest.fixture
def new_page(browser, live_server):
    contexts = []

    def make(width=1280):
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": width, "height": 900}
        )
        contexts.append(context)
        return PageWatcher(context.new_page())

    yield make
    for context in contexts:
        context.close()


# Where a log-in lands: staff on the home page, a partner on their jobs.
HOME = re.compile(r"^http://[^/]+/(jobs/)?$")


@pytest.fixture
def log_in(password):
    """log_in(watcher, user): with the keyboard alone, from the address field that has focus."""

    def log_in(watcher, user):
        page = watcher.page
        page.goto("/accounts/login/")
        page.locator("#id_username:focus").wait_for()  # the address field has focus on arrival
        page.keyboard.type(user.email)
        page.keyboard.press("Tab")
        page.keyboard.type(password)
        page.keyboard.press("Enter")
        page.wait_for_url(HOME)

    return log_in


@pytest.fixture
def log_in_by_email(password):
    """log_in_by_email(watcher, email, password=the suite's): the form filled by its labels,
    the login page checked with axe first."""
    default = password

    def log_in(watcher, email, password=default):
        page = watcher.page
        page.goto("/accounts/login/")
        watcher.check_accessibility()
        page.get_by_label("E-mail address").fill(email)
        page.get_by_label("Password").fill(password)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(HOME)

    return log_in
