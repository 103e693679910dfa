import uuid
from datetime import timedelta

from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.text import slugify

INVITATION_LIFETIME = timedelta(days=7)


class UserManager(BaseUserManager):
    use_in_migrations = True

    def _create_user(self, email, password, **extra):
        if not email:
            raise ValueError("An e-mail address is required.")
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email, password=None, **extra):
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create_user(email, password, **extra)

    def get_by_natural_key(self, username):
        # People type their address with whatever capitals they like.
        return self.get(email__iexact=username)

    def create_superuser(self, email, password=None, **extra):
        extra.update(is_staff=True, is_superuser=True)
        return self._create_user(email, password, **extra)


def login_name_for_throttling(request, credentials):
    """The address a login attempt names, as axes should count it (any capitals)."""
    source = credentials or request.POST
    return (source.get("username") or source.get("email") or "").strip().lower() or None


class User(AbstractUser):
    """A person: partner engineers log in with their e-mail; staff have is_staff."""

    username = None
    email = models.EmailField("e-mail address", unique=True)
    full_name = models.CharField(max_length=150, blank=True)

    USERNAME_FIELD = "email"
    REQUIRED_FIELDS = []
    objects = UserManager()

    class Meta:
        ordering = ["email"]
        constraints = [
            # One account per address whatever its spelling.
            models.UniqueConstraint(Lower("email"), name="user_email_ci_unique"),
        ]

    def __str__(self):
        return self.full_name or self.email


class Team(models.Model):
    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=60, unique=True)
    organisation = models.CharField(max_length=160, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    @staticmethod
    def unique_slug_for(name):
        base = slugify(name)[:50] or "team"
        slug, n = base, 2
        while Team.objects.filter(slug=slug).exists():
            slug, n = f"{base}-{n}", n + 1
        return slug


class Role(models.TextChoices):
    ADMIN = "admin", "Team admin"
    MEMBER = "member", "Member"


class Membership(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER, db_index=True)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["team", "user__email"]
        constraints = [
            models.UniqueConstraint(
                fields=["team", "user"], name="membership_one_per_user_and_team"
            ),
        ]

    def __str__(self):
        return f"{self.user} in {self.team} ({self.get_role_display()})"

    @property
    def is_admin(self):
        return self.role == Role.ADMIN


class InvitationStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    ACCEPTED = "accepted", "Accepted"
    REVOKED = "revoked", "Revoked"
    EXPIRED = "expired", "Expired"


class Invitation(models.Model):
    """A single-use, expiring link that lets a person join a team.

    The key in the link is random (uuid4) and is replaced on every resend, so an
    older link stops working once a newer one has been sent.
    """

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    key = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    invited_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # At most one open invitation per address and team: re-inviting resends it.
            models.UniqueConstraint(
                "team",
                Lower("email"),
                condition=models.Q(accepted_at__isnull=True, revoked_at__isnull=True),
                name="invitation_one_open_per_email_and_team",
            ),
        ]

    def __str__(self):
        return f"Invitation of {self.email} to {self.team}"

    @property
    def status(self):
        if self.accepted_at:
            return InvitationStatus.ACCEPTED
        if self.revoked_at:
            return InvitationStatus.REVOKED
        if self.expires_at <= timezone.now():
            return InvitationStatus.EXPIRED
        return InvitationStatus.PENDING

    @property
    def is_open(self):
        """Neither accepted nor revoked (it may have expired, and can be resent)."""
        return self.accepted_at is None and self.revoked_at is None


class OutboundEmail(models.Model):
    """Every e-mail the portal sends, written in the same transaction as the change
    that caused it and delivered by a Celery task after commit. The dedupe key makes
    enqueueing idempotent; sent_at makes delivery idempotent."""

    dedupe_key = models.CharField(max_length=200, unique=True)
    to = models.EmailField()
    subject = models.CharField(max_length=200)
    body = models.TextField()
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["sent_at", "created_at"], name="email_unsent_idx")]

    def __str__(self):
        return f"{self.subject} → {self.to}"
