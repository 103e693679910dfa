"""`manage.py load_scale --factor N --seed S`: a program N times as busy as a busy one.

At factor 1: 3 teams, 10 partners, 200 jobs (revisions, reviews, status history, runs with
~10 lifecycle events and their holds, discussions), 500 findings (history, notes, problems,
followers), notices and 30 applications. One team (Northwind Vision when the demo is loaded)
owns a tenth of the jobs and findings, so a demo login sees a busy team's pages. Rows are
made through the models with bulk inserts (no e-mail is sent, no task queued); every field
a service would fill is filled the same way, and the unread badges are recounted at the end.
The same seed gives the same data."""

import copy
import hashlib
import random
import uuid
from datetime import timedelta

from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from findings.counts import recount_problems
from findings.models import (
    Finding,
    FindingKind,
    FindingNote,
    FindingStatus,
    Impact,
    NoteVisibility,
    StatusChange,
    Subscription,
    UnsolvedProblem,
)
from jobs import jobformat
from jobs.counts import recount_statuses
from jobs.models import (
    Comment,
    FieldSignal,
    JobDescription,
    JobStatus,
    JobStatusChange,
    ReadMark,
    Review,
    ReviewOutcome,
    Revision,
)
from jobs.runs.models import (
    FINAL_STATES,
    Event,
    EventKind,
    EventStatus,
    Hold,
    Phase,
    Run,
    RunOutcome,
    RunState,
)
from jobs.unread import recount_unread
from portal.demo import DEMO_PASSWORD
from portal.intake.models import ApplicationStatus, IntakeApplication, IntakeWindow
from portal.models import Membership, Notice, NoticeTopic, Role, Team, User

