import uuid
from datetime import timedelta

from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.db import models
from django.db.models import Value
from django.db.models.functions import Coalesce, Lower, NullIf
from django.utils import timezone
from django.utils.text import slugify

from . import submissions
from .validators import one_line

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
    full_name = models.CharField(max_length=150, blank=True, validators=[one_line])
    # The navigation badge, kept on write by portal/badges.py so no page counts it: unread
    # job comments and job notices of every team for staff; for partners only notices of no
    # team (their teams' news is counted on each Membership, and leaves with it).
    unread_comments = models.PositiveIntegerField(default=0, editable=False)
    unread_notices = models.PositiveIntegerField(default=0, editable=False)

    USERNAME_FIELD = "email"
    REQUIRED_FIELDS = []
    objects = UserManager()

    class Meta:
        ordering = ["email"]
        constraints = [
            # One account per address whatever its spelling.
            models.UniqueConstraint(Lower("email"), name="user_email_ci_unique"),
        ]
        indexes = [
            # The active staff (a handful among ~1,000 partners at 100x): the triage queue and
            # the triage page list them on every visit, found through this index instead of
            # by scanning every user.
            models.Index(
                fields=["id"],
                condition=models.Q(is_staff=True, is_active=True),
                name="user_active_staff_idx",
            ),
        ]

    def __str__(self):
        return self.full_name or self.email


def name_of(path):
    """The name a page prints for the user at `path` ("author", "reviews__reviewer"), as
    str(User) says it (the full name, else the email), for reading with values()."""
    return Coalesce(
        NullIf(f"{path}__full_name", Value("")),
        f"{path}__email",
        output_field=models.CharField(),
    )


class Team(models.Model):
    name = models.CharField(max_length=120, unique=True, validators=[one_line])
    slug = models.SlugField(max_length=60, unique=True)
    organisation = models.CharField(max_length=160, blank=True, validators=[one_line])
    created_at = models.DateTimeField(default=timezone.now)
    submission_token = submissions.token_field()  # of the staff form that created it

    class Meta:
        ordering = ["name"]
        constraints = [submissions.unique_token("team")]

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
    # This member's unread comments and job notices of this team (portal/badges.py).
    unread_comments = models.PositiveIntegerField(default=0, editable=False)
    unread_notices = models.PositiveIntegerField(default=0, editable=False)

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
    # A private link (an applicant's status link) waits here, not in the body, until the
    # e-mail is delivered, and is erased then: the stored copy never holds a usable link.
    private_link = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["sent_at", "created_at"], name="email_unsent_idx")]

    def __str__(self):
        return f"{self.subject} → {self.to}"


class NoticeTopic(models.TextChoices):
    JOB = "job", "Jobs"
    FINDING = "finding", "Findings"


class Notice(models.Model):
    """An in-portal notice beside an e-mail (a run changed state, a finding moved). Each app
    shows its topic's unread notices; `team` scopes them, so someone who left the team
    stops seeing its news. Written by portal.notify.tell, never by hand."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="notices")
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.CASCADE, related_name="notices"
    )
    topic = models.CharField(max_length=12, choices=NoticeTopic.choices)
    message = models.CharField(max_length=300)
    url = models.CharField(max_length=300)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(
                fields=["user", "topic", "read_at", "-created_at"], name="notice_unread_idx"
            )
        ]

    def __str__(self):
        return self.message


class RateCount(models.Model):
    """One client's uses of a rate-limited scope in one window, whatever the cache. Django's
    database cache (the embedded default) increments by reading and writing back, so two web
    workers at once lose a count; here one UPDATE adds it (portal/ratelimit.py). Rows
    outlive their window briefly and are swept on insert."""

    key = models.CharField(max_length=200)
    count = models.PositiveIntegerField(default=0)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["key"], name="rate_count_key_unique")]

    def __str__(self):
        return f"{self.key}: {self.count}"


class TeamErasure(models.Model):
    """That a team's data was erased at the program's end (portal/team_archive.py): what the
    team was called, who erased it, when, and how many of each kind of record went. Written
    once by the erasure and never changed: the admin shows it read-only."""

    team_name = models.CharField(max_length=120)
    team_slug = models.CharField(max_length=60)
    erased_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Kept as text too: the record outlives the staff account that made it.
    erased_by_email = models.EmailField()
    erased_at = models.DateTimeField(default=timezone.now)
    # {"jobs": 3, "revisions": 4, ...}: what each app's part of the erasure deleted.
    counts = models.JSONField(default=dict)

    class Meta:
        ordering = ["-erased_at", "-pk"]

    def __str__(self):
        return f"{self.team_name} erased {self.erased_at:%Y-%m-%d %H:%M} UTC"

    @property
    def count_rows(self):
        """What went, leaving out the kinds the team had none of."""
        return [(what, n) for what, n in self.counts.items() if n]


# Intake's models live beside intake's code; importing them here registers them with this app.
from portal.intake import models as intake_models  # noqa: E402, F401
