"""The public side: the design-partners page in every state, the application, the status link."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse

from portal.intake import rules as intake
from portal.intake import services as intake_services
from portal.intake.models import ApplicationStatus, IntakeApplication
from portal.models import OutboundEmail
from tests import url_matrix as matrix

from .intake_helpers import form_data, make_window, submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    """The matrix's world, per test: every URL's arguments, a closed window, one application."""
    return matrix.build_world()


PAGE = "/design-partners/"
APPLY = "/design-partners/apply/"


def public_get_urls(world):
    """Every URL the matrix says anyone may GET: the places a form could hide."""
    for name, (method, expected) in matrix.MATRIX.items():
        if method == "get" and expected.get("anonymous") == 200:
            yield reverse(name, kwargs=matrix.fill(matrix.project_urls()[name], world))


def assert_no_application_form(html):
    assert 'action="/design-partners/apply/"' not in html
    assert "submission_token" not in html
    lowered = html.lower()
    assert "notify me" not in lowered and "mailing list" not in lowered


def test_nothing_announced_before_a_window_exists(client):
    page = client.get(PAGE).content.decode()
    assert "not yet open" in page and "no waiting list" in page
    assert "<form" not in page and 'type="email"' not in page
    assert_no_application_form(page)


def test_no_form_on_any_public_page_once_staff_closed_the_window(client, world):
    # world() (the matrix's) holds a window staff closed, with one application whose
    # private status page is among the public URLs checked here.
    for url in public_get_urls(world):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_no_application_form(response.content.decode())
    assert client.post(APPLY, form_data()).status_code == 403


@pytest.mark.parametrize(
    "window_kwargs",
    [
        {"opens_in": timedelta(hours=2)},  # scheduled, not yet open
        {"opens_in": timedelta(days=-9), "closes_in": timedelta(seconds=-1)},  # closing time passed
    ],
)
def test_no_form_on_any_public_page_while_closed_and_posting_is_refused(
    client, world, window_kwargs
):
    make_window(announcement="Secret plans", **window_kwargs)
    before = (IntakeApplication.objects.count(), OutboundEmail.objects.count())
    for url in public_get_urls(world):
        html = client.get(url).content.decode()
        assert_no_application_form(html)
        assert "Secret plans" not in html, url  # the announcement shows only while open
    page = client.get(PAGE).content.decode()
    assert "<form" not in page and 'type="email"' not in page
    response = client.post(APPLY, form_data())
    assert response.status_code == 403
    assert_no_application_form(response.content.decode())
    assert (IntakeApplication.objects.count(), OutboundEmail.objects.count()) == before


def test_full_and_closed_pages_say_when_intake_closed(client, staff):
    window = make_window(places=1)
    intake_services.close_window(window=window, closed_by=staff)
    page = client.get(PAGE).content.decode()
    assert "Intake is closed" in page and "Intake closed on" in page
    assert "all places are filled" not in page


def test_open_page_shows_announcement_sanitised_closing_time_places_and_form(client):
    window = make_window(places=3)
    response = client.get(PAGE)
    html = response.content.decode()
    assert "Intake is open" in html
    assert "<strong>three</strong>" in html and "<script>alert" not in html
    assert "3</strong> places are left" in html
    assert window.closes_at.strftime("%Y") in html
    assert 'action="/design-partners/apply/"' in html
    # Personal (a CSRF token and a one-off submission token): browsers revalidate, no shared cache.
    assert "private" in response["Cache-Control"] and "no-cache" in response["Cache-Control"]
    assert "Cookie" in response["Vary"]


def test_closed_page_may_be_cached_briefly_and_never_past_the_opening(client):
    make_window(opens_in=timedelta(seconds=30))
    response = client.get(PAGE)
    cache = response["Cache-Control"]
    assert "public" in cache
    max_age = int(re.search(r"max-age=(\d+)", cache).group(1))
    assert max_age <= 30
    assert "Cookie" in response["Vary"]


def test_logged_in_visitors_get_a_private_page(client_for, a_member):
    response = client_for(a_member).get(PAGE)
    assert "private" in response["Cache-Control"]


def test_validation_errors_are_on_the_field_and_the_draft_survives(client):
    make_window()
    data = form_data(data_size="2.5", peak_accelerators="4", has_real_time="on")
    response = client.post(APPLY, data)
    assert response.status_code == 400
    html = response.content.decode()
    # The units' own message, linked to its field.
    assert "is not a size: write a number and a unit" in html
    assert 'id="id_data_size_error"' in html
    assert re.search(r'aria-describedby="[^"]*id_data_size_error', html)
    assert "The peak cannot be lower than the typical number." in html
    assert "Say which part is real-time." in html
    # What was typed is still there.
    assert 'value="Orbit Vision"' in html and "Retrain our 7B detection model" in html
    assert f'value="{data["submission_token"]}"' in html
    assert not IntakeApplication.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("duration", "a while", "is not a length of time"),
        ("deadline", "soon", "is not a date"),
        ("deadline", "2001-01-01", "in the past"),
        ("data_size", "2000 PB", "exabyte"),
        ("data_size", "1 ZB", "is not a unit of size"),
        ("consent", None, "agree to the program"),
        ("contact_email", "not-an-address", "valid email"),
        ("accelerator_count", "0", "greater than or equal to 1"),
        ("spike_interval", "9" * 40, ""),
        # NUL is removed at the edge (portal/middleware.py); what is left is checked as typed.
        ("next_spike", "soon\x00", ""),
        ("team_name", "x" * 500, "at most 120"),
    ],
)
def test_hostile_or_wrong_input_is_a_field_message_not_a_500(client, field, value, message):
    make_window()
    response = client.post(APPLY, form_data(**{field: value}))
    assert response.status_code == 400
    html = response.content.decode()
    assert f'id="id_{field}_error"' in html
    assert message in html


def test_a_valid_application_is_stored_with_canonical_values_and_emails_its_status_link(
    client, django_capture_on_commit_callbacks
):
    make_window()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(APPLY, form_data(contact_email="Olu@Orbit.Example"))
    assert response.status_code == 302
    application = IntakeApplication.objects.get()
    assert application.contact_email == "olu@orbit.example"
    assert application.data_size_bytes == int(2.5 * 2**40)
    assert application.duration_seconds == 36 * 3600
    assert application.spike_interval_seconds == 6 * 7 * 86400
    assert application.deadline.isoformat().startswith("2031-03-01")
    assert application.status == ApplicationStatus.RECEIVED and application.consented_at
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["olu@orbit.example"]
    link = re.search(r"http://testserver(/design-partners/applications/\S+/)", mail.outbox[0].body)
    assert link.group(1) == response["Location"]
    # Only the token's hash is stored.
    token = link.group(1).rstrip("/").rsplit("/", 1)[1]
    assert token not in application.status_token_hash
    page = client.get(response["Location"])
    assert page.status_code == 200 and "Status: Received" in page.content.decode()
    assert "no-store" in page["Cache-Control"] and "noindex" in page["X-Robots-Tag"]


def test_no_email_is_sent_if_the_transaction_does_not_commit(django_capture_on_commit_callbacks):
    make_window()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        submit()
    assert len(callbacks) == 1 and mail.outbox == []


def test_double_submission_creates_one_application(client, django_capture_on_commit_callbacks):
    make_window()
    data = form_data()
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(APPLY, data)
        second = client.post(APPLY, data, follow=True)
    assert first.status_code == 302
    assert IntakeApplication.objects.count() == 1
    assert "We already have this application" in second.content.decode()
    assert len(mail.outbox) == 1


def test_a_second_application_from_the_same_address_is_refused_on_the_field(client):
    make_window()
    client.post(APPLY, form_data())
    response = client.post(APPLY, form_data(contact_email="OLU@orbit.example"))
    assert response.status_code == 400
    assert "already received" in response.content.decode()
    assert IntakeApplication.objects.count() == 1


def test_wrong_or_hostile_status_tokens_are_404(client):
    make_window()
    submit()
    for token in ["nope", "a" * 43, "%00", "x" * 5000, "../../admin"]:
        assert client.get(f"/design-partners/applications/{token}/").status_code == 404


@pytest.mark.parametrize(
    ("status", "reason", "text"),
    [
        (ApplicationStatus.UNDER_REVIEW, "", "Staff are reviewing"),
        (
            ApplicationStatus.DECLINED,
            "Flat demand & <b>small</b>",
            "Flat demand &amp; &lt;b&gt;small",
        ),
        (ApplicationStatus.NOT_YET, "The output format is missing", "The output format is missing"),
    ],
)
def test_status_page_shows_each_outcome(client, status, reason, text):
    make_window()
    submitted = submit()
    IntakeApplication.objects.filter(pk=submitted.application.pk).update(
        status=status, reason=reason
    )
    html = client.get(reverse("intake_status", args=[submitted.status_token])).content.decode()
    assert text in html


def test_staged_decisions_are_invisible_to_the_applicant(client, staff):
    make_window()
    submitted = submit()
    intake_services.stage_decision(
        application=submitted.application, decision="declined", reason="Too small", by=staff
    )
    html = client.get(reverse("intake_status", args=[submitted.status_token])).content.decode()
    assert "Under review" in html and "Too small" not in html


def test_nav_links_the_design_partners_page_for_everyone(client):
    assert 'href="/design-partners/"' in client.get("/").content.decode()


def test_current_window_prefers_the_unclosed_one(staff):
    old = make_window(opens_in=timedelta(days=-20), closes_in=timedelta(days=-10))
    intake_services.close_due_windows()
    new = make_window(opens_in=timedelta(days=1), closes_in=timedelta(days=5))
    assert intake.current_window() == new
    assert old.pk != new.pk


def test_with_htmx_a_mistake_swaps_the_form_and_success_redirects_the_browser(client):
    make_window()
    htmx = {"HTTP_HX_REQUEST": "true"}
    mistake = client.post(APPLY, form_data(duration="36"), **htmx)
    html = mistake.content.decode()
    assert mistake.status_code == 200 and html.lstrip().startswith("<form")
    assert 'id="id_duration_error"' in html and 'value="Orbit Vision"' in html
    done = client.post(APPLY, form_data(), **htmx)
    assert done["HX-Redirect"].startswith("/design-partners/applications/")
    assert IntakeApplication.objects.count() == 1


def test_with_htmx_a_form_left_open_after_closing_reloads_the_page(client, staff):
    window = make_window()
    intake_services.close_window(window=window, closed_by=staff)
    response = client.post(APPLY, form_data(), HTTP_HX_REQUEST="true")
    assert response["HX-Refresh"] == "true" and not IntakeApplication.objects.exists()