BATCH = 2000
RATIOS = ("duration", "data", "staging", "hours")
# (field, the problem it is evidence for, the vague word a partner wrote or "")
SIGNALS = [
    ("request.estimate", "knowing-what-a-job-must-declare", "roughly"),
    ("data.inputs.N.size", "getting-data-to-compute", "about"),
    ("output.artifacts.N.size", "knowing-what-a-job-must-declare", "tbd"),
    ("request.less_compute", "scheduling-mixed-sizes", ""),
    ("request.deadline", "scheduling-mixed-sizes", "as soon as possible"),
    ("work.summary", "knowing-what-a-job-must-declare", "a few"),
]
# A vocabulary wide enough that a searched word is in a few percent of findings, as in
# real text (a word in most rows would turn every search into a scan of the table).
WORDS = (
    "staging",
    "slow",
    "bucket",
    "egress",
    "scratch",
    "checkpoint",
    "preempted",
    "shard",
    "footage",
    "parquet",
    "manifest",
    "quota",
    "deadline",
    "ledger",
    "idle",
    "tail",
    "requeue",
    "nodes",
    "memory",
    "oom",
    "timeout",
    "region",
    "bandwidth",
    "accelerator",
    "estimate",
    "vague",
    "size",
    "compressed",
    "unpacked",
    "output",
    "delivery",
    "retention",
    "schema",
    "partial",
    "restart",
    "warmup",
    "cache",
    "dataset",
    "tokenizer",
    "embedding",
    "index",
    "sweep",
    "simulation",
    "throughput",
    "latency",
    "queue",
    "backlog",
    "priority",
    "gang",
    "scheduler",
    "slurm",
    "kubernetes",
    "pod",
    "container",
    "image",
    "registry",
    "pull",
    "credentials",
    "token",
    "secret",
    "mount",
    "volume",
    "filesystem",
    "lustre",
    "nfs",
    "object",
    "storage",
    "multipart",
    "upload",
    "download",
    "transfer",
    "sync",
    "rsync",
    "copy",
    "archive",
    "tarball",
    "zip",
    "gzip",
    "zstd",
    "decompress",
    "unpack",
    "extract",
    "frames",
    "video",
    "audio",
    "transcript",
    "label",
    "annotation",
    "mask",
    "segment",
    "detect",
    "classify",
    "train",
    "finetune",
    "evaluate",
    "validate",
    "benchmark",
    "metric",
    "loss",
    "gradient",
    "optimizer",
    "learning",
    "rate",
    "batch",
    "epoch",
    "step",
    "iteration",
    "warmstart",
    "resume",
    "snapshot",
    "weights",
    "safetensors",
    "onnx",
    "tensorrt",
    "cuda",
    "nccl",
    "infiniband",
    "ethernet",
    "rdma",
    "topology",
    "placement",
    "affinity",
    "numa",
    "socket",
    "core",
    "thread",
    "process",
    "worker",
    "driver",
    "firmware",
    "kernel",
    "module",
    "version",
    "upgrade",
    "rollback",
    "patch",
    "hotfix",
    "incident",
    "outage",
    "degraded",
    "flaky",
    "retry",
    "backoff",
    "jitter",
    "heartbeat",
    "watchdog",
    "health",
    "probe",
    "alert",
    "pager",
    "oncall",
    "runbook",
    "dashboard",
    "graph",
    "chart",
    "panel",
    "report",
    "invoice",
    "usage",
    "hours",
    "held",
    "reserved",
    "rented",
    "released",
    "cancelled",
    "failed",
    "succeeded",
    "pending",
    "running",
    "waiting",
    "blocked",
    "throttled",
    "limited",
    "capped",
    "exceeded",
    "overflow",
    "underflow",
    "mismatch",
    "drift",
    "skew",
    "offset",
    "clock",
    "timezone",
    "utc",
    "daylight",
    "calendar",
    "window",
    "spike",
    "burst",
    "peak",
    "typical",
    "baseline",
    "forecast",
    "plan",
    "budget",
    "target",
    "goal",
    "milestone",
    "review",
    "approve",
    "decline",
    "clarify",
    "revise",
    "submit",
    "withdraw",
    "draft",
    "field",
    "unit",
    "precision",
    "ambiguous",
    "exact",
    "roughly",
    "approximately",
    "about",
    "maybe",
    "unknown",
    "missing",
    "declared",
    "observed",
    "expected",
    "actual",
    "measured",
    "simulated",
    "reported",
    "logged",
    "traced",
    "profiled",
)
STATUS_MIX = [
    (JobStatus.DRAFT, 25),
    (JobStatus.IN_REVIEW, 10),
    (JobStatus.NEEDS_CLARIFICATION, 10),
    (JobStatus.ACCEPTED, 45),
    (JobStatus.DECLINED, 10),
]
FINDING_MIX = [
    (FindingStatus.NEW, 30),
    (FindingStatus.TRIAGED, 25),
    (FindingStatus.ACCEPTED, 15),
    (FindingStatus.ADDRESSED, 10),
    (FindingStatus.VERIFIED, 8),
    (FindingStatus.REOPENED, 4),
    (FindingStatus.DECLINED, 8),
]
# The path of a finding to its status, for its history rows.
FINDING_PATH = {
    FindingStatus.NEW: [],
    FindingStatus.TRIAGED: [FindingStatus.TRIAGED],
    FindingStatus.ACCEPTED: [FindingStatus.TRIAGED, FindingStatus.ACCEPTED],
    FindingStatus.ADDRESSED: [
        FindingStatus.TRIAGED,
        FindingStatus.ACCEPTED,
        FindingStatus.ADDRESSED,
    ],
    FindingStatus.VERIFIED: [
        FindingStatus.TRIAGED,
        FindingStatus.ACCEPTED,
        FindingStatus.ADDRESSED,
        FindingStatus.VERIFIED,
    ],
    FindingStatus.REOPENED: [
        FindingStatus.TRIAGED,
        FindingStatus.ACCEPTED,
        FindingStatus.ADDRESSED,
        FindingStatus.REOPENED,
    ],
    FindingStatus.DECLINED: [FindingStatus.DECLINED],
}
ANCHOR_TEAM = "northwind-vision"


