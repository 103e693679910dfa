"""The run of an accepted job: its lifecycle, events, holds, the clusters it is dispatched
to, and its outcome. Registered with the jobs app (jobs/models.py imports this module)."""

from functools import cache

from django.db import models
from django.db.models import OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce, NullIf
from django.utils import timezone

from jobs.models import JobDescription, Revision
from portal import submissions
from portal.models import Team, User
from portal.validators import one_line

# --- Lifecycle: submit → rent → run → output → release ------------------------------


class RunState(models.TextChoices):
    SUBMITTED = "submitted", "Submitted (queued)"
    RENTED = "rented", "Rented (resources held, data staging)"
    RUNNING = "running", "Running"
    OUTPUT = "output", "Output (results being delivered)"
    RELEASED = "released", "Released (done)"
    FAILED = "failed", "Failed"
    CANCELLED = "cancelled", "Cancelled"


FINAL_STATES = {RunState.RELEASED, RunState.FAILED, RunState.CANCELLED}


class FailureReason(models.TextChoices):
    """Why a run failed, from the engine's own states (Slurm: FAILED with its exit code and
    signal, TIMEOUT, OUT_OF_MEMORY, NODE_FAIL, PREEMPTED, DEADLINE; setup is a script sbatch
    refused, data a staging job that failed)."""

    SETUP = "setup", "Setup"
    DATA = "data", "Data"
    EXIT_CODE = "exit_code", "Ended with an error (exit code or signal)"
    TIME_LIMIT = "time_limit", "Killed at its time limit"
    OUT_OF_MEMORY = "out_of_memory", "Out of memory"
    NODE_FAILURE = "node_failure", "Node failure"
    PREEMPTED = "preempted", "Preempted, not requeued"
    DEADLINE_MISSED = "deadline_missed", "Deadline missed"
    OTHER = "other", "Other"


class CancelledBy(models.TextChoices):
    PARTNER = "partner", "A member of the team"
    STAFF = "staff", "Staff"
    CLUSTER = "cluster", "The cluster"


class SchedulerClient(models.Model):
    """A scheduler of the network allowed to post events. The token is shown once and
    stored only as a SHA-256 hash; revoking is immediate."""

    name = models.CharField(max_length=120, unique=True, validators=[one_line])
    token_hash = models.CharField(max_length=64, unique=True)
    token_prefix = models.CharField(max_length=12)
    simulated = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    submission_token = submissions.token_field()

    class Meta:
        ordering = ["name"]
        constraints = [submissions.unique_token("scheduler_client")]

    def __str__(self):
        return self.name


class Run(models.Model):
    """The lifecycle of an accepted job on the network (one per accepted job)."""

    job = models.OneToOneField(JobDescription, on_delete=models.CASCADE, related_name="run")
    revision = models.ForeignKey(Revision, on_delete=models.PROTECT, related_name="+")
    state = models.CharField(
        max_length=12, choices=RunState.choices, default=RunState.SUBMITTED, db_index=True
    )
    state_since = models.DateTimeField(default=timezone.now)
    restarts = models.PositiveIntegerField(default=0)
    failure_reason = models.CharField(max_length=20, choices=FailureReason.choices, blank=True)
    # Who cancelled a cancelled run (the cancelling event says so).
    cancelled_by = models.CharField(max_length=10, choices=CancelledBy.choices, blank=True)
    # The last dispatch the portal refused before anything reached the cluster, until one
    # goes: {cluster, at, reasons, who} (who must act: "staff" or "team"; dispatch.py).
    dispatch_refusal = models.JSONField(default=dict, blank=True)
    simulated = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"Run of {self.job}"

    @property
    def is_final(self):
        return self.state in FINAL_STATES


class EventKind(models.TextChoices):
    RENTED = "rented", "Rented"
    RUNNING = "running", "Running"
    OUTPUT = "output", "Output"
    RELEASED = "released", "Released"
    PREEMPTED = "preempted", "Preempted (requeued)"
    FAILED = "failed", "Failed"
    CANCELLED = "cancelled", "Cancelled"
    # Staff send a failed run to a cluster again (the same or another): it queues anew, and
    # the earlier attempt's events and holds stay in its timeline and ledger.
    REDISPATCHED = "redispatched", "Dispatched again"


