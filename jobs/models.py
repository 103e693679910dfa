from django.db import models
from django.db.models import Q
from django.utils import timezone

from portal import submissions
from portal.models import Team, User

from . import jobformat


class JobStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    IN_REVIEW = "in_review", "In review"
    NEEDS_CLARIFICATION = "needs_clarification", "Needs clarification"
    ACCEPTED = "accepted", "Accepted"
    DECLINED = "declined", "Declined: not a network job"


# A declined job can be revised too: the team reroutes the real-time part and describes the rest.
EDITABLE = {JobStatus.DRAFT, JobStatus.NEEDS_CLARIFICATION, JobStatus.DECLINED}


def untitled(number, pk):
    """What a job with no name yet is called (from a row's values too): its number in its
    team (a job loaded in bulk without one, by its id)."""
    return f"Untitled job {number or pk}"


class JobDescription(models.Model):
    """A team's job. `data` is the working copy as the partner typed it (a draft may be
    vague or invalid); each submission freezes an exact copy as a Revision."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="job_descriptions")
    name = models.CharField(max_length=300, blank=True)
    # The job's number within its team (1, 2, 3…): a draft not named yet is "Untitled job 3"
    # to its team, not after an id counted over every team of the program.
    number = models.PositiveIntegerField(null=True, blank=True, editable=False)
    data = models.JSONField(default=dict)
    # Bumped on every save; a save that names an older version is a conflict, not an overwrite,
    # unless every save since that version came from the same browser tab (its own autosaves).
    version = models.PositiveIntegerField(default=1)
    recent_saves = models.JSONField(default=list, blank=True)  # [[version, editor token], …]
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
    submission_token = submissions.token_field()  # "New job" pressed twice is one draft

    class Meta:
        ordering = ["-last_activity_at"]
        indexes = [
            models.Index(
                fields=["team", "status", "-last_activity_at"], name="job_team_status_idx"
            ),
            # The dashboard: a team's jobs, newest activity first, 50 a page (keyset).
            models.Index(fields=["team", "-last_activity_at", "-id"], name="job_team_activity_idx"),
        ]
        constraints = [submissions.unique_token("job")]

    def __str__(self):
        return self.name or untitled(self.number, self.pk)

    @property
    def editable(self):
        return self.status in EDITABLE

    def as_description(self):
        description, _ = jobformat.load(self.data)
        return description

    def lint(self):
        return jobformat.lint(self.data)


class JobStatusCount(models.Model):
    """How many of a team's jobs are in a status, kept on write (jobs/counts.py: the
    services and the admin change it in the transaction that creates, moves or deletes a
    job), so the jobs list reads at most five numbers a team instead of counting a busy
    team's thousands of jobs."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=24, choices=JobStatus.choices)
    count = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["team", "status"], name="jobstatuscount_unique")
        ]

    def __str__(self):
        return f"{self.team_id}: {self.count} {self.status}"


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
    # What the staff review queue lists: the latest revision of a job in review. Kept on
    # every move of the job's status (jobs/awaiting.py), so the queue reads a small index of
    # just these rows instead of walking every revision ever submitted to find them.
    awaiting_review = models.BooleanField(default=False)

    class Meta:
        ordering = ["job", "-number"]
        # The staff review queue, oldest submission first, 50 a page (keyset).
        indexes = [
            models.Index(
                fields=["submitted_at", "id"],
                condition=Q(awaiting_review=True),
                name="revision_awaiting_idx",
            )
        ]
        constraints = [
            models.UniqueConstraint(fields=["job", "number"], name="revision_number_unique_per_job")
        ]

    def __str__(self):
        return f"{self.job} revision {self.number}"

    def as_description(self):
        description, _ = jobformat.load(self.data)
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
    submission_token = submissions.token_field()  # a double click posts one comment

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(body=""), name="comment_body_not_empty"),
            submissions.unique_token("comment"),
        ]

    def __str__(self):
        return f"Comment by {self.author} on {self.job}"


class ReadMark(models.Model):
    """A person's place in a job's discussion: when they last read it with something new in
    it (empty: never) and how many comments by others arrived since, kept on write so no
    list counts comments."""

    job = models.ForeignKey(JobDescription, on_delete=models.CASCADE, related_name="read_marks")
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    read_at = models.DateTimeField(null=True, blank=True, default=timezone.now)
    unread = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["job", "user"], name="readmark_one_per_user_and_job")
        ]

    def __str__(self):
        if self.read_at is None:
            return f"{self.user} has not read {self.job}"
        return f"{self.user} read {self.job} at {self.read_at:%Y-%m-%d %H:%M}"


class JobStatusChange(models.Model):
    """One row per move of a description's status (submit, withdraw, review): who, when, why."""

    job = models.ForeignKey(JobDescription, on_delete=models.CASCADE, related_name="changes")
    from_status = models.CharField(max_length=24, choices=JobStatus.choices)
    to_status = models.CharField(max_length=24, choices=JobStatus.choices)
    actor = models.ForeignKey(User, null=True, on_delete=models.SET_NULL, related_name="+")
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["job", "created_at"], name="job_status_change_idx")]

    def __str__(self):
        return f"{self.job_id}: {self.from_status} → {self.to_status}"


class FieldSignal(models.Model):
    """What one field of one job taught the program about declaring it: flagged when the team
    first tried to submit, how many revisions until it was exact, how often staff asked to
    clarify it. Written by jobs/signals.py at submission and review."""

    job = models.ForeignKey(JobDescription, on_delete=models.CASCADE, related_name="field_signals")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    field = models.CharField(max_length=120)  # dotted path; list items as N
    problem = models.CharField(max_length=60, blank=True)  # the published problem's slug
    first_level = models.CharField(max_length=8, blank=True)  # error, warning, or "" (staff only)
    first_code = models.CharField(max_length=60, blank=True)
    vague_word = models.CharField(max_length=60, blank=True)
    # Flagged while the team prepared its first revision (before anyone reviewed it).
    at_first_submission = models.BooleanField(default=False)
    first_revision = models.PositiveIntegerField()  # the revision it was flagged for
    exact_revision = models.PositiveIntegerField(null=True, blank=True)
    clarify_requests = models.PositiveIntegerField(default=0)
    draft_to_accept_seconds = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["job", "field"]
        constraints = [
            models.UniqueConstraint(fields=["job", "field"], name="fieldsignal_one_per_job_field")
        ]
        indexes = [
            models.Index(fields=["field", "team"], name="fieldsignal_field_team_idx"),
            # The newest write: the insights' "as of" date (findings.insights.figures.latest_data).
            models.Index(fields=["updated_at"], name="fieldsignal_updated_idx"),
        ]

    def __str__(self):
        return f"{self.field} on job {self.job_id}"


# The run's models live beside the run's code; importing them here registers them with this app.
from jobs.runs import models as run_models  # noqa: E402, F401
