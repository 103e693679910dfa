import uuid
from datetime import timedelta

from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
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
            # The active staff (a handful among ~1,000 partners at 100x): the triage lists'
            # digest reads their names on every visit of the queue (findings/queue_choices.py)
            # through this index, in its order, instead of scanning every user (their names
            # not included: SQLite would warn that it cannot).
            models.Index(
                fields=["id"],
                condition=models.Q(is_staff=True, is_active=True),
                name="user_active_staff_idx",
            ),
        ]

    def __str__(self):
        return self.full_name or self.email


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


# ---------------------------------------------------------------------------
# Design-partner intake: the window, applications and the decisions on them.
# The rules (state computation) live in portal/intake/rules.py, the writes in
# portal/intake/services.py.


class IntakeState(models.TextChoices):
    NOT_YET_OPEN = "not_yet_open", "Not yet open"
    OPEN = "open", "Open"
    FULL = "full", "Full"
    CLOSED = "closed", "Closed"


class CloseReason(models.TextChoices):
    STAFF = "staff", "Closed by staff"
    FULL = "full", "All places filled"
    SCHEDULE = "schedule", "Closing time reached (closed by the scheduler)"


class IntakeWindow(models.Model):
    """A period during which teams may apply. Its state is computed (portal.intake.rules.status_of)
    from the clock, the places and the accepted applications; closed_at only records that
    someone or something closed it, and why."""

    opens_at = models.DateTimeField()
    closes_at = models.DateTimeField()
    places = models.PositiveSmallIntegerField(help_text="How many teams can be accepted.")
    announcement = models.TextField(
        blank=True, help_text="Markdown, shown on the design-partners page while intake is open."
    )
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    close_reason = models.CharField(
        max_length=10, choices=CloseReason.choices, blank=True, db_index=True
    )

    class Meta:
        ordering = ["-opens_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(closes_at__gt=models.F("opens_at")),
                name="intake_window_closes_after_opening",
            ),
            models.CheckConstraint(
                condition=models.Q(places__gte=1), name="intake_window_at_least_one_place"
            ),
            # "At most one current window": a window is current until it is closed (by staff,
            # by filling up, or by the beat task at closing time). An index on a constant,
            # restricted to unclosed rows, lets the database refuse a second one.
            models.UniqueConstraint(
                models.Value(True),
                condition=models.Q(closed_at__isnull=True),
                name="intake_window_one_current",
            ),
        ]

    def __str__(self):
        return f"Intake {self.opens_at:%Y-%m-%d %H:%M} → {self.closes_at:%Y-%m-%d %H:%M} UTC"

    def clean(self):
        # The database's one-current-window index is an expression Django cannot validate
        # in a form, so the admin would meet it as an IntegrityError: say it here instead.
        unclosed = IntakeWindow.objects.filter(closed_at__isnull=True).exclude(pk=self.pk)
        if self.closed_at is None and unclosed.exists():
            raise ValidationError(
                "Another intake window is current: close it first (a window past its "
                "closing time is closed by the scheduler within a minute)."
            )


class ApplicationStatus(models.TextChoices):
    RECEIVED = "received", "Received"
    UNDER_REVIEW = "under_review", "Under review"
    ACCEPTED = "accepted", "Accepted"
    DECLINED = "declined", "Declined"
    NOT_YET = "not_yet", "Not yet: describe the job more precisely"


class StagedDecision(models.TextChoices):
    ACCEPT = "accepted", "Accept"
    DECLINE = "declined", "Decline"
    NOT_YET = "not_yet", "Not yet: describe the job more precisely"