class EventStatus(models.TextChoices):
    APPLIED = "applied", "Applied"
    REJECTED = "rejected", "Rejected"


class EventQuerySet(models.QuerySet):
    def with_senders(self):
        """Each event with the names its `actor_label` says, in the events' own query: one
        index look-up per event that has a sender. Joined instead, PostgreSQL plans for the
        average run's events and hashes the whole user table for them."""
        people, schedulers = _sender_names()
        return self.annotate(actor_name=people, client_name=schedulers)


@cache
def _sender_names():
    """The two subqueries of with_senders(), built once (a query that uses an expression
    works on its own copy): building them was a fifth of the events' read on the job page."""
    # str(User) in SQL: the full name, else the email.
    people = (
        User.objects.filter(pk=OuterRef("actor_id"))
        .order_by()
        .values(
            name=Coalesce(NullIf("full_name", Value("")), "email", output_field=models.CharField())
        )
    )
    schedulers = SchedulerClient.objects.filter(pk=OuterRef("client_id")).order_by()
    return Subquery(people), Subquery(schedulers.values("name"))


class Event(models.Model):
    """One lifecycle event as received. The run's state is the replay of its events in
    the order they happened; an event illegal at its place is kept, marked rejected."""

    # No index of its own: the (run, time) index and the (run, key) constraint both start
    # with it (a third index a 500-event batch kept up to date, and that PostgreSQL preferred
    # to the (run, time) one for "these runs, from these times on").
    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="events", db_index=False)
    kind = models.CharField(max_length=12, choices=EventKind.choices)
    requeue_to = models.CharField(max_length=12, choices=RunState.choices, blank=True)
    failure_reason = models.CharField(max_length=20, choices=FailureReason.choices, blank=True)
    # Events are only ever read by run: time is indexed after the run (Meta.indexes).
    occurred_at = models.DateTimeField()
    received_at = models.DateTimeField(default=timezone.now)
    idempotency_key = models.CharField(max_length=200)
    actor = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    client = models.ForeignKey(
        SchedulerClient, null=True, blank=True, on_delete=models.SET_NULL, related_name="events"
    )
    note = models.TextField(blank=True, max_length=2000)
    simulated = models.BooleanField(default=False)
    # Not indexed: read only within a run's events, never across runs.
    status = models.CharField(
        max_length=10, choices=EventStatus.choices, default=EventStatus.APPLIED
    )
    from_state = models.CharField(max_length=12, choices=RunState.choices, blank=True)
    to_state = models.CharField(max_length=12, choices=RunState.choices, blank=True)
    reject_reason = models.CharField(max_length=300, blank=True)
    # What the scheduler measured, when it says (jobs/runs/observed.py: OBSERVED_KEYS):
    # bytes staged, bytes delivered, nodes granted, exit reason.
    observed = models.JSONField(default=dict, blank=True)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["occurred_at", "received_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["run", "idempotency_key"], name="event_idempotency_key_unique_per_run"
            ),
        ]
        # Ingest replays a run from its earliest new event: "this run, from this time on".
        indexes = [models.Index(fields=["run", "occurred_at"], name="event_run_occurred_idx")]

    def __str__(self):
        return f"{self.get_kind_display()} at {self.occurred_at:%Y-%m-%d %H:%M}"

    @property
    def actor_label(self):
        """Who sent it; the event must be read with its senders' names (with_senders())."""
        if self.client_id:
            return f"scheduler {self.client_name}" + (" (simulated)" if self.simulated else "")
        return f"staff {self.actor_name}" if self.actor_id else "—"


class Phase(models.TextChoices):
    STAGING = "staging", "Staging"
    WAITING = "waiting", "Waiting"
    RUNNING = "running", "Running"
    OUTPUT = "output", "Output"
    IDLE_TAIL = "idle_tail", "Idle tail"


