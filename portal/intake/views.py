from contextlib import suppress

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

from portal import ratelimit
from portal.decorators import staff_required
from portal.errors import DomainError
from portal.intake.models import ApplicationStatus, IntakeState, StagedDecision
from portal.markdown import render_markdown
from portal.pagination import keyset_page

from . import rules, selectors, services
from .forms import ApplicationFilterForm, ApplicationForm, DecisionForm, WindowForm
from .presenters import application_rows

# ---------------------------------------------------------------------------
# Public


def _design_partners_page(request, *, status, form=None, http_status=200):
    context = {
        "intake": status,
        "states": IntakeState,
        "announcement": render_markdown(status.window.announcement) if status.is_open else "",
        "form": form if status.is_open else None,
    }
    response = render(request, "portal/intake/design_partners.html", context, status=http_status)
    # The page tells the truth about intake, so no cache may keep a stale state for long.
    # With a form (a CSRF token and a one-off submission token) or a logged-in nav it is
    # personal: browsers revalidate and shared caches keep nothing. Otherwise a shared cache
    # may keep it briefly, never past the next opening or closing time.
    if status.is_open or request.user.is_authenticated or http_status != 200:
        patch_cache_control(response, private=True, no_cache=True, max_age=0)
    else:
        patch_cache_control(response, public=True, max_age=status.public_max_age())
    patch_vary_headers(response, ["Cookie"])
    return response


@require_safe
def design_partners(request):
    status = rules.current_status()
    form = ApplicationForm() if status.is_open else None
    return _design_partners_page(request, status=status, form=form)


@require_POST
def intake_apply(request):
    status = rules.current_status()
    if not status.is_open:
        # Nothing is accepted, kept or queued while intake is not open. A page that still
        # shows the form (it closed meanwhile) reloads to the truth.
        if request.htmx:
            return HttpResponseClientRefresh()
        return _design_partners_page(request, status=status, http_status=403)
    form = ApplicationForm(request.POST)
    try:
        # Each application sends an e-mail to the address it names: a client may send a few.
        ratelimit.check(request, "intake_apply")
    except ratelimit.Limited as limited:
        form.is_valid()  # the page shows what was typed, as after any other refusal
        form.add_error(
            None,
            "Too many applications were sent from your network in the last hour. Nothing "
            f"you typed is lost: send it again in {max(1, limited.retry_after // 60)} minutes.",
        )
        return _refused(request, status, form, http_status=429)
    if form.is_valid():
        try:
            submitted = services.submit_application(
                submission_token=form.cleaned_data["submission_token"],
                data=form.application_data(),
            )
        except DomainError as error:
            form.add_error("contact_email", str(error))
        else:
            if submitted.status_token is not None:
                _count_application(request)
            if submitted.status_token is None:
                messages.info(
                    request,
                    "We already have this application. Its private status link was sent to "
                    f"{submitted.application.contact_email}.",
                )
                return _redirect(request, reverse("design_partners"))
            messages.success(request, "Thank you: your application was received.")
            return _redirect(request, reverse("intake_status", args=[submitted.status_token]))
        status = rules.current_status()  # it may have closed meanwhile
        if not status.is_open:
            return _redirect(request, reverse("design_partners"))
    return _refused(request, status, form, http_status=400)


def _refused(request, status, form, *, http_status):
    if request.htmx:  # 200: htmx swaps no 4xx
        return render(request, "portal/intake/design_partners.html#application", {"form": form})
    return _design_partners_page(request, status=status, form=form, http_status=http_status)


def _count_application(request):
    with suppress(ratelimit.Limited):  # this one was received; the next is refused
        ratelimit.hit(request, "intake_apply")


def _redirect(request, url):
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@require_safe
def intake_status(request, status_token):
    application = selectors.get_application_by_status_token(status_token)
    response = render(
        request,
        "portal/intake/status.html",
        {"application": application, "statuses": ApplicationStatus},
    )
    # A private page reached by a secret link: never stored, never indexed.
    patch_cache_control(response, private=True, no_store=True)
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"
    return response


