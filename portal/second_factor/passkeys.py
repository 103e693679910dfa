"""The two WebAuthn ceremonies, through py_webauthn (Duo Labs): registering a passkey and
signing in with one. The server makes a one-time challenge, keeps it in the session and checks
that the browser's answer signs that challenge, for this site's name and origin."""

import ipaddress
import time

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    base64url_to_bytes,
    bytes_to_base64url,
    parse_authentication_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from portal.errors import DomainError

from .models import Passkey

REGISTER = "second_factor_passkey_register"
SIGN_IN = "second_factor_passkey_sign_in"
# A page left open longer than this asks for a new challenge (the browser gives up after 2 min).
CHALLENGE_SECONDS = 10 * 60
TIMEOUT_MS = 120_000
# What a browser's answer may weigh: an attestation with its certificate chain is a few kB.
MAX_ANSWER = 64_000

NOT_ACCEPTED = (
    "The passkey was not accepted. Try again, or type a code from your authenticator app or a "
    "recovery code."
)
# Parsing a hostile answer can fail anywhere in its base64, CBOR or JSON.
BAD_ANSWER = (WebAuthnException, ValueError, TypeError, KeyError, AttributeError, IndexError)


def available() -> bool:
    """A browser accepts a site's name as the relying party, never an IP address."""
    try:
        ipaddress.ip_address(settings.WEBAUTHN_RP_ID)
    except ValueError:
        return True
    return False


def _user_handle(user) -> bytes:
    # Stable per person (an authenticator keeps one passkey per site and handle), and no
    # e-mail address or database id in it.
    return salted_hmac("portal.second_factor.passkey", str(user.pk), algorithm="sha256").digest()


def _descriptors(passkeys):
    return [PublicKeyCredentialDescriptor(id=base64url_to_bytes(p.credential_id)) for p in passkeys]


def _remember(session, key, challenge: bytes) -> None:
    session[key] = {"challenge": bytes_to_base64url(challenge), "at": int(time.time())}


def _take(session, key) -> bytes | None:
    """The challenge made for this session, once: an answer cannot be replayed."""
    kept = session.pop(key, None)
    if not isinstance(kept, dict) or time.time() - kept.get("at", 0) > CHALLENGE_SECONDS:
        return None
    return base64url_to_bytes(kept["challenge"])


def registration_options(request) -> str:
    """The JSON the page hands to navigator.credentials.create()."""
    user = request.user
    options = generate_registration_options(
        rp_id=settings.WEBAUTHN_RP_ID,
        rp_name=settings.WEBAUTHN_RP_NAME,
        user_id=_user_handle(user),
        user_name=user.email,
        user_display_name=user.get_full_name() or user.email,
        timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.PREFERRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=_descriptors(Passkey.objects.filter(user=user)),
    )
    _remember(request.session, REGISTER, options.challenge)
    return options_to_json(options)


def sign_in_options(request) -> str:
    """The JSON the page hands to navigator.credentials.get(), or "" without passkeys."""
    passkeys = list(Passkey.objects.filter(user=request.user, confirmed=True))
    if not passkeys:
        return ""
    options = generate_authentication_options(
        rp_id=settings.WEBAUTHN_RP_ID,
        timeout=TIMEOUT_MS,
        allow_credentials=_descriptors(passkeys),
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    _remember(request.session, SIGN_IN, options.challenge)
    return options_to_json(options)


def register(request, name: str, answer: str) -> Passkey:
    """Keeps the passkey the browser made for this session's challenge. DomainError with what
    to do when the answer is missing, stale or not for this site."""
    challenge = _take(request.session, REGISTER)
    if not answer or len(answer) > MAX_ANSWER:
        raise DomainError("Your browser sent no passkey. Press the button again and follow it.")
    if challenge is None:
        raise DomainError("That page had waited too long. Press the button again.")
    try:
        verified = verify_registration_response(
            credential=answer,
            expected_challenge=challenge,
            expected_rp_id=settings.WEBAUTHN_RP_ID,
            expected_origin=settings.WEBAUTHN_ORIGINS,
        )
    except BAD_ANSWER as error:
        raise DomainError(
            "The passkey could not be added: your browser's answer was not for this page. "
            "Press the button again."
        ) from error
    credential_id = bytes_to_base64url(verified.credential_id)
    if Passkey.objects.filter(credential_id=credential_id).exists():
        raise DomainError("That passkey is already added.")
    return Passkey.objects.create(
        user=request.user,
        name=name,
        confirmed=True,
        credential_id=credential_id,
        public_key=verified.credential_public_key,
        sign_count=verified.sign_count,
    )


@transaction.atomic
def sign_in(request, answer: str) -> Passkey | None:
    """The person's passkey that signed this session's challenge, or None. The signature
    counter is raised under a row lock, so one answer cannot pass twice at once."""
    challenge = _take(request.session, SIGN_IN)
    if challenge is None or not answer or len(answer) > MAX_ANSWER:
        return None
    try:
        credential = parse_authentication_credential_json(answer)
    except BAD_ANSWER:
        return None
    passkey = (
        Passkey.objects.select_for_update()
        .filter(
            user=request.user,
            confirmed=True,
            credential_id=bytes_to_base64url(credential.raw_id),
        )
        .first()
    )
    if passkey is None:
        return None
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=settings.WEBAUTHN_RP_ID,
            expected_origin=settings.WEBAUTHN_ORIGINS,
            credential_public_key=bytes(passkey.public_key),
            credential_current_sign_count=passkey.sign_count,
        )
    except BAD_ANSWER:
        return None
    passkey.sign_count = verified.new_sign_count
    passkey.last_used_at = timezone.now()
    passkey.save(update_fields=["sign_count", "last_used_at"])
    return passkey
