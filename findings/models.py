"""Findings (what went wrong for a design partner), the published unsolved problems they
feed, and the record of what staff did with each finding.

The rules for moving a finding live in findings/rules.py (one transition table); the
writes that span rows live in findings/services.py."""

from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from jobs.runs.models import Phase
from portal import submissions
from portal.models import Team, User
from portal.validators import one_line


class ProblemStatus(models.TextChoices):
    OPEN = "open", "Open"
    BEING_WORKED_ON = "being_worked_on", "Being worked on"
    SOLVED = "solved", "Solved"
    RETIRED = "retired", "Retired"


class UnsolvedProblem(models.Model):
    """A problem the program says, in public, it has not solved. Staff write and publish it;
    the public sees only published problems and aggregate counts of findings."""

    title = models.CharField(max_length=160, validators=[one_line])
    slug = models.SlugField(max_length=80, unique=True)
    summary = models.CharField(max_length=300, help_text="One or two sentences, shown in the list.")
    body = models.TextField(blank=True, help_text="Markdown: the problem as the program sees it.")
    status = models.CharField(
        max_length=16, choices=ProblemStatus.choices, default=ProblemStatus.OPEN, db_index=True
    )
    learned = models.TextField(
        "what has been learned so far",
        blank=True,
        help_text="Markdown, published with the problem.",
    )
    published = models.BooleanField(default=False, db_index=True)
    # Keys of the learned-so-far figures staff chose not to publish (findings/insights/public.py).
    hidden_figures = models.JSONField(default=list, blank=True)
    order = models.PositiveSmallIntegerField(default=100, help_text="Lower comes first.")
    # How many findings (triaged onwards) and distinct teams back it, kept on write by
    # findings.counts so the public list never counts every finding.
    finding_count = models.PositiveIntegerField(default=0, editable=False)
    team_count = models.PositiveIntegerField(default=0, editable=False)
    # The share of teams whose data was erased at the program's end (findings/team_data.py):
    # their findings are gone, so each recount adds them back and the public figures stay.
    erased_finding_count = models.PositiveIntegerField(default=0, editable=False)
    erased_team_count = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["order", "title"]
        indexes = [models.Index(fields=["published", "order"], name="problem_published_order_idx")]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("problem_detail", args=[self.slug])


class FindingKind(models.TextChoices):
    AMBIGUOUS_DESCRIPTION = "ambiguous_description", "Ambiguous description"
    STAGING_SLOWER = "staging_slower", "Staging slower than the job"
    OUTPUT_NOT_USABLE = "output_not_usable", "Output not usable"
    ACCOUNTING_MISMATCH = "accounting_mismatch", "Accounting mismatch"
    SCHEDULING = "scheduling", "Scheduling"
    OTHER = "other", "Other"


class FindingStatus(models.TextChoices):
    NEW = "new", "New"
    TRIAGED = "triaged", "Triaged"
    ACCEPTED = "accepted", "Accepted into the design"
    ADDRESSED = "addressed", "Addressed"
    VERIFIED = "verified", "Verified by the partner"
    REOPENED = "reopened", "Reopened by the partner"
    DECLINED = "declined", "Declined"
    DUPLICATE = "duplicate", "Duplicate"


class Impact(models.TextChoices):
    BLOCKS = "blocks", "Blocks the job"
    COSTS_TIME = "costs_time", "Costs time"
    ANNOYANCE = "annoyance", "Annoyance"


class FindingWords(SearchVector):
    """A finding's words for the triage search: its title and summary, stemmed as English,
    stored by PostgreSQL in a generated column with GIN indexes (migrations findings/0005,
    0009). SQLite, the embedded default, has no full-text search: the column is NULL there
    and the triage matches substrings of the title and summary instead."""

    def __init__(self):
        super().__init__("title", "summary", config="english")

    def as_sqlite(self, compiler, connection, **extra):
        return "NULL", ()


