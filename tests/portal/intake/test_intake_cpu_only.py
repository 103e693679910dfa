"""A CPU-only job applies too: no accelerator type, counts in nodes, shown as such to staff
and on the applicant's status page; a type with CPU only, or neither, is a field message."""

import pytest
from django.urls import reverse

from portal.intake.models import IntakeApplication
from tests.portal.intake.intake_helpers import form_data, make_window, submit

pytestmark = pytest.mark.django_db
APPLY = "/design-partners/apply/"


def test_the_form_offers_cpu_only(client):
    make_window()
    html = client.get("/design-partners/").content.decode()
    assert 'name="cpu_only"' in html and "The job uses no accelerators (CPU only)" in html


def test_a_cpu_only_application_is_stored_with_node_counts(client):
    make_window()
    response = client.post(
        APPLY,
        form_data(
            cpu_only="on",
            accelerator_type="",
            accelerator_count="16",
            typical_accelerators="4",
            peak_accelerators="64",
        ),
    )
    assert response.status_code in (302, 303), response.content.decode()[:500]
    application = IntakeApplication.objects.get()
    assert application.cpu_only and application.accelerator_type == ""
    assert application.compute_summary == "16 CPU nodes (no accelerators)"
    assert application.units == "CPU nodes"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"accelerator_type": ""}, "or tick CPU only if the job uses none"),
        ({"cpu_only": "on"}, "A CPU-only job names no accelerator"),
        # The job editor's rule, in the intake's words: the count goes in its own box.
        (
            {"accelerator_type": "8x H100"},
            "“8x H100” has a count in it: write “H100” here and the number of accelerators in "
            "Accelerators the job needs.",
        ),
        ({"accelerator_type": "H100 × 8"}, "write “H100” here"),
    ],
)
def test_type_and_cpu_only_must_agree(client, overrides, message):
    make_window()
    response = client.post(APPLY, form_data(**overrides))
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html and 'id="id_accelerator_type_error"' in html
    assert 'value="Orbit Vision"' in html  # nothing typed is lost
    assert not IntakeApplication.objects.exists()


def test_staff_see_nodes_for_a_cpu_only_application(client_for, staff):
    make_window()
    submitted = submit(
        cpu_only="on", accelerator_type="", typical_accelerators="2", peak_accelerators="40"
    )
    application = submitted.application
    client = client_for(staff)
    status = client.get(reverse("intake_status", args=[submitted.status_token])).content
    assert b"64 CPU nodes (no accelerators)" in status
    detail = client.get(reverse("staff_intake_application", args=[application.pk])).content
    assert (
        b"64 CPU nodes (no accelerators)" in detail
        and b"Typical \xe2\x86\x92 peak CPU nodes" in detail
    )
    listing = client.get(reverse("staff_intake_applications", args=[application.window_id]))
    assert b"64 CPU nodes (no accelerators)" in listing.content