class Command(BaseCommand):
    help = "Generate realistic data at N times a busy program (reproducible with --seed)."

    def add_arguments(self, parser):
        parser.add_argument("--factor", type=int, default=1, help="how many busy programs")
        parser.add_argument("--seed", type=int, default=1, help="same seed, same data")

    def handle(self, *args, factor, seed, **options):
        if not 1 <= factor <= 1000:
            raise CommandError("--factor is between 1 and 1000.")
        self.rng = random.Random(seed)
        self.prefix = f"s{seed}"
        if Team.objects.filter(slug__startswith=f"{self.prefix}-").exists():
            raise CommandError(
                f"Data for seed {seed} is already loaded; use another --seed or an empty database."
            )
        self.now = timezone.now()
        with transaction.atomic():
            counts = self.load(factor)
        recount_unread()
        recount_problems()
        recount_statuses()
        self.stdout.write(
            self.style.SUCCESS(", ".join(f"{n:,} {name}" for name, n in counts.items()))
        )

    # --- helpers ------------------------------------------------------------------------

    def pick(self, mix):
        values, weights = zip(*mix, strict=True)
        return self.rng.choices(values, weights)[0]

    def when(self, days=365):
        return self.now - timedelta(seconds=self.rng.randrange(days * 86400))

    def words(self, n):
        return " ".join(self.rng.choice(WORDS) for _ in range(n))

    def bulk(self, model, rows):
        return model.objects.bulk_create(rows, batch_size=BATCH)

    # --- the program --------------------------------------------------------------------

    def load(self, factor):
        self.event_count = 0
        teams, members, staff = self.people(factor)
        jobs = self.jobs(factor, teams, members, staff)
        findings = self.findings(factor, teams, members, staff, jobs)
        applications = self.applications(factor)
        return {
            "teams": len(teams),
            "partners": sum(len(m) for m in members.values()),
            "jobs": len(jobs),
            "lifecycle events": self.event_count,
            "findings": findings,
            "applications": applications,
        }

    def people(self, factor):
        password = make_password(DEMO_PASSWORD)
        anchor = Team.objects.filter(slug=ANCHOR_TEAM).first()
        teams = self.bulk(
            Team,
            [
                Team(
                    name=f"Scale {self.prefix} team {i}",
                    slug=f"{self.prefix}-team-{i}",
                    organisation=f"Org {i % 97}",
                    created_at=self.when(),
                )
                for i in range(3 * factor - (1 if anchor else 0))
            ],
        )
        teams = ([anchor] if anchor else []) + teams
        users = self.bulk(
            User,
            [
                User(
                    email=f"{self.prefix}-user{i}@scale.example",
                    full_name=f"Partner {i}",
                    password=password,
                )
                for i in range(10 * factor)
            ],
        )
        staff = self.bulk(
            User,
            [
                User(
                    email=f"{self.prefix}-staff{i}@e31.example",
                    full_name=f"Staff {i}",
                    password=password,
                    is_staff=True,
                )
                for i in range(max(2, factor // 20))
            ],
        )
        staff += list(
            User.objects.filter(is_staff=True, is_active=True).exclude(pk__in=[s.pk for s in staff])
        )
        memberships = []
        members = {team.pk: [] for team in teams}
        for i, user in enumerate(users):
            team = teams[i % len(teams)]
            memberships.append(
                Membership(team=team, user=user, role=Role.ADMIN if i < len(teams) else Role.MEMBER)
            )
            members[team.pk].append(user)
        self.bulk(Membership, memberships)
        if anchor:
            members[anchor.pk] += [m.user for m in anchor.memberships.select_related("user")]
        return teams, members, staff

    def team_for(self, teams, i, total):
        """A tenth of everything belongs to the first team; the rest is spread evenly."""
        if i < total // 10:
            return teams[0]
        return teams[1 + (i % (len(teams) - 1))] if len(teams) > 1 else teams[0]

    def jobs(self, factor, teams, members, staff):
        example = jobformat.example_data()
        total = 200 * factor
        jobs = []
        for i in range(total):
            team = self.team_for(teams, i, total)
            data = copy.deepcopy(example)
            data["name"] = f"{self.words(2).replace(' ', '-')}-{i}"
            data["work"]["summary"] = f"{self.words(8).capitalize()}."
            data["request"]["nodes"] = self.rng.choice([1, 2, 4, 8, 16])
            data["request"]["min_nodes"] = 1
            created = self.when()
            author = self.rng.choice(members[team.pk])
            jobs.append(
                JobDescription(
                    team=team,
                    name=data["name"],
                    data=data,
                    status=self.pick(STATUS_MIX),
                    created_by=author,
                    updated_by=author,
                    created_at=created,
                    updated_at=created,
                    last_activity_at=created + timedelta(hours=self.rng.randrange(1, 24 * 30)),
                )
            )
        jobs = self.bulk(JobDescription, jobs)
        self.history(jobs, members, staff)
        self.field_signals(jobs)
        self.discussions(jobs, members, staff)
        return jobs

    def history(self, jobs, members, staff):
        revisions, changes, reviews = [], [], []
        for job in jobs:
            if job.status == JobStatus.DRAFT:
                continue
            n = (
                2
                if job.status in (JobStatus.ACCEPTED, JobStatus.IN_REVIEW)
                and self.rng.random() < 0.3
                else 1
            )
            for number in range(1, n + 1):
                at = job.created_at + timedelta(hours=number * 6)
                revisions.append(
                    Revision(
                        job=job,
                        number=number,
                        data=job.data,
                        submitted_by=job.created_by,
                        submitted_at=at,
                        # As jobs.awaiting keeps it: the latest revision of a job in review.
                        awaiting_review=job.status == JobStatus.IN_REVIEW and number == n,
                    )
                )
                changes.append(
                    JobStatusChange(
                        job=job,
                        from_status=JobStatus.DRAFT,
                        to_status=JobStatus.IN_REVIEW,
                        actor=job.created_by,
                        created_at=at,
                    )
                )
        revisions = self.bulk(Revision, revisions)
        latest = {}
        for revision in revisions:
            latest[revision.job_id] = revision
        outcomes = {
            JobStatus.ACCEPTED: ReviewOutcome.ACCEPTED,
            JobStatus.NEEDS_CLARIFICATION: ReviewOutcome.CLARIFY,
            JobStatus.DECLINED: ReviewOutcome.DECLINED,
        }
        runs = []
        for job in jobs:
            outcome = outcomes.get(job.status)
            if outcome is None:
                continue
            revision = latest[job.pk]
            at = revision.submitted_at + timedelta(hours=self.rng.randrange(1, 72))
            reviewer = self.rng.choice(staff)
            reviews.append(
                Review(
                    revision=revision,
                    outcome=outcome,
                    note=self.words(12),
                    reviewer=reviewer,
                    created_at=at,
                    fields=["data.inputs.0.size"] if outcome == ReviewOutcome.CLARIFY else [],
                )
            )
            changes.append(
                JobStatusChange(
                    job=job,
                    from_status=JobStatus.IN_REVIEW,
                    to_status=job.status,
                    actor=reviewer,
                    created_at=at,
                )
            )
            if job.status == JobStatus.ACCEPTED:
                runs.append(Run(job=job, revision=revision, created_at=at))
        self.bulk(Review, reviews)
        self.bulk(JobStatusChange, changes)
        self.lifecycles(self.bulk(Run, runs), members)

    def lifecycles(self, runs, members):
        """Each run plays part or all of rent → run (preempted now and then) → output →
        release; events carry their verdicts as the replay would, holds their phases."""
        events, holds, notices = [], [], []
        for run in runs:
            at, state, restarts, path = run.created_at, RunState.SUBMITTED, 0, []
            stop = self.rng.random()
            steps = [(EventKind.RENTED, RunState.RENTED, Phase.STAGING)]
            for _ in range(self.rng.randrange(16)):  # preempted now and then: ~10 events a job
                steps += [
                    (EventKind.RUNNING, RunState.RUNNING, Phase.RUNNING),
                    (EventKind.PREEMPTED, RunState.RENTED, Phase.WAITING),
                ]
            steps += [
                (EventKind.RUNNING, RunState.RUNNING, Phase.RUNNING),
                (EventKind.OUTPUT, RunState.OUTPUT, Phase.OUTPUT),
                (EventKind.RELEASED, RunState.RELEASED, None),
            ]
            if stop < 0.3:
                steps = steps[: self.rng.randrange(1, len(steps))]
            for n, (kind, target, phase) in enumerate(steps):
                occurred = at + timedelta(minutes=self.rng.randrange(5, 600))
                events.append(
                    Event(
                        run=run,
                        kind=kind,
                        requeue_to=RunState.RENTED if kind == EventKind.PREEMPTED else "",
                        occurred_at=occurred,
                        received_at=occurred + timedelta(seconds=2),
                        idempotency_key=f"scale:{run.job_id}:{n}",
                        simulated=True,
                        status=EventStatus.APPLIED,
                        from_state=state,
                        to_state=target,
                    )
                )
                if path and path[-1].ended_at is None:
                    path[-1].ended_at = occurred
                if phase is not None:
                    path.append(
                        Hold(
                            run=run,
                            accelerator_type="L40S",
                            count=self.rng.choice([8, 16, 32, 64]),
                            phase=phase,
                            started_at=occurred,
                            idempotency_key=f"scale:{run.job_id}:hold:{n}",
                            simulated=True,
                        )
                    )
                restarts += kind == EventKind.PREEMPTED
                at, state = occurred, target
            holds += path
            run.state, run.state_since, run.restarts, run.simulated = state, at, restarts, True
            for person in members[run.job.team_id]:
                if self.rng.random() < 0.3:
                    notices.append(
                        Notice(
                            user=person,
                            team_id=run.job.team_id,
                            topic=NoticeTopic.JOB,
                            message=f"[simulated] {run.job.name} is {state.label.lower()}.",
                            url=f"/jobs/{run.job_id}/#run",
                            created_at=at,
                            read_at=None if self.rng.random() < 0.2 else at,
                        )
                    )
        Run.objects.bulk_update(
            runs, ["state", "state_since", "restarts", "simulated"], batch_size=BATCH
        )
        self.outcomes([r for r in runs if r.state in FINAL_STATES])
        self.bulk(Event, events)
        self.bulk(Hold, holds)
        self.bulk(Notice, notices)
        self.event_count = len(events)

    def outcomes(self, runs):
        """What the program learns from each ended run: declared next to observed, as
        jobs/runs/observed.py records it, with ratios spread as real runs spread."""
        rows = []
        for run in runs:
            ratio = {m: round(self.rng.lognormvariate(0.15, 0.35), 4) for m in RATIOS}
            declared = {"duration": 129600.0, "data": 2748779069440, "staging": 2199.0,
                        "hours": 1200.0}  # fmt: skip
            margin = self.rng.uniform(-2, 5) * 86400
            rows.append(
                RunOutcome(
                    run=run,
                    team_id=run.job.team_id,
                    work_kind=run.job.data["work"]["kind"],
                    final_state=run.state,
                    simulated=True,
                    finished_at=run.state_since,
                    declared_seconds=declared["duration"],
                    observed_seconds=declared["duration"] * ratio["duration"],
                    duration_ratio=ratio["duration"],
                    declared_bytes=declared["data"],
                    staged_bytes=int(declared["data"] * ratio["data"]),
                    data_ratio=ratio["data"],
                    implied_staging_seconds=declared["staging"],
                    staging_seconds=declared["staging"] * ratio["staging"],
                    staging_ratio=ratio["staging"],
                    expected_hours=declared["hours"],
                    held_hours=declared["hours"] * ratio["hours"],
                    hours_ratio=ratio["hours"],
                    nodes_asked=run.job.data["request"]["nodes"],
                    nodes_granted=max(
                        1, run.job.data["request"]["nodes"] // self.rng.choice([1, 1, 2])
                    ),
                    preemptible=True,
                    restarts=run.restarts,
                    deadline_met=margin >= 0 if run.state == RunState.RELEASED else False,
                    deadline_margin_seconds=margin if run.state == RunState.RELEASED else None,
                )  # fmt: skip
            )
        self.bulk(RunOutcome, rows)

    def field_signals(self, jobs):
        """Fields flagged at first submission or named by staff, as jobs/field_signals.py
        records them: a few per submitted job."""
        rows = []
        for job in jobs:
            if job.status == JobStatus.DRAFT:
                continue
            for field, problem, word in self.rng.sample(SIGNALS, self.rng.randrange(0, 4)):
                first = 1 if self.rng.random() < 0.8 else 2
                exact = None if job.status == JobStatus.NEEDS_CLARIFICATION else first
                rows.append(
                    FieldSignal(
                        job=job,
                        team_id=job.team_id,
                        field=field,
                        problem=problem,
                        first_level=self.pick([("error", 6), ("warning", 3), ("", 1)]),
                        first_code="vague_wording" if word else "missing",
                        vague_word=word,
                        at_first_submission=first == 1,
                        first_revision=first,
                        exact_revision=exact and exact + self.rng.randrange(0, 3),
                        clarify_requests=self.pick([(0, 6), (1, 3), (2, 1)]),
                        draft_to_accept_seconds=self.rng.randrange(3600, 40 * 86400)
                        if job.status == JobStatus.ACCEPTED
                        else None,
                        created_at=job.created_at,
                        updated_at=job.last_activity_at,
                    )  # fmt: skip
                )
        self.bulk(FieldSignal, rows)

    def discussions(self, jobs, members, staff):
        comments, marks = [], []
        for job in jobs:
            if job.status == JobStatus.DRAFT or self.rng.random() < 0.4:
                continue
            at = job.created_at
            for _ in range(self.rng.randrange(1, 4)):
                author = self.rng.choice(members[job.team_id] + staff)
                at += timedelta(hours=self.rng.randrange(1, 48))
                comments.append(
                    Comment(
                        job=job,
                        body=f"{self.words(15).capitalize()}?",
                        author=author,
                        by_staff=author.is_staff,
                        created_at=at,
                    )
                )
            for reader in set(members[job.team_id] + staff):
                if self.rng.random() < 0.8:
                    marks.append(ReadMark(job=job, user=reader, read_at=at))
        self.bulk(Comment, comments)
        ReadMark.objects.bulk_create(marks, batch_size=BATCH, ignore_conflicts=True)

    def findings(self, factor, teams, members, staff, jobs):
        problems = list(UnsolvedProblem.objects.all())
        jobs_of = {}
        for job in jobs:
            jobs_of.setdefault(job.team_id, []).append(job)
        total = 500 * factor
        findings = []
        for i in range(total):
            team = self.team_for(teams, i, total)
            status = self.pick(FINDING_MIX)
            created = self.when()
            job = self.rng.choice(jobs_of[team.pk]) if jobs_of.get(team.pk) else None
            findings.append(
                Finding(
                    team=team,
                    filed_by=self.rng.choice(members[team.pk]),
                    kind=self.rng.choice(FindingKind.values),
                    status=status,
                    impact=self.rng.choice(Impact.values),
                    title=f"{self.words(5).capitalize()} #{i}",
                    summary=f"{self.words(40).capitalize()}.",
                    details={"what_happened": self.words(20), "what_expected": self.words(12)},
                    job=job,
                    assignee=self.rng.choice(staff) if status != FindingStatus.NEW else None,
                    decline_reason=self.words(10) if status == FindingStatus.DECLINED else "",
                    created_at=created,
                    updated_at=created + timedelta(hours=len(FINDING_PATH[status]) * 20),
                    status_changed_at=created + timedelta(hours=len(FINDING_PATH[status]) * 20),
                )
            )
        findings = self.bulk(Finding, findings)
        changes, notes, links, follows = [], [], [], []
        through = Finding.problems.through
        for finding in findings:
            changes.append(
                StatusChange(
                    finding=finding,
                    to_status=FindingStatus.NEW,
                    actor=finding.filed_by,
                    created_at=finding.created_at,
                )
            )
            before = FindingStatus.NEW
            for n, target in enumerate(FINDING_PATH[finding.status], start=1):
                changes.append(
                    StatusChange(
                        finding=finding,
                        from_status=before,
                        to_status=target,
                        actor=finding.assignee or finding.filed_by,
                        note=self.words(8),
                        created_at=finding.created_at + timedelta(hours=n * 20),
                    )
                )
                before = target
            if finding.status != FindingStatus.NEW:
                notes.append(
                    FindingNote(
                        finding=finding,
                        visibility=self.rng.choice(NoteVisibility.values),
                        author=finding.assignee,
                        body=self.words(25),
                        created_at=finding.created_at + timedelta(hours=10),
                    )
                )
            if problems and finding.status not in (FindingStatus.NEW, FindingStatus.DECLINED):
                links.append(through(finding=finding, unsolvedproblem=self.rng.choice(problems)))
            follows.append(Subscription(finding=finding, user=finding.filed_by))
        self.bulk(StatusChange, changes)
        self.bulk(FindingNote, notes)
        through.objects.bulk_create(links, batch_size=BATCH, ignore_conflicts=True)
        Subscription.objects.bulk_create(follows, batch_size=BATCH, ignore_conflicts=True)
        return len(findings)

    def applications(self, factor):
        window = IntakeWindow.objects.filter(closed_at__isnull=True).first()
        if window is None:
            window = IntakeWindow.objects.create(
                opens_at=self.now - timedelta(days=20),
                closes_at=self.now + timedelta(days=10),
                places=3 * factor,
                announcement="Design-partner intake (generated at scale).",
            )
        rows = []
        for i in range(30 * factor):
            typical = self.rng.randrange(1, 64)
            deadline = self.now + timedelta(days=self.rng.randrange(30, 200))
            token = uuid.UUID(int=self.rng.getrandbits(128))
            rows.append(
                IntakeApplication(
                    window=window,
                    status=self.rng.choice(
                        [ApplicationStatus.RECEIVED, ApplicationStatus.UNDER_REVIEW]
                    ),
                    submitted_at=window.opens_at + timedelta(minutes=i),
                    submission_token=token,
                    status_token_hash=hashlib.sha256(f"{self.prefix}:{token}".encode()).hexdigest(),
                    team_name=f"Applicant {self.prefix} {i}",
                    organisation=f"Org {i % 211}",
                    contact_name=f"Contact {i}",
                    contact_email=f"{self.prefix}-applicant{i}@apply.example",
                    engineering_contacts="Lead ML engineer",
                    job_work=f"{self.words(12).capitalize()}.",
                    job_data=f"{self.words(10).capitalize()}.",
                    job_request=f"{typical * 4} accelerators until done.",
                    job_output=f"{self.words(8).capitalize()}.",
                    accelerator_type="H100 80GB",
                    accelerator_count=typical * 4,
                    data_size_text="1.5 TiB",
                    data_size_bytes=int(1.5 * 2**40),
                    duration_text="36h",
                    duration_seconds=36 * 3600,
                    deadline_text=deadline.date().isoformat(),
                    deadline=deadline,
                    typical_accelerators=typical,
                    peak_accelerators=typical * self.rng.randrange(2, 32),
                    spike_interval_text="3w",
                    spike_interval_seconds=3 * 7 * 86400,
                    next_spike_text=(deadline - timedelta(days=20)).date().isoformat(),
                    next_spike=deadline - timedelta(days=20),
                    has_real_time=self.rng.random() < 0.1,
                    consented_at=window.opens_at + timedelta(minutes=i),
                )
            )
        self.bulk(IntakeApplication, rows)
        return len(rows)
