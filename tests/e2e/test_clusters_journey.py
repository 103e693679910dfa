"""Issue 31, item 7: staff connect a cluster. From the staff home to the clusters page; an empty
form is said on its field, what was typed kept; a registered cluster's token and the command to
paste on the login node are shown once, each with a copy button; on a phone, the token is
replaced and the old one is gone. axe on every state, no sideways scroll at 360 px."""

import re

import pytest
from django.conf import settings

from jobs.runs.models import Cluster

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TOKEN = re.compile(r"e31s_[\w-]+")


def test_register_a_cluster_copy_its_command_then_replace_the_token_at_360(new_page, staff, log_in):
    watcher = new_page()
    page = watcher.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(watcher, staff)
    page.get_by_role("link", name="Clusters", exact=True).click()
    page.wait_for_url("**/staff/clusters/")
    page.get_by_role("cell", name="No cluster yet.").wait_for()
    watcher.check_accessibility()

    page.get_by_label("Slurm partition").fill("gpu")
    register = page.get_by_role("button", name="Register the cluster and create its agent's token")
    register.click()
    page.get_by_role("alert").filter(has_text="Give the cluster a name.").wait_for()
    assert page.get_by_label("Name", exact=True).get_attribute("aria-invalid") == "true"
    assert page.get_by_label("Slurm partition").input_value() == "gpu"
    watcher.check_accessibility()

    page.get_by_label("Name", exact=True).fill("lab-west")
    page.get_by_label("Accelerator types → the cluster's GRES").fill("H100-80GB -> gpu:h100")
    register.click()
    page.get_by_text("Cluster lab-west registered.").wait_for()
    token = page.locator("#agent-token").inner_text()
    assert TOKEN.fullmatch(token)
    command = page.locator("#agent-run").inner_text()
    # The portal's own address (SITE_URL), the token and the work folder, ready to paste.
    assert command == (
        f"python3 e31-slurm-agent.pyz --url {settings.SITE_URL} --token {token}"
        " --workdir ~/e31-agent"
    )
    page.get_by_role("button", name="Copy the command").click()
    page.get_by_role("status").filter(has_text="Copied.").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == command
    row = page.get_by_role("row").filter(has_text="lab-west")
    assert "never called" in row.inner_text() and "H100-80GB → gpu:h100" in row.inner_text()
    watcher.check_accessibility()

    page.set_viewport_size({"width": 360, "height": 780})
    page.goto("/staff/clusters/")
    assert page.locator("#agent-token").count() == 0  # shown once
    page.get_by_role("button", name="Replace token of lab-west").click()
    page.get_by_text("A new token for lab-west: the old one no longer works.").wait_for()
    new_token = page.locator("#agent-token").inner_text()
    assert TOKEN.fullmatch(new_token) and new_token != token
    page.get_by_role("button", name="Copy the token").click()
    page.get_by_role("status").filter(has_text="Copied.").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == new_token
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    watcher.check_accessibility()
    assert Cluster.objects.get().name == "lab-west"
    assert [e for e in watcher.errors if "status of 400" not in e] == []
