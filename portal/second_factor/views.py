import io
from base64 import b32encode

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_otp import devices_for_user

from portal.errors import DomainError

from . import passkeys, services
from .forms import AppCodeForm, CodeForm, PasskeyForm
from .models import Passkey

PENDING_KEY = "second_factor_pending"


def _next(request):
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(wanted, {request.get_host()}, request.is_secure()):
        return wanted
    return ""


def _past_or_elsewhere(request):
    """Where a person who need not (or cannot yet) pass the step goes instead, or None."""
    state = services.state(request)
    if state == services.PASSED or (
        state == services.NOT_SET_UP and not services.required(request.user)
    ):
        return redirect(_next(request) or "home")
    if state == services.NOT_SET_UP:
        return redirect("second_factor_setup")
    return None


def _passed(request):
    request.session.cycle_key()
    services.mark_passed(request)
    return redirect(_next(request) or "home")


def _verify_page(request, form, passkey_error=""):
    # 200 with the message, as Django's login page answers a wrong password.
    context = {
        "form": form,
        "next": _next(request),
        "passkeys_available": passkeys.available(),
        "passkey_options": passkeys.sign_in_options(request) if passkeys.available() else "",
        "passkey_error": passkey_error,
    }
    return render(request, "portal/second_factor/verify.html", context)


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def verify(request):
    if elsewhere := _past_or_elsewhere(request):
        return elsewhere
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if wait := services.wait_seconds(devices_for_user(request.user)):
            form.add_error("code", services.wait_message(wait))
        elif services.verify(request.user, form.cleaned_data["code"]):
            return _passed(request)
        else:
            form.add_error(
                "code",
                "That code is not right. The app's code changes every 30 seconds: type the one "
                "it shows now, or a recovery code.",
            )
    return _verify_page(request, form)


@never_cache
@login_required
@require_POST
def passkey_verify(request):
    """The step passed with a passkey: the browser signed the challenge the code page made."""
    if elsewhere := _past_or_elsewhere(request):
        return elsewhere
    if passkeys.sign_in(request, request.POST.get("credential", "")):
        return _passed(request)
    return _verify_page(request, CodeForm(), passkey_error=passkeys.NOT_ACCEPTED)


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def setup(request):
    """Setting up the app, or replacing it once this session has passed the step."""
    if services.state(request) == "":
        return redirect("second_factor_verify")
    device = services.pending_app(request.user, request.session.get(PENDING_KEY))
    form = AppCodeForm(request.POST or None)
    if request.method == "POST" and device is None:
        messages.error(request, "That set-up had expired: here is a new key. Add it to the app.")
    elif request.method == "POST" and form.is_valid() and (wait := services.wait_seconds([device])):
        form.add_error("code", services.wait_message(wait))
    elif request.method == "POST" and form.is_valid():
        codes = services.confirm_app(request.user, device, form.cleaned_data["code"])
        if codes is not None:
            request.session.pop(PENDING_KEY, None)
            request.session.cycle_key()
            services.mark_passed(request)
            return _show_codes(request, codes, first=True)
        form.add_error(
            "code",
            "That code is not right. Check that the app shows this portal's entry, then type "
            "the 6 digits it shows now.",
        )
    if device is None or request.method != "POST":
        device = services.start_app(request.user)
        request.session[PENDING_KEY] = device.pk
    context = {
        "form": form,
        "next": _next(request),
        "key": " ".join(_groups(b32encode(device.bin_key).decode())),
        "required": services.required(request.user),
        "replacing": services.has_app(request.user),
        "passkeys_available": passkeys.available(),
    }
    return render(request, "portal/second_factor/setup.html", context)


def _groups(text, size=4):
    return [text[i : i + size] for i in range(0, len(text), size)]


@never_cache
@login_required
@require_safe
def setup_qr(request):
    device = services.pending_app(request.user, request.session.get(PENDING_KEY))
    if device is None:
        raise Http404
    out = io.BytesIO()
    segno.make(device.config_url, error="m").save(
        out, kind="svg", scale=5, border=2, title="QR code of the key for your authenticator app"
    )
    return HttpResponse(out.getvalue(), content_type="image/svg+xml")


def _show_codes(request, codes, *, first=False):
    context = {"codes": codes, "first": first, "next": _next(request)}
    return render(request, "portal/second_factor/codes.html", context)


@never_cache
@login_required
@require_safe
def manage(request):
    user = request.user
    keys = list(Passkey.objects.filter(user=user, confirmed=True))
    app = services.has_app(user)
    context = {
        "app": app,
        "passkeys": keys,
        "set_up": app or bool(keys),
        "codes_left": services.recovery_codes_left(user),
        "required": services.required(user),
        "passkeys_available": passkeys.available(),
    }
    return render(request, "portal/second_factor/manage.html", context)


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def passkey_add(request):
    """Adding a passkey: the first way through the step (it then shows the recovery codes), or
    one more once this session has passed it."""
    if services.state(request) == "":
        return redirect("second_factor_verify")
    form = PasskeyForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            passkeys.register(request, form.cleaned_data["name"], form.cleaned_data["credential"])
        except DomainError as error:
            form.add_error(None, str(error))
        else:
            codes = services.add_first_recovery_codes(request.user)
            if services.state(request) != services.PASSED:
                request.session.cycle_key()
                services.mark_passed(request)
            if codes is not None:
                return _show_codes(request, codes, first=True)
            messages.success(request, f"The passkey “{form.cleaned_data['name']}” is added.")
            return redirect("second_factor_manage")
    context = {
        "form": form,
        "next": _next(request),
        "available": passkeys.available(),
        "options": passkeys.registration_options(request) if passkeys.available() else "",
    }
    return render(request, "portal/second_factor/passkey_add.html", context)


@login_required
@require_POST
def passkey_remove(request, passkey_id):
    passkey = get_object_or_404(Passkey, pk=passkey_id, user=request.user)
    try:
        off = services.remove_passkey(request.user, passkey)
    except DomainError as error:
        messages.error(request, str(error))
        return redirect("second_factor_manage")
    if off:
        request.session[services.SESSION_KEY] = services.NOT_SET_UP
        messages.success(request, "The passkey is removed and the second step is off.")
    else:
        messages.success(request, f"The passkey “{passkey.name}” is removed.")
    return redirect("second_factor_manage")


@never_cache
@login_required
@require_POST
def recovery_codes(request):
    if not services.is_set_up(request.user):
        messages.error(request, "Set up the second step first.")
        return redirect("second_factor_manage")
    return _show_codes(request, services.new_recovery_codes(request.user))


@login_required
@require_POST
def turn_off(request):
    try:
        services.turn_off(request.user)
    except DomainError as error:
        messages.error(request, str(error))
    else:
        request.session[services.SESSION_KEY] = services.NOT_SET_UP
        messages.success(request, "The second step is off: your password alone logs you in.")
    return redirect("second_factor_manage")
