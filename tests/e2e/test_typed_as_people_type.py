"""Issue 31, items 3 and 4: values typed as people type them, in the job editor on a phone and
in the intake form. "52,000 files", "48h", "every 6 weeks" and "31 March 2027" are read; "8x
H100" in a type box, a decimal comma ("1,5 TB") and "31/03/2027" are each said on their field
in words, and nothing typed is lost. axe on every state, no sideways scroll at 360 px."""

import re
import time

import pytest

from jobs import services
from jobs.models import JobDescription
from tests.e2e.keyboard import continue_to, press
from tests.portal.intake.intake_helpers import make_window

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def type_by_label(page, label, text):
    """Into the field of that label, with the keyboard, then on to the next field."""
    field = page.get_by_label(label, exact=True)
    field.focus()
    page.keyboard.press("Control+A")
    page.keyboard.type(text)
    page.keyboard.press("Tab")
    return page.locator(f"#{field.get_attribute('id')}-issues")


def fits(watcher, width):
    assert watcher.page.evaluate("document.documentElement.scrollWidth") <= width


def saved(draft, test, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        data = JobDescription.objects.get(pk=draft.pk).data
        if test(data):
            return data
        time.sleep(0.1)
    raise AssertionError(f"not saved: {data}")


def test_the_job_editor_reads_values_as_people_type_them_at_360(new_page, team_a, a_member, log_in):
    draft = services.create_draft(team=team_a, user=a_member)
    watcher = new_page(width=360)
    log_in(watcher, a_member)
    page = watcher.page

    page.goto(f"/jobs/{draft.pk}/edit/data/")
    press(page, "Add input")
    # Focus moves into the new input's first field once htmx settles; typing elsewhere waits.
    page.get_by_label("Name", exact=True).and_(page.locator(":focus")).wait_for()
    # A second input, removed again: focus goes back to the group's Add button, once.
    press(page, "Add input")
    page.locator("#f-data-inputs-1-name:focus").wait_for()
    press(page, "Remove input 2")
    page.get_by_role("button", name="Add input", exact=True).and_(page.locator(":focus")).wait_for()
    page.get_by_label("Name", exact=True).wait_for()
    objects = type_by_label(page, "Objects", "52,000 files")
    size = type_by_label(page, "Size", "1,5 TB")
    size.get_by_text(
        "“1,5” has a comma that does not separate thousands: write a decimal with a point"
    ).wait_for()
    assert objects.locator(".issue-error").count() == 0
    watcher.check_accessibility()
    fits(watcher, 360)
    type_by_label(page, "Size", "1.5 TB")
    size.locator(".issue-error").wait_for(state="detached")
    # The draft keeps the words typed; the description reads them as 52,000.
    saved(draft, lambda d: (d.get("data") or {}).get("inputs", [{}])[0].get("size") == "1.5 TB")
    assert JobDescription.objects.get(pk=draft.pk).as_description().data.inputs[0].objects == 52000
    continue_to(watcher, "request")
    press(page, "Add accelerator")
    page.get_by_label("Type", exact=True).and_(page.locator(":focus")).wait_for()
    kind = type_by_label(page, "Type", "8x H100")
    kind.get_by_text(
        "“8x H100” has a count in it: write “H100” here and 8 in Count (per node)."
    ).wait_for()
    watcher.check_accessibility()
    type_by_label(page, "Type", "H100")
    kind.locator(".issue").wait_for(state="detached")
    type_by_label(page, "Count", "8")
    type_by_label(page, "Nodes", "2")
    type_by_label(page, "Estimate", "48h")
    deadline = type_by_label(page, "Deadline", "31/03/2027")
    deadline.get_by_text(
        "“31/03/2027” is not a date: write the day, e.g. 31 March 2027 or 2027-03-31."
    ).wait_for()
    watcher.check_accessibility()
    fits(watcher, 360)
    type_by_label(page, "Deadline", "31 March 2027")
    deadline.locator(".issue-error").wait_for(state="detached")
    interval = type_by_label(page, "Checkpoint interval", "every 6 weeks")
    request = saved(
        draft,
        lambda d: (d.get("request") or {}).get("checkpoint_interval") == "every 6 weeks",
    )["request"]
    assert interval.locator(".issue-error").count() == 0
    assert request["accelerators"][0] == {"type": "H100", "count": 8}
    assert request["estimate"] == "48h" and request["deadline"] == "31 March 2027"

    # Everything typed comes back as typed after a reload.
    page.reload()
    for label, typed in [
        ("Type", "H100"), ("Estimate", "48h"), ("Deadline", "31 March 2027"),
        ("Checkpoint interval", "every 6 weeks"),
    ]:  # fmt: skip
        assert page.get_by_label(label, exact=True).input_value() == typed, label
    page.goto(f"/jobs/{draft.pk}/edit/data/")
    assert page.get_by_label("Objects", exact=True).input_value() == "52,000 files"
    assert page.get_by_label("Size", exact=True).input_value() == "1.5 TB"
    watcher.check_accessibility()
    assert watcher.errors == []


def test_the_intake_form_says_each_mistake_on_its_field_and_keeps_the_rest(new_page):
    make_window(announcement="We take three teams.")
    watcher = new_page()
    page = watcher.page
    page.goto("/design-partners/")
    answers = {
        "Team name": "Tern Robotics",
        "Organisation": "Tern Labs",
        "Contact's name": "Tia Tern",
        "Contact's e-mail address": "tia@tern.example",
        "Engineering contacts": "Tia (ML lead)",
        "Work": "Retrain the detector.",
        "Data": "Frames in S3.",
        "Request": "64 GPUs for two days.",
        "Output": "Checkpoints to our bucket.",
        "Accelerators the job needs": "64",
        "Data size": "1,5 TB",
        "Duration": "48h",
        "Typical accelerators in use": "8",
        "Peak accelerators": "256",
        "How often spikes come": "every 6 weeks",
    }
    for label, value in answers.items():
        page.get_by_label(f"{label} (required)", exact=True).fill(value)
    page.get_by_label("Accelerator type", exact=True).fill("8x H100")
    # The days by their date picker, as the browser fills them.
    page.get_by_label("Deadline (required)", exact=True).fill("2031-03-31")
    page.get_by_label("When the next spike is (required)", exact=True).fill("2031-02-15")
    page.get_by_label("We agree to the program's terms (required)").check()
    page.get_by_role("button", name="Send the application").click()

    page.locator(".error-summary:focus").wait_for()
    summary = page.locator(".error-summary").inner_text()
    assert "2 things need fixing" in summary, summary
    assert (
        "has a comma that does not separate thousands"
        in page.locator("#id_data_size_error").inner_text()
    )
    assert (
        "“8x H100” has a count in it: write “H100” here"
        in page.locator("#id_accelerator_type_error").inner_text()
    )
    for label, value in answers.items():
        assert page.get_by_label(f"{label} (required)", exact=True).input_value() == value, label
    assert page.get_by_label("Deadline (required)", exact=True).input_value() == "2031-03-31"
    watcher.check_accessibility()

    page.get_by_label("Data size (required)", exact=True).fill("1.5 TB")
    page.get_by_label("Accelerator type", exact=True).fill("H100")
    page.get_by_role("button", name="Send the application").click()
    page.get_by_role("heading", name="Status: Received").wait_for()
    main = page.locator("main").inner_text()
    for typed in ("1.5 TB", "48h", "every 6 weeks"):
        assert typed in main, (typed, main)
    assert re.search(r"31 March 2031", main), main
    watcher.check_accessibility()
    assert [e for e in watcher.errors if "status of 400" not in e] == []
