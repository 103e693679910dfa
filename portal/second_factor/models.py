from django.db import models
from django.utils import timezone
from django_otp.models import Device


class Passkey(Device):
    """A WebAuthn credential (a passkey or a security key) held by a person's device: the
    browser signs a fresh challenge with it, checked against the public key kept here. It is a
    django-otp device, so having one counts as having the second step set up."""

    # base64url of the authenticator's credential id (at most 1023 bytes, 1364 characters).
    credential_id = models.CharField(max_length=1400, unique=True)
    public_key = models.BinaryField()
    # The authenticator's signature counter: a signature that does not raise it is refused
    # (a cloned key), unless the authenticator keeps none (0, as synced passkeys do).
    sign_count = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self):
        return self.name
