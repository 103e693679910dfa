"""Browser tests: Playwright driving Debian's Chromium against a live server.

Without a Chromium they are skipped, loudly; with REQUIRE_BROWSER=1 a missing
browser fails the run instead (CI sets it)."""

import os
import re
import shutil
from base64 import b32decode, b32encode

import pytest
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

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
SECOND_STEP = re.compile(r"/accounts/second-step/(set-up|code)/")


@pytest.fixture
def second_step():
    """second_step(page, email): past the second step a staff login asks for, as a person
    would: at the first login, the key the page shows added to an app and its code typed; later,
    the code of the app set up then. The page then goes where the login was going."""

    def pass_it(page, email):
        page.wait_for_url(lambda url: not url.endswith("/accounts/login/"))
        if not SECOND_STEP.search(page.url):
            return
        if "/set-up/" in page.url:
            key = page.get_by_label("Key").input_value()
            page.get_by_label("Code from the app").fill(app_code(key))
            page.get_by_role("button", name="Turn on the second step").click()
            page.get_by_role("link", name="I have kept them: continue").click()
        else:
            device = TOTPDevice.objects.get(user__email=email, confirmed=True)
            device.last_t = -1  # the app's code may be used again within its 30 s, in tests
            device.save(update_fields=["last_t"])
            page.get_by_label("Code").fill(app_code(b32encode(device.bin_key).decode()))
            page.get_by_role("button", name="Continue").click()

    return pass_it


def app_code(key):
    """What an authenticator app shows now for a key typed into it."""
    totp = TOTP(b32decode(key.replace(" ", "").upper()))
    return f"{totp.token():06d}"


@pytest.fixture
def log_in(password, second_step):
    """log_in(watcher, user): with the keyboard alone, from the address field that has focus."""

    def log_in(watcher, user):
        page = watcher.page
        page.goto("/accounts/login/")
        page.locator("#id_username:focus").wait_for()  # the address field has focus on arrival
        page.keyboard.type(user.email)
        page.keyboard.press("Tab")
        page.keyboard.type(password)
        page.keyboard.press("Enter")
        second_step(page, user.email)
        page.wait_for_url(HOME)

    return log_in


@pytest.fixture
def password_step(password):
    """password_step(page, email, password=the suite's): the login form filled by its labels
    and sent; what comes next (a second step, or home) is the test's to read."""
    default = password

    def fill_and_send(page, email, password=default):
        page.goto("/accounts/login/")
        page.get_by_label("E-mail address").fill(email)
        page.get_by_label("Password").fill(password)
        page.get_by_role("button", name="Log in").click()

    return fill_and_send


@pytest.fixture
def log_in_by_email(password, password_step, second_step):
    """log_in_by_email(watcher, email, password=the suite's): the form filled by its labels,
    the login page checked with axe first."""
    default = password

    def log_in(watcher, email, password=default):
        page = watcher.page
        page.goto("/accounts/login/")
        watcher.check_accessibility()
        password_step(page, email, password)
        second_step(page, email)
        page.wait_for_url(HOME)

    return log_in