class IntakeApplication(models.Model):
    """A team's application. Free text is kept as typed; key numbers are also stored in
    canonical units (bytes, seconds, UTC) so staff can compare applications side by side."""

    window = models.ForeignKey(IntakeWindow, on_delete=models.PROTECT, related_name="applications")
    status = models.CharField(
        max_length=12,
        choices=ApplicationStatus.choices,
        default=ApplicationStatus.RECEIVED,
        db_index=True,
    )
    submitted_at = models.DateTimeField(default=timezone.now, db_index=True)
    # The hidden token of the form that created it: a double click or a resubmitted
    # page finds this row instead of creating a second application.
    submission_token = models.UUIDField(unique=True, editable=False)
    # sha256 of the private status link's token; the token itself is only in the e-mail.
    status_token_hash = models.CharField(max_length=64, unique=True, editable=False)

    team_name = models.CharField(max_length=120, validators=[one_line])
    organisation = models.CharField(max_length=160, validators=[one_line])
    contact_name = models.CharField(max_length=150, validators=[one_line])
    contact_email = models.EmailField()
    engineering_contacts = models.TextField()

    job_work = models.TextField()
    job_data = models.TextField()
    job_request = models.TextField()
    job_output = models.TextField()
    # A CPU-only job names no accelerator; its counts (here and typical/peak) are nodes.
    cpu_only = models.BooleanField(default=False)
    accelerator_type = models.CharField(max_length=80, blank=True)
    accelerator_count = models.PositiveIntegerField()
    data_size_text = models.CharField(max_length=60)
    data_size_bytes = models.BigIntegerField()
    duration_text = models.CharField(max_length=60)
    duration_seconds = models.PositiveIntegerField()
    deadline_text = models.CharField(max_length=60)
    deadline = models.DateTimeField()

    typical_accelerators = models.PositiveIntegerField()
    peak_accelerators = models.PositiveIntegerField()
    spike_interval_text = models.CharField(max_length=60)
    spike_interval_seconds = models.PositiveIntegerField()
    next_spike_text = models.CharField(max_length=60)
    next_spike = models.DateTimeField()

    has_real_time = models.BooleanField(default=False, db_index=True)
    real_time_description = models.TextField(blank=True)
    consented_at = models.DateTimeField()

    # What the applicant is told with a decline or a "not yet" (what is missing).
    reason = models.TextField(blank=True)
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    # A decision staff have prepared but not released: the applicant does not see it.
    staged_decision = models.CharField(
        max_length=12, choices=StagedDecision.choices, blank=True, db_index=True
    )
    staged_reason = models.TextField(blank=True)
    staged_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    staged_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-submitted_at"]
        constraints = [
            # One application per contact address per window, whatever its capitals.
            models.UniqueConstraint(
                "window", Lower("contact_email"), name="intake_application_one_per_contact"
            ),
            models.CheckConstraint(
                condition=models.Q(peak_accelerators__gte=models.F("typical_accelerators")),
                name="intake_application_peak_at_least_typical",
            ),
            # Every job names its accelerator, or says it uses none.
            models.CheckConstraint(
                condition=models.Q(cpu_only=True) | ~models.Q(accelerator_type=""),
                name="intake_application_accelerator_or_cpu_only",
            ),
        ]
        indexes = [
            models.Index(fields=["window", "status"], name="intake_app_window_status_idx"),
            # The staff review list: a window's applications, oldest first, 50 a page.
            models.Index(
                fields=["window", "submitted_at", "id"], name="intake_app_window_page_idx"
            ),
            # The staged decisions of a window, counted on the list: the few staged rows
            # only, not every application of the window.
            models.Index(
                fields=["window", "staged_decision"],
                condition=~models.Q(staged_decision=""),
                name="intake_app_staged_idx",
            ),
        ]

    def __str__(self):
        return f"{self.team_name} ({self.organisation})"

    @property
    def units(self):
        """What the counts count: accelerators, or nodes for a CPU-only job."""
        return "CPU nodes" if self.cpu_only else "accelerators"

    @property
    def compute_summary(self):
        if self.cpu_only:
            return f"{self.accelerator_count} CPU node{'s' if self.accelerator_count != 1 else ''} (no accelerators)"
        return f"{self.accelerator_count} × {self.accelerator_type}"


class IntakeDecision(models.Model):
    """One row per change of an application's status: who decided, who released it, when."""

    application = models.ForeignKey(
        IntakeApplication, on_delete=models.CASCADE, related_name="decisions"
    )
    from_status = models.CharField(max_length=12, choices=ApplicationStatus.choices)
    to_status = models.CharField(max_length=12, choices=ApplicationStatus.choices, db_index=True)
    reason = models.TextField(blank=True)
    decided_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    released_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self):
        return f"{self.application}: {self.from_status} → {self.to_status}"


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
