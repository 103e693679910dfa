from django.db import models
from django.db.models import Q
from django.utils import timezone

from portal.models import Team, User

from . import spec


class JobStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    IN_REVIEW = "in_review", "In review"
    NEEDS_CLARIFICATION = "needs_clarification", "Needs clarification"
    ACCEPTED = "accepted", "Accepted"
    DECLINED = "declined", "Declined: not a network job"


EDITABLE = {JobStatus.DRAFT, JobStatus.NEEDS_CLARIFICATION}


class JobDescription(models.Model):
    """A team's job. `data` is the working copy as the partner typed it (a draft may be
    vague or invalid); each submission freezes an exact copy as a Revision."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="job_descriptions")
    name = models.CharField(max_length=300, blank=True)
    data = models.JSONField(default=dict)
    # Bumped on every save; a save that names an older version is a conflict, not an overwrite.
    version = models.PositiveIntegerField(default=1)
    status = models.CharField(
        max_length=24, choices=JobStatus.choices, default=JobStatus.DRAFT, db_index=True
    )
    # Fields staff asked to clarify on the last review, highlighted in the steps.
    clarify_fields = models.JSONField(default=list, blank=True)
    created_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    updated_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    last_activity_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-last_activity_at"]
        indexes = [
            models.Index(fields=["team", "status", "-last_activity_at"], name="job_team_status_idx")
        ]

    def __str__(self):
        return self.name or f"Untitled job {self.pk}"

    @property
    def editable(self):
        return self.status in EDITABLE

    def as_description(self):
        description, _ = spec.load(self.data)
        return description

    def lint(self):
        return spec.lint(self.data)


class Revision(models.Model):
    """A submitted, frozen copy of a description: what staff review."""

    job = models.ForeignKey(JobDescription, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    data = models.JSONField()
    warnings_acknowledged = models.JSONField(default=list, blank=True)
    submitted_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["job", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["job", "number"], name="revision_number_unique_per_job")
        ]

    def __str__(self):
        return f"{self.job} revision {self.number}"

    def as_description(self):
        description, _ = spec.load(self.data)
        return description


class ReviewOutcome(models.TextChoices):
    ACCEPTED = "accepted", "Accepted"
    CLARIFY = "clarify", "Clarification requested"
    DECLINED = "declined", "Declined: not a network job"


class Review(models.Model):
    revision = models.ForeignKey(Revision, on_delete=models.CASCADE, related_name="reviews")
    outcome = models.CharField(max_length=12, choices=ReviewOutcome.choices, db_index=True)
    note = models.TextField(blank=True)
    fields = models.JSONField(default=list, blank=True)
    reviewer = models.ForeignKey(User, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.get_outcome_display()} on {self.revision}"


class Comment(models.Model):
    """The engineering discussion: threaded, optionally anchored to a part or field."""

    job = models.ForeignKey(JobDescription, on_delete=models.CASCADE, related_name="comments")
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="replies"
    )
    anchor = models.CharField(max_length=120, blank=True, db_index=True)
    body = models.TextField(max_length=10_000)
    author = models.ForeignKey(User, null=True, on_delete=models.SET_NULL, related_name="+")
    by_staff = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(body=""), name="comment_body_not_empty"),
        ]

    def __str__(self):
        return f"Comment by {self.author} on {self.job}"


class ReadMark(models.Model):
    """When a person last read a job's discussion, for the unread count."""

    job = models.ForeignKey(JobDescription, on_delete=models.CASCADE, related_name="read_marks")
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    read_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["job", "user"], name="readmark_one_per_user_and_job")
        ]

    def __str__(self):
        return f"{self.user} read {self.job} at {self.read_at:%Y-%m-%d %H:%M}"
