"""Demo history for `load_demo`: three more partner teams whose jobs went through several
revisions (vague first, then clarified) and ran on the simulated network with real gaps, and
whose findings staff triaged. With the two demo teams that makes five, so the insights page
has something to say and the public problem pages pass the three-team threshold."""

import copy
from contextlib import suppress
from datetime import timedelta

from django.utils import timezone

from jobs import jobformat
from jobs import services as job_services
from jobs.jobformat.units import format_when
from jobs.models import JobDescription
from jobs.runs import simulator
from portal.errors import DomainError
from portal.models import Membership, Role, Team, User

from .. import services
from ..models import FindingKind, FindingStatus, Impact, UnsolvedProblem
from . import services as insight_services

TEAMS = [
    ("tidewater-genomics", "Tidewater Genomics", "Tidewater Bio", "lee@tidewater.example"),
    ("kestrel-audio", "Kestrel Audio", "Kestrel Labs", "max@kestrel.example"),
    ("orbital-mapping", "Orbital Mapping", "Orbital Survey", "noor@orbital.example"),
]


def _data(name, kind, *, first, deadline_in, **request):
    """A description that starts vague (`first` replaces fields with what a partner first
    wrote) and is exact once those are put back."""
    data = copy.deepcopy(jobformat.example_data())
    data["name"] = name
    data["work"]["kind"] = kind
    now = timezone.now().replace(second=0, microsecond=0)
    data["request"]["earliest_start"] = format_when(now - timedelta(days=12))
    data["request"]["deadline"] = format_when(now + deadline_in)
    data["request"].update(request)
    vague = copy.deepcopy(data)
    for path, value in first.items():
        node = vague
        *parents, last = path.split(".")
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[last] = value
    return vague, data


# name, kind, vague first values, deadline from now, request changes, fields staff ask about
JOBS = [
    ("genome-align-q1", "data_processing", {"data.inputs.0.size": "about 40 TB",
     "request.estimate": "roughly 30h"}, timedelta(days=2), {"less_compute": "fewer_nodes"},
     [["request.estimate"], ["data.inputs.0.size"]]),
    ("variant-call-sweep", "simulation_sweep", {"request.estimate": "a few days"},
     -timedelta(hours=5), {"estimate": "20h", "expected_accelerator_hours": 700},
     [["request.less_compute"]]),
    ("speech-finetune-v3", "training", {"data.inputs.0.size": "~800 GB",
     "output.artifacts.0.size": "TBD"}, timedelta(days=3), {"less_compute": "run_longer"},
     [["request.estimate", "output.artifacts.0.size"]]),
    ("podcast-transcribe", "batch_inference", {"request.estimate": "12h-ish",
     "realtime.serves_requests": True},
     -timedelta(hours=2), {"estimate": "10h", "preemptible": False},
     [["data.inputs.0.size"], ["request.estimate"]]),
    ("tile-segment-2027", "footage_processing", {"data.inputs.0.size": "lots of tiles, maybe 3 TB"},
     timedelta(days=1), {"less_compute": "fewer_nodes"}, [["data.inputs.0.size"]]),
    ("terrain-retrain", "training", {"request.estimate": "as usual"}, timedelta(days=4), {},
     [["request.less_compute"], ["request.estimate"]]),
]  # fmt: skip


def _member(team, email):
    user = User.objects.filter(email__iexact=email).first()
    if user is None:  # an earlier cohort's member: no password, they only left their history
        user = User.objects.create_user(email, None, full_name=email.split("@")[0].title())
    Membership.objects.get_or_create(team=team, user=user, defaults={"role": Role.ADMIN})
    return user