class Finding(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="findings")
    filed_by = models.ForeignKey(User, null=True, on_delete=models.SET_NULL, related_name="+")
    kind = models.CharField(max_length=24, choices=FindingKind.choices, db_index=True)
    status = models.CharField(
        max_length=12, choices=FindingStatus.choices, default=FindingStatus.NEW, db_index=True
    )
    impact = models.CharField(max_length=12, choices=Impact.choices, db_index=True)
    title = models.CharField(max_length=200, validators=[one_line])
    summary = models.TextField(max_length=10_000)
    # The kind's own fields, as data (see findings/kinds.py for each kind's keys).
    details = models.JSONField(default=dict, blank=True)
    # A job of the finding's own team (enforced by the form's scoped queryset). The evidence
    # is frozen separately, so the finding keeps it even if the job is later deleted.
    job = models.ForeignKey(
        "jobs.JobDescription", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revision = models.ForeignKey(
        "jobs.Revision", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    problems = models.ManyToManyField(UnsolvedProblem, blank=True, related_name="findings")
    # Triaged as evidence for a problem that is not on the list yet.
    proposed_problem = models.CharField(max_length=200, blank=True)
    assignee = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="assigned_findings"
    )
    duplicate_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="duplicates"
    )
    decline_reason = models.TextField(blank=True)
    # Bumped by every staff write: a form that names an older version was edited by someone
    # else in between, and is refused instead of silently overwriting their change.
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    submission_token = submissions.token_field()  # a double click files one finding
    status_changed_at = models.DateTimeField(default=timezone.now)
    search_document = models.GeneratedField(
        expression=FindingWords(), output_field=SearchVectorField(null=True), db_persist=True
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        # One index per sort and filter of the triage queue and the partner list, each
        # ending in the keyset's tie-breaker (-id), so a page is one index range (EXPLAIN
        # ANALYZE at 100× in the README). Text search has its own GIN index (PostgreSQL).
        indexes = [
            models.Index(fields=["-created_at", "-id"], name="finding_created_idx"),
            models.Index(fields=["-updated_at", "-id"], name="finding_updated_idx"),
            models.Index(fields=["status", "-created_at", "-id"], name="finding_status_page_idx"),
            models.Index(fields=["kind", "-created_at", "-id"], name="finding_kind_page_idx"),
            models.Index(fields=["team", "-created_at", "-id"], name="finding_team_page_idx"),
            models.Index(
                fields=["assignee", "-created_at", "-id"], name="finding_assignee_page_idx"
            ),
            models.Index(fields=["assignee", "status"], name="finding_assignee_status_idx"),
            # A finding's possible duplicates: the team's findings of its kind, oldest first.
            models.Index(fields=["team", "kind", "created_at", "id"], name="finding_team_kind_idx"),
        ]
        constraints = [
            # A duplicate always says of what, and only a duplicate does.
            models.CheckConstraint(
                condition=(Q(status="duplicate") & Q(duplicate_of__isnull=False))
                | (~Q(status="duplicate") & Q(duplicate_of__isnull=True)),
                name="finding_duplicate_iff_target",
            ),
            models.CheckConstraint(
                condition=~Q(duplicate_of=models.F("pk")), name="finding_not_duplicate_of_itself"
            ),
            submissions.unique_token("finding"),
        ]

    def __str__(self):
        return f"#{self.pk} {self.title}"

    def get_absolute_url(self):
        return reverse("finding_detail", args=[self.pk])


class EvidenceSnapshot(models.Model):
    """The job's ledger figures and timeline as they were when the finding was filed.
    Never updated: later events on the run do not change what the partner reported.
    A merge copies the duplicate's snapshots onto the target (carried_from), so an
    unmerge can take exactly those back."""

    finding = models.ForeignKey(Finding, on_delete=models.CASCADE, related_name="evidence")
    job = models.ForeignKey(
        "jobs.JobDescription", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    job_name = models.CharField(max_length=300)
    revision_number = models.PositiveIntegerField(null=True, blank=True)
    run_state = models.CharField(max_length=12, blank=True)
    ledger = models.JSONField(default=dict)
    timeline = models.JSONField(default=list)
    captured_at = models.DateTimeField(default=timezone.now)
    carried_from = models.ForeignKey(
        Finding, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        ordering = ["captured_at", "pk"]

    def __str__(self):
        return f"Evidence from {self.job_name} at {self.captured_at:%Y-%m-%d %H:%M}"

    @property
    def phase_rows(self):
        phases = (self.ledger or {}).get("phases") or {}
        return [(Phase(k).label if k in Phase.values else k, v) for k, v in phases.items()]


class Subscription(models.Model):
    finding = models.ForeignKey(Finding, on_delete=models.CASCADE, related_name="subscriptions")
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="finding_subscriptions")
    created_at = models.DateTimeField(default=timezone.now)
    # Set when the subscription came over from a merged duplicate (an unmerge removes it).
    carried_from = models.ForeignKey(
        Finding, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["finding", "user"], name="finding_subscription_one_per_user"
            )
        ]

    def __str__(self):
        return f"{self.user} follows {self.finding}"


class StatusChange(models.Model):
    """One row per status change: who, when, from, to, and the note (shown as history)."""

    finding = models.ForeignKey(Finding, on_delete=models.CASCADE, related_name="changes")
    from_status = models.CharField(max_length=12, choices=FindingStatus.choices, blank=True)
    to_status = models.CharField(max_length=12, choices=FindingStatus.choices, db_index=True)
    actor = models.ForeignKey(User, null=True, on_delete=models.SET_NULL, related_name="+")
    note = models.TextField(blank=True)
    # The answer to the partner sent with a staff move: the note is also this response,
    # which the partner reads with the others (the history does not repeat it).
    response = models.OneToOneField(
        "FindingNote", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self):
        return f"{self.finding_id}: {self.from_status or '—'} → {self.to_status}"


class NoteVisibility(models.TextChoices):
    INTERNAL = "internal", "Internal note (staff only)"
    RESPONSE = "response", "Response to the partner"
    PARTNER = "partner", "Information from the partner"


class FindingNote(models.Model):
    finding = models.ForeignKey(Finding, on_delete=models.CASCADE, related_name="notes")
    visibility = models.CharField(max_length=10, choices=NoteVisibility.choices, db_index=True)
    author = models.ForeignKey(User, null=True, on_delete=models.SET_NULL, related_name="+")
    body = models.TextField(max_length=10_000)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    submission_token = submissions.token_field()

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [
            models.Index(
                fields=["finding", "visibility", "-created_at"], name="finding_note_vis_idx"
            )
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(body=""), name="finding_note_body_not_empty"),
            submissions.unique_token("finding_note"),
        ]

    def __str__(self):
        return f"{self.get_visibility_display()} on {self.finding_id}"


# The insights' stored figures live beside their code; importing them here registers them.
from findings.insights.models import ProgramFigures  # noqa: E402, F401