class Hold(models.Model):
    """Accelerators the network held for a run, in one phase; open while ended_at is empty."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="holds")
    accelerator_type = models.CharField(max_length=100)
    count = models.PositiveIntegerField()
    phase = models.CharField(max_length=12, choices=Phase.choices, db_index=True)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    idempotency_key = models.CharField(max_length=200)
    client = models.ForeignKey(
        SchedulerClient, null=True, blank=True, on_delete=models.SET_NULL, related_name="holds"
    )
    simulated = models.BooleanField(default=False)
    # Measured: posted by a cluster's agent from the engine's own accounting (Slurm's
    # allocation records), not reported by hand or played by the simulator.
    measured = models.BooleanField(default=False)
    received_at = models.DateTimeField(default=timezone.now)
    observed = models.JSONField(default=dict, blank=True)  # as on Event

    class Meta:
        ordering = ["started_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["run", "idempotency_key"], name="hold_idempotency_key_unique_per_run"
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=models.F("started_at")),
                name="hold_ends_after_it_starts",
            ),
        ]

    def __str__(self):
        return f"{self.count} × {self.accelerator_type} ({self.phase})"

    @property
    def source(self):
        """measured (the engine's accounting), estimated (a cluster's agent without accounting:
        the controller's start and end times), simulated, or reported (by a scheduler)."""
        if self.measured:
            return "estimated" if self.observed.get("estimated") else "measured"
        return "simulated" if self.simulated else "reported"


# --- Real clusters: staff dispatch an accepted job; the cluster's agent runs it ------------


class Cluster(models.Model):
    """A Slurm cluster. Its agent authenticates as `client` and reports the partition it
    submits to (nodes, GRES, limits); dispatch checks a job against that report."""

    name = models.CharField(max_length=120, unique=True, validators=[one_line])
    client = models.OneToOneField(SchedulerClient, on_delete=models.PROTECT, related_name="cluster")
    partition = models.CharField(max_length=120)
    # Slurm's --account and --qos for every job, where the site asks for them.
    account = models.CharField(max_length=120, blank=True)
    qos = models.CharField(max_length=120, blank=True)
    # Accelerator type as partners write it -> GRES, e.g. {"H100-80GB": "gpu:h100"}.
    accelerator_map = models.JSONField(default=dict, blank=True)
    # How this site moves data, as shell templates ({location}, {destination}, {name}).
    stage_command = models.CharField(max_length=1000, blank=True)
    deliver_command = models.CharField(max_length=1000, blank=True)
    # The partition as the agent last reported it.
    nodes = models.PositiveIntegerField(null=True, blank=True)
    cpus_per_node = models.PositiveIntegerField(null=True, blank=True)
    memory_per_node_mb = models.PositiveBigIntegerField(null=True, blank=True)
    tmp_disk_per_node_mb = models.PositiveBigIntegerField(null=True, blank=True)
    gres_per_node = models.JSONField(default=dict, blank=True)  # {"gpu:h100": 8}
    max_time_seconds = models.PositiveIntegerField(null=True, blank=True)  # empty: unlimited
    reported_at = models.DateTimeField(null=True, blank=True)
    # The version of the agent that sent the last report (`--version`), to see who runs an old one.
    agent_version = models.CharField(max_length=40, blank=True)
    created_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class DispatchState(models.TextChoices):
    WAITING = "waiting", "Waiting for the cluster's agent"
    SUBMITTED = "submitted", "Submitted to Slurm"
    FINISHED = "finished", "Finished"


class Dispatch(models.Model):
    """A run sent to a cluster: the batch scripts frozen at dispatch and the Slurm job ids
    the agent submitted them as."""

    run = models.OneToOneField(Run, on_delete=models.CASCADE, related_name="dispatch")
    cluster = models.ForeignKey(Cluster, on_delete=models.PROTECT, related_name="dispatches")
    # Names the Slurm jobs (e31-<key>-<phase>), so an agent that restarts finds what it submitted.
    key = models.CharField(max_length=32, unique=True)
    scripts = models.JSONField(default=list)  # [{phase, filename, text, after}]
    notes = models.JSONField(default=list, blank=True)
    state = models.CharField(
        max_length=12, choices=DispatchState.choices, default=DispatchState.WAITING
    )
    slurm_jobs = models.JSONField(default=dict, blank=True)  # {phase: Slurm job id}
    dispatched_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    dispatched_at = models.DateTimeField(default=timezone.now)
    submitted_at = models.DateTimeField(null=True, blank=True)
    cancel_requested_at = models.DateTimeField(null=True, blank=True)
    cancel_requested_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    # The earlier attempts when the run was dispatched again after a failure, oldest first:
    # [{cluster, key, slurm_jobs, dispatched_at, finished_at, failure_reason}].
    earlier = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-dispatched_at"]
        verbose_name_plural = "dispatches"
        indexes = [models.Index(fields=["cluster", "state"], name="dispatch_cluster_state_idx")]

    def __str__(self):
        return f"{self.run.job} on {self.cluster}"


class RunOutcome(models.Model):
    """A run that ended, declared next to observed, as plain numbers: the program's insights
    aggregate these rows in the database. Rewritten whenever the ended run's record changes."""

    run = models.OneToOneField(Run, on_delete=models.CASCADE, related_name="outcome")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    work_kind = models.CharField(max_length=24, blank=True, db_index=True)
    final_state = models.CharField(max_length=12, choices=RunState.choices)
    simulated = models.BooleanField(default=False)
    finished_at = models.DateTimeField(db_index=True)
    declared_seconds = models.FloatField(null=True, blank=True)
    observed_seconds = models.FloatField(null=True, blank=True)
    duration_ratio = models.FloatField(null=True, blank=True)
    declared_bytes = models.BigIntegerField(null=True, blank=True)
    staged_bytes = models.BigIntegerField(null=True, blank=True)
    data_ratio = models.FloatField(null=True, blank=True)
    implied_staging_seconds = models.FloatField(null=True, blank=True)
    staging_seconds = models.FloatField(null=True, blank=True)
    staging_ratio = models.FloatField(null=True, blank=True)
    expected_hours = models.FloatField(null=True, blank=True)
    held_hours = models.FloatField(null=True, blank=True)
    hours_ratio = models.FloatField(null=True, blank=True)
    declared_output_bytes = models.BigIntegerField(null=True, blank=True)
    delivered_bytes = models.BigIntegerField(null=True, blank=True)
    output_ratio = models.FloatField(null=True, blank=True)
    nodes_asked = models.PositiveIntegerField(null=True, blank=True)
    nodes_granted = models.PositiveIntegerField(null=True, blank=True)
    preemptible = models.BooleanField(null=True, blank=True)
    restarts = models.PositiveIntegerField(default=0)
    deadline_met = models.BooleanField(null=True, blank=True)
    # Positive: finished that many seconds before the deadline; negative: after it.
    deadline_margin_seconds = models.FloatField(null=True, blank=True)
    exit_reason = models.CharField(max_length=200, blank=True)
    failure_reason = models.CharField(max_length=20, choices=FailureReason.choices, blank=True)
    cancelled_by = models.CharField(max_length=10, choices=CancelledBy.choices, blank=True)
    # What the cluster saw it use (observed.usage_figures), when an engine measured it.
    declared_memory_bytes = models.BigIntegerField(null=True, blank=True)
    peak_memory_bytes = models.BigIntegerField(null=True, blank=True)
    memory_ratio = models.FloatField(null=True, blank=True)  # peak ÷ declared per node
    cpu_efficiency = models.FloatField(null=True, blank=True)  # CPU time ÷ (CPUs × elapsed)
    time_limit_seconds = models.FloatField(null=True, blank=True)
    elapsed_seconds = models.FloatField(null=True, blank=True)
    time_limit_ratio = models.FloatField(null=True, blank=True)  # elapsed ÷ time limit
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-finished_at"]
        indexes = [
            models.Index(fields=["team", "finished_at"], name="runoutcome_team_finished_idx"),
            # The newest write: the insights' "as of" date (findings.insights.figures.latest_data).
            models.Index(fields=["recorded_at"], name="runoutcome_recorded_idx"),
        ]

    def __str__(self):
        return f"Outcome of run {self.run_id}"