def _history(job, user, staff, vague, exact, rounds, days_ago):
    """Vague first try (refused), exact revision 1, one or two clarification rounds, accepted."""
    JobDescription.objects.filter(pk=job.pk).update(
        created_at=timezone.now() - timedelta(days=days_ago)
    )
    job.refresh_from_db()
    with suppress(DomainError):  # refused: the vague words are errors
        job_services.submit(job=job, user=user)
    job = job_services.save_draft(
        job=job, user=user, version=job.version,
        parts={p: exact[p] for p in ("data", "request", "output", "realtime")},
    )  # fmt: skip
    revision = job_services.submit(job=job, user=user, acknowledge_warnings=True)
    for fields in rounds:
        job_services.review(
            revision=revision, reviewer=staff, outcome="clarify", fields=fields,
            note="Say exactly what you mean here: the network plans from it.",
        )  # fmt: skip
        job.refresh_from_db()
        revision = job_services.submit(job=job, user=user, acknowledge_warnings=True)
    job_services.review(revision=revision, reviewer=staff, outcome="accepted")
    job.refresh_from_db()
    simulator.play_now(job.run)
    return job


def load_program_history(*, teams, users):
    """The history once, then the figures from it, so `make run` shows them at once."""
    if not Team.objects.filter(slug=TEAMS[0][0]).exists():
        _load_history(teams=teams, users=users)
    insight_services.recompute()


def _load_history(*, teams, users):
    staff = users["staff@e31.example"]
    problems = {p.slug: p for p in UnsolvedProblem.objects.all()}
    # Helio Sims tried to submit its forecast API: the real-time screen refused it.
    api = JobDescription.objects.filter(team=teams["helio-sims"], name="forecast-api").first()
    if api is not None:
        with suppress(DomainError):
            job_services.submit(job=api, user=users["cy@heliosims.example"])
    members = []
    for slug, name, organisation, email in TEAMS:
        team = Team.objects.create(slug=slug, name=name, organisation=organisation)
        members.append((team, _member(team, email)))
    for i, (name, kind, first, deadline_in, request, rounds) in enumerate(JOBS):
        team, user = members[i % len(members)]
        vague, exact = _data(name, kind, first=first, deadline_in=deadline_in, **request)
        job = job_services.create_draft(team=team, user=user, data=vague)
        job = _history(job, user, staff, vague, exact, rounds, days_ago=6 + 3 * i)
        # Each team reports what its run showed, and staff triage it against the problems;
        # each problem hears from two of these teams (and one demo team).
        kind_, problem, title = [
            (FindingKind.STAGING_SLOWER, "getting-data-to-compute", "Staging held the nodes"),
            (FindingKind.AMBIGUOUS_DESCRIPTION, "knowing-what-a-job-must-declare",
             "The estimate meant something else to the network"),
            (FindingKind.SCHEDULING, "scheduling-mixed-sizes", "Granted fewer nodes than asked"),
        ][(i + i // 3) % 3]  # fmt: skip
        finding = services.file_finding(
            team=team, user=user, kind=kind_, title=title, impact=Impact.COSTS_TIME,
            summary="What our run showed, next to what we declared.",
            details=_details(kind_, job), job=job,
            revision=job.revisions.order_by("-number").first(),
        )  # fmt: skip
        finding.__class__.objects.filter(pk=finding.pk).update(
            created_at=timezone.now() - timedelta(hours=30 + 11 * i)
        )
        finding.refresh_from_db()
        linked = [problems[problem]] if problem in problems else []
        services.change_status(
            finding=finding, actor=staff, to_status=FindingStatus.TRIAGED, problems=linked
        )
        if i % 2 == 0:
            services.change_status(finding=finding, actor=staff, to_status=FindingStatus.ACCEPTED)
            services.change_status(
                finding=finding, actor=staff, to_status=FindingStatus.ADDRESSED,
                note="Changed in the format's help and the scheduler's plan.",
            )  # fmt: skip


def _details(kind, job):
    if kind == FindingKind.STAGING_SLOWER:
        return {
            "data_size": "40 TB", "data_size_bytes": 40 * 10**12, "source": "s3 in another region",
            "staging_time": "11h", "staging_seconds": 39600, "run_time": "30h", "run_seconds": 108000,
        }  # fmt: skip
    if kind == FindingKind.AMBIGUOUS_DESCRIPTION:
        return {
            "revision": 1, "field": "request.estimate",
            "read_as": "Wall-clock time including staging.",
            "turned_out": "Time on the nodes only, after staging.",
        }  # fmt: skip
    return {
        "what_happened": "The job got half of its nodes and ran twice as long.",
        "what_expected": "To wait for all nodes, or to be told before it started.",
    }
