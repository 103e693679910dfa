"""Design-partner intake: the window, applications and the decisions on them. The rules
(state computation) live in portal/intake/rules.py, the writes in portal/intake/services.py.
Registered with the portal app (portal/models.py imports this module)."""

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone

from portal.models import Team, User
from portal.validators import one_line

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
