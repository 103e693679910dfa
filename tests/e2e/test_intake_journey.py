"""The whole intake in a browser: staff open a window, a team applies (one mistake first),
follows its status link, staff accept and release, the contact accepts the invitation and
lands in the partner portal. axe on every page, no console errors, a phone-sized applicant."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def field(page, label):
    return page.get_by_label(f"{label} (required)", exact=True)


def fits_360(watcher):
    assert watcher.page.evaluate("document.documentElement.scrollWidth") <= 360


def test_staff_open_a_team_applies_is_accepted_and_joins(
    new_page, staff, log_in_by_email, password
):
    # Staff open a window now, with two places.
    desk = new_page()
    log_in_by_email(desk, staff.email)
    desk.page.goto("/staff/intake/")
    desk.check_accessibility()
    now = timezone.now()
    field(desk.page, "Opens at (UTC)").fill((now - timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M"))
    field(desk.page, "Closes at (UTC)").fill((now + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M"))
    field(desk.page, "Places").fill("2")
    desk.page.get_by_label("Announcement").fill("We take **two** teams this round.")
    desk.page.get_by_role("button", name="Schedule the window").click()
    desk.page.get_by_text("The intake window is scheduled.").wait_for()
    desk.check_accessibility()

    # An applicant on a phone-sized screen.
    guest = new_page(width=360)
    page = guest.page
    page.goto("/")
    page.get_by_role("link", name="Design partners", exact=True).click()
    page.wait_for_url("**/design-partners/")
    page.get_by_role("heading", name="Intake is open").wait_for()
    assert page.locator(".announcement strong").inner_text() == "two"
    assert "2 places are left" in page.locator(".intake-status").inner_text()
    guest.check_accessibility()
    fits_360(guest)

    answers = {
        "Team name": "Gull Vision",
        "Organisation": "Gull Robotics",
        "Contact's name": "Gia Gull",
        "Contact's e-mail address": "gia@gull.example",
        "Engineering contacts": "Gia (ML lead)\nTom (data)",
        "Work": "Retrain the detector on this month's footage.",
        "Data": "1.5 TiB of frames in S3, Parquet index.",
        "Request": "32 accelerators for a day; with 16 it takes two.",
        "Output": "safetensors checkpoints to our bucket.",
        "Accelerators the job needs": "32",
        "Data size": "1.5",  # the mistake: no unit
        "Duration": "24h",
        "Deadline": "2031-03-01",
        "Typical accelerators in use": "4",
        "Peak accelerators": "128",
        "How often spikes come": "4w",
        "When the next spike is": "2031-02-01",
    }
    for label, value in answers.items():
        field(page, label).fill(value)
    # Optional: a CPU-only job leaves it empty and ticks "no accelerators" instead.
    page.get_by_label("Accelerator type", exact=True).fill("H100 80GB")
    field(page, "We agree to the program's terms").check()
    page.get_by_role("button", name="Send the application").click()

    error = page.locator("#id_data_size_error")
    error.wait_for()
    assert "is not a size" in error.inner_text()
    # One summary, focused on arrival, whose link takes the person to the field.
    summary = page.locator(".error-summary:focus")
    summary.wait_for()
    assert "One thing needs fixing" in summary.inner_text()
    summary.get_by_role("link", name="Data size").click()
    page.locator("#id_data_size:focus").wait_for()
    assert field(page, "Data size").get_attribute("aria-invalid") == "true"
    assert field(page, "Team name").input_value() == "Gull Vision"
    assert field(page, "Work").input_value() == answers["Work"]
    assert field(page, "We agree to the program's terms").is_checked()
    guest.check_accessibility()
    fits_360(guest)

    field(page, "Data size").fill("1.5 TiB")
    page.get_by_role("button", name="Send the application").click()
    page.wait_for_url("**/design-partners/applications/**")
    page.get_by_role("heading", name="Status: Received").wait_for()
    page.get_by_text("Thank you: your application was received.").wait_for()
    status_url = page.url
    guest.check_accessibility()
    fits_360(guest)
    assert status_url.split("/design-partners")[1] in mail.outbox[-1].body

    # Staff review side by side, stage the acceptance, then release.
    desk.page.goto("/staff/intake/")
    desk.page.get_by_role("link", name=re.compile("Review")).first.click()
    desk.page.get_by_role("cell", name=re.compile("4 → 128")).wait_for()
    desk.check_accessibility()
    desk.page.get_by_role("link", name="Gull Vision").click()
    desk.check_accessibility()
    desk.page.get_by_label("Accept", exact=True).check()
    desk.page.get_by_role("button", name="Stage this decision").click()
    desk.page.get_by_text("Decision staged.").wait_for()
    desk.check_accessibility()

    page.reload()
    page.get_by_role("heading", name="Status: Under review").wait_for()  # not told yet

    desk.page.get_by_role("link", name="All applications of this window").click()
    desk.page.get_by_role("button", name="Release 1 decision").click()
    desk.page.get_by_text("1 decisions released").wait_for()
    desk.check_accessibility()

    page.reload()
    page.get_by_role("heading", name="Status: Accepted").wait_for()
    guest.check_accessibility()

    # The contact accepts the invitation and lands in the partner portal as admin.
    invitation = next(m for m in mail.outbox if "/invitations/" in m.body)
    assert invitation.to == ["gia@gull.example"]
    link = re.search(r"http://testserver(/invitations/\S+)", invitation.body).group(1)
    page.goto(link)
    guest.check_accessibility()
    page.get_by_label("Your name").fill("Gia Gull")
    page.get_by_label("Password (required)", exact=True).fill(password)
    page.get_by_label("Password again (required)").fill(password)
    page.get_by_role("button", name="Create account and join").click()
    page.wait_for_url("**/teams/gull-vision/")
    page.get_by_text("Welcome to Gull Vision").wait_for()
    assert (
        page.locator("#team-panel tbody tr", has_text="gia@gull.example")
        .inner_text()
        .count("Team admin")
    )
    guest.check_accessibility()
    fits_360(guest)

    assert desk.errors == [] and guest.errors == []