# ---------------------------------------------------------------------------
# Staff: windows


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def staff_intake(request):
    form = WindowForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.create_window(**form.cleaned_data, created_by=request.user)
        except DomainError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, "The intake window is scheduled.")
            return redirect("staff_intake")
    windows = [rules.status_of(w) for w in selectors.windows_for_staff()]
    return render(
        request,
        "portal/intake/staff_windows.html",
        {"windows": windows, "form": form, "states": IntakeState},
        status=400 if form.errors else 200,
    )


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def staff_intake_window(request, window_id):
    window = selectors.get_window(window_id)
    initial = {f: getattr(window, f) for f in ("opens_at", "closes_at", "places", "announcement")}
    form = WindowForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_window(window=window, **form.cleaned_data, updated_by=request.user)
        except DomainError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, "The intake window is saved.")
            return redirect("staff_intake_window", window_id=window.pk)
    return render(
        request,
        "portal/intake/staff_window.html",
        {
            "intake": rules.status_of(window),
            "form": form,
            "states": IntakeState,
            "announcement": render_markdown(window.announcement),
        },
        status=400 if form.errors else 200,
    )


@staff_required
@require_POST
def staff_intake_window_close(request, window_id):
    window = selectors.get_window(window_id)
    services.close_window(window=window, closed_by=request.user)
    messages.success(request, "The intake window is closed: the public page says so now.")
    return redirect("staff_intake_window", window_id=window.pk)


# ---------------------------------------------------------------------------
# Staff: applications and decisions


@staff_required
@require_safe
def staff_intake_applications(request, window_id):
    window = selectors.get_window_with_staged_counts(window_id)
    filters = ApplicationFilterForm(request.GET or None)
    status = real_time = ""
    if filters.is_valid():
        status, real_time = filters.cleaned_data["status"], filters.cleaned_data["real_time"]
    page = keyset_page(
        selectors.applications_for_review(window=window, status=status, real_time=real_time),
        order=selectors.REVIEW_ORDER,
        request=request,
    )
    return render(
        request,
        "portal/intake/staff_applications.html",
        {
            "intake": rules.status_of(window),
            "filters": filters,
            "applications": page,
            "rows": application_rows(page),
            "staged": selectors.staged_counts(window),
        },
    )


@staff_required
@require_POST
def staff_intake_release(request, window_id):
    window = selectors.get_window(window_id)
    try:
        released = services.release_decisions(window=window, released_by=request.user)
    except DomainError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, f"{len(released)} decisions released: each applicant is told by e-mail."
        )
    return redirect("staff_intake_applications", window_id=window.pk)


def _application_page(request, application, form=None, http_status=200):
    return render(
        request,
        "portal/intake/staff_application.html",
        {
            "application": application,
            "decisions": selectors.decisions_of(application),
            "emails": selectors.emails_of(application),
            "form": form
            or DecisionForm(
                initial={
                    "decision": application.staged_decision or None,
                    "reason": application.staged_reason,
                }
            ),
            "decided": application.status in services.DECIDED,
            "statuses": ApplicationStatus,
            "staged_label": StagedDecision(application.staged_decision).label
            if application.staged_decision
            else "",
        },
        status=http_status,
    )


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def staff_intake_application(request, application_id):
    application = selectors.get_application(application_id)
    if request.method != "POST":
        return _application_page(request, application)
    form = DecisionForm(request.POST)
    if form.is_valid():
        try:
            services.stage_decision(
                application=application,
                decision=form.cleaned_data["decision"],
                reason=form.cleaned_data["reason"],
                by=request.user,
            )
        except DomainError as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request, "Decision staged. The applicant hears when you release decisions."
            )
            return redirect("staff_intake_application", application_id=application.pk)
    return _application_page(request, application, form=form, http_status=400)


@staff_required
@require_POST
def staff_intake_application_review(request, application_id):
    application = selectors.get_application(application_id)
    services.start_review(application=application, by=request.user)
    messages.success(request, "Marked as under review: the applicant's status page says so.")
    return redirect("staff_intake_application", application_id=application.pk)


@staff_required
@require_POST
def staff_intake_application_unstage(request, application_id):
    application = selectors.get_application(application_id)
    services.unstage_decision(application=application)
    messages.success(request, "The staged decision was withdrawn.")
    return redirect(
        reverse("staff_intake_applications", kwargs={"window_id": application.window_id})
    )
