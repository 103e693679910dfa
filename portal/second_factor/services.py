import math
import re

from django.conf import settings
from django.db import transaction
from django.template.defaultfilters import pluralize
from django.utils import timezone
from django_otp import user_has_device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from portal.errors import DomainError

from .models import Passkey

SESSION_KEY = "second_factor"
PASSED = "passed"
NOT_SET_UP = "not set up"
RECOVERY_CODES = 10
APP_CODE = re.compile(r"\d{6}")


def required(user) -> bool:
    """Staff must set it up; a partner who has set it up must pass it."""
    return user.is_staff


def state(request) -> str:
    """PASSED, NOT_SET_UP (remembered for the session: a partner without it costs no query
    after the first page), or "" when the person has it and has not passed it yet."""
    known = request.session.get(SESSION_KEY, "")
    if known:
        return known
    if not user_has_device(request.user):
        request.session[SESSION_KEY] = NOT_SET_UP
        return NOT_SET_UP
    return ""


def mark_passed(request) -> None:
    request.session[SESSION_KEY] = PASSED
    if request.user.is_staff:
        request.session.set_expiry(settings.STAFF_SESSION_AGE)


def normalise(code: str) -> str:
    return re.sub(r"[\s-]", "", code or "").lower()


@transaction.atomic
def verify(user, code: str) -> bool:
    """An app's 6-digit code is checked against the app alone, anything else against the
    recovery codes alone, so a recovery code does not count as a wrong app code (django-otp
    slows down a device after each wrong code). A recovery code works once."""
    code = normalise(code)
    model = TOTPDevice if APP_CODE.fullmatch(code) else StaticDevice
    for device in model.objects.devices_for_user(user).select_for_update():
        if device.verify_token(code):
            return True
    return False


def wait_seconds(devices) -> int:
    """How long django-otp makes these devices wait after wrong codes (it doubles each time)."""
    until = [
        info["locked_until"]
        for allowed, info in (d.verify_is_allowed() for d in devices)
        if not allowed and info and info.get("locked_until")
    ]
    return max((math.ceil((u - timezone.now()).total_seconds()) for u in until), default=0)


def wait_message(seconds: int) -> str:
    return f"Too many wrong codes in a row: wait {seconds} second{pluralize(seconds)}, then type the newest one."


def start_app(user) -> TOTPDevice:
    """The app being set up: a new key each time the page is opened, until confirmed."""
    TOTPDevice.objects.filter(user=user, confirmed=False).delete()
    return TOTPDevice.objects.create(user=user, name="Authenticator app", confirmed=False)


def pending_app(user, device_id) -> TOTPDevice | None:
    return TOTPDevice.objects.filter(user=user, confirmed=False, pk=device_id).first()


@transaction.atomic
def confirm_app(user, device: TOTPDevice, code: str) -> list[str] | None:
    """The first code from the app proves it holds the key. Returns the recovery codes (to
    be shown once), or None if the code was wrong. Replaces any app set up before."""
    if not device.verify_token(normalise(code)):
        return None
    TOTPDevice.objects.filter(user=user).exclude(pk=device.pk).delete()
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    return new_recovery_codes(user)


@transaction.atomic
def new_recovery_codes(user) -> list[str]:
    """Ten new codes; the earlier ones stop working."""
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name="Recovery codes")
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create(StaticToken(device=device, token=c) for c in codes)
    return codes


@transaction.atomic
def turn_off(user) -> None:
    if required(user):
        raise DomainError("Staff accounts keep the second step: it cannot be turned off.")
    TOTPDevice.objects.filter(user=user).delete()
    Passkey.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()


@transaction.atomic
def add_first_recovery_codes(user) -> list[str] | None:
    """Recovery codes for a person whose first way through the step this is, else None (the
    codes they have stay valid)."""
    if StaticDevice.objects.filter(user=user).exists():
        return None
    return new_recovery_codes(user)


@transaction.atomic
def remove_passkey(user, passkey: Passkey) -> bool:
    """Removes one of the person's passkeys. Returns True when that was their last way through
    the step, which is then off (a partner's recovery codes go too); staff keep at least one."""
    others = Passkey.objects.filter(user=user).exclude(pk=passkey.pk).exists()
    last = not others and not has_app(user)
    if last and required(user):
        raise DomainError(
            "Staff accounts keep the second step: set up an authenticator app or add another "
            "passkey before removing this one."
        )
    passkey.delete()
    if last:
        StaticDevice.objects.filter(user=user).delete()
    return last


def recovery_codes_left(user) -> int:
    return StaticToken.objects.filter(device__user=user).count()


def has_app(user) -> bool:
    return TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def is_set_up(user) -> bool:
    """An authenticator app or a passkey."""
    return has_app(user) or Passkey.objects.filter(user=user, confirmed=True).exists()
