"""What the program has learned, across every team: staff's insights.

Every number is an aggregate computed by the database (GROUP BY, conditional counts, medians);
Python only shapes the few grouped rows that come back (one per field, work kind or problem),
so the page costs the same fixed number of queries whatever the amount of data. No team is
named anywhere here: the figures leave staff pages as CSV and JSON."""

from django.db.models import (
    Avg,
    Case,
    Count,
    DurationField,
    Exists,
    ExpressionWrapper,
    F,
    Max,
    OuterRef,
    Q,
    Sum,
    When,
)
from django.db.models.functions import TruncMonth
from django.utils import timezone

from jobs.field_signals import SCREEN_CODES
from jobs.jobformat.model import WorkKind
from jobs.models import FieldSignal, JobStatus, JobStatusChange, Revision
from jobs.runs.models import Event, EventStatus, Hold, RunOutcome
from jobs.steps import field_label
from portal.aggregates import Median, MedianSeconds

from ..models import Finding, FindingKind, FindingStatus, StatusChange, UnsolvedProblem

# Observed ÷ declared, in bands: "about right" is within 10 %.
BANDS = [
    ("under_half", "under 0.5×", None, 0.5),
    ("short", "0.5–0.9×", 0.5, 0.9),
    ("right", "0.9–1.1×", 0.9, 1.1),
    ("over", "1.1–1.5×", 1.1, 1.5),
    ("far_over", "1.5–2×", 1.5, 2.0),
    ("double", "2× and more", 2.0, None),
]
METRICS = [
    ("duration_ratio", "Running time", "observed ÷ estimated"),
    ("data_ratio", "Data size", "bytes staged ÷ declared"),
    ("staging_ratio", "Staging time", "observed ÷ implied by the declared size"),
    ("hours_ratio", "Accelerator-hours", "held ÷ expected"),
    # What the cluster saw (runs on a real cluster: Slurm's MaxRSS, TotalCPU, Elapsed).
    ("memory_ratio", "Peak memory per node", "peak ÷ declared"),
    ("cpu_efficiency", "CPU efficiency", "CPU time ÷ (CPUs held × elapsed)"),
    ("time_limit_ratio", "Time limit", "elapsed ÷ time limit"),
]
KIND_LABELS = {k.value: k.value.replace("_", " ") for k in WorkKind}
# On a cluster without accounting (no slurmdbd) the agent reads elapsed time from the
# controller's start and end, and marks it estimated: those runs are counted apart, never
# mixed into a distribution of Slurm's own Elapsed against the time limit.
MEASURED_ONLY = {"time_limit_ratio"}


def _band(metric, low, high):
    q = Q(**{f"{metric}__isnull": False})
    if low is not None:
        q &= Q(**{f"{metric}__gte": low})
    if high is not None:
        q &= Q(**{f"{metric}__lt": high})
    return q


def _seconds_between(end, start):
    return ExpressionWrapper(F(end) - F(start), output_field=DurationField())


def _share(part, whole):
    return round(part / whole, 3) if whole else None


# --- Which fields are hard to declare -------------------------------------------------------


def submitted_jobs():
    """Job descriptions whose team tried to submit them at least once: those with a first
    revision, and those whose every try was refused (they left first-submission signals)."""
    submitted = Revision.objects.filter(number=1).count()
    refused_only = (
        FieldSignal.objects.filter(at_first_submission=True)
        .exclude(job__revisions__number=1)
        .values("job")
        .distinct()
        .count()
    )
    return submitted + refused_only


def fields():
    """Per field: how often it was flagged at first submission, revisions until exact, staff
    requests to clarify, and time from first draft to acceptance. One query."""
    submitted = submitted_jobs()
    rows = (
        FieldSignal.objects.values("field")
        .annotate(
            jobs=Count("job", distinct=True),
            teams=Count("team", distinct=True),
            first_flagged=Count("pk", filter=Q(at_first_submission=True) & ~Q(first_level="")),
            first_errors=Count("pk", filter=Q(at_first_submission=True, first_level="error")),
            clarified=Count("pk", filter=Q(clarify_requests__gt=0)),
            clarify_requests=Sum("clarify_requests"),
            revisions=Avg(
                F("exact_revision") - F("first_revision"), filter=Q(exact_revision__isnull=False)
            ),
            still_open=Count("pk", filter=Q(exact_revision__isnull=True)),
            accept_seconds=Median("draft_to_accept_seconds"),
        )
        .order_by("-first_flagged", "-clarify_requests", "field")
    )
    out = []
    for row in rows:
        out.append(
            {
                **row,
                "label": field_label(row["field"]),
                "first_flagged_share": _share(row["first_flagged"], submitted),
                "first_error_share": _share(row["first_errors"], submitted),
                "revisions": None if row["revisions"] is None else round(row["revisions"], 2),
                "accept_days": None
                if row["accept_seconds"] is None
                else round(row["accept_seconds"] / 86400, 1),
            }
        )
    return {"submitted_jobs": submitted, "rows": out}


def vague_words(limit=12):
    """The vague words partners wrote where an exact value was needed, most used first."""
    rows = (
        FieldSignal.objects.exclude(vague_word="")
        .values("vague_word")
        .annotate(uses=Count("pk"), jobs=Count("job", distinct=True))
        .order_by("-uses", "vague_word")[:limit]
    )
    return [dict(r) for r in rows]


def acceptance():
    """Median time from a job's first draft to its acceptance, over every accepted job."""
    row = JobStatusChange.objects.filter(to_status=JobStatus.ACCEPTED).aggregate(
        jobs=Count("job", distinct=True),
        median_seconds=MedianSeconds(_seconds_between("created_at", "job__created_at")),
    )
    seconds = row["median_seconds"]
    return {**row, "median_days": None if seconds is None else round(seconds / 86400, 1)}


# --- How wrong declarations turn out -------------------------------------------------------


def _estimated():
    """The outcome's run has figures its cluster's agent marked estimated."""
    marked = {"run": OuterRef("run_id"), "observed__estimated": True}
    return Q(Exists(Event.objects.filter(status=EventStatus.APPLIED, **marked))) | Q(
        Exists(Hold.objects.filter(**marked))
    )


def _outcome_annotations():
    estimated = _estimated()
    # Aliases start with n_: an aggregate may not take the name of a field.
    annotations = {
        "n_runs": Count("pk"),
        "n_teams": Count("team", distinct=True),
        "n_deadline_declared": Count("pk", filter=Q(deadline_met__isnull=False)),
        "n_deadline_met": Count("pk", filter=Q(deadline_met=True)),
        "n_fewer_nodes": Count("pk", filter=Q(nodes_granted__lt=F("nodes_asked"))),
        "n_simulated": Count("pk", filter=Q(simulated=True)),
    }
    for metric, _, _ in METRICS:
        counted, value = Q(), F(metric)
        if metric in MEASURED_ONLY:
            counted = ~estimated
            value = Case(When(counted, then=F(metric)))  # NULL for an estimated run
            annotations[f"{metric}__estimated"] = Count(
                "pk", filter=estimated & Q(**{f"{metric}__isnull": False})
            )
        annotations[f"{metric}__median"] = Median(value)
        annotations[f"{metric}__n"] = Count(value)
        for key, _, low, high in BANDS:
            annotations[f"{metric}__{key}"] = Count("pk", filter=_band(metric, low, high) & counted)
    return annotations


def _shape_outcomes(row):
    metrics = []
    for metric, label, meaning in METRICS:
        median = row[f"{metric}__median"]
        metrics.append(
            {
                "metric": metric,
                "label": label,
                "meaning": meaning,
                "n": row[f"{metric}__n"],
                "estimated_apart": row.get(f"{metric}__estimated", 0),
                "median": None if median is None else round(median, 2),
                "bands": [
                    {"key": key, "label": band, "runs": row[f"{metric}__{key}"]}
                    for key, band, _, _ in BANDS
                ],
            }
        )
    return {
        "runs": row["n_runs"],
        "teams": row["n_teams"],
        "simulated": row["n_simulated"],
        "deadline_declared": row["n_deadline_declared"],
        "deadline_met": row["n_deadline_met"],
        "deadline_share": _share(row["n_deadline_met"], row["n_deadline_declared"]),
        "fewer_nodes": row["n_fewer_nodes"],
        "metrics": metrics,
    }


def outcomes():
    """Observed ÷ declared for every ended run: in all, and per work kind. Two queries."""
    overall = RunOutcome.objects.aggregate(**_outcome_annotations())
    per_kind = (
        RunOutcome.objects.values("work_kind")
        .annotate(**_outcome_annotations())
        .order_by("-n_runs", "work_kind")
    )
    return {
        "all": _shape_outcomes(overall),
        "kinds": [
            {
                "kind": row["work_kind"],
                "label": KIND_LABELS.get(row["work_kind"], "not declared"),
                **_shape_outcomes(row),
            }
            for row in per_kind
        ],
    }


# --- What the findings say -----------------------------------------------------------------


def problems():
    """Per published problem: findings by kind and status, distinct teams, and the median time
    to triage and to address. Three queries (counts, months, medians)."""
    counts = {
        # One join (problem → finding): a finding counts once per problem without DISTINCT.
        "finding_total": Count("findings"),
        "teams": Count("findings__team", distinct=True),
    }
    for kind in FindingKind:
        counts[f"kind__{kind.value}"] = Count("findings", filter=Q(findings__kind=kind))
    for status in FindingStatus:
        counts[f"status__{status.value}"] = Count("findings", filter=Q(findings__status=status))
    rows = list(
        UnsolvedProblem.objects.filter(published=True)
        .annotate(**counts)
        .order_by("order", "title")
        .values("pk", "title", "slug", *counts)
    )
    months = (
        Finding.objects.filter(problems__published=True)
        .annotate(month=TruncMonth("created_at"))
        .values("problems", "month")
        .annotate(n=Count("pk", distinct=True))
        .order_by("problems", "month")
    )
    by_month = {}
    for m in months:
        by_month.setdefault(m["problems"], []).append({"month": m["month"], "findings": m["n"]})
    since = _seconds_between("created_at", "finding__created_at")
    medians = {
        m["finding__problems"]: m
        for m in StatusChange.objects.filter(
            finding__problems__published=True,
            to_status__in=[FindingStatus.TRIAGED, FindingStatus.ADDRESSED],
        )
        .values("finding__problems")
        .annotate(
            triage=MedianSeconds(
                Case(
                    When(
                        to_status=FindingStatus.TRIAGED, from_status=FindingStatus.NEW, then=since
                    ),
                    output_field=DurationField(),
                )
            ),
            address=MedianSeconds(
                Case(
                    When(to_status=FindingStatus.ADDRESSED, then=since),
                    output_field=DurationField(),
                )
            ),
        )
        .order_by()
    }
    out = []
    for row in rows:
        median = medians.get(row["pk"], {})
        out.append(
            {
                "pk": row["pk"],
                "title": row["title"],
                "slug": row["slug"],
                "findings": row["finding_total"],
                "teams": row["teams"],
                "kinds": [
                    {"key": k.value, "label": k.label, "findings": row[f"kind__{k.value}"]}
                    for k in FindingKind
                ],
                "statuses": [
                    {"key": s.value, "label": s.label, "findings": row[f"status__{s.value}"]}
                    for s in FindingStatus
                ],
                "months": by_month.get(row["pk"], []),
                "triage_hours": _hours(median.get("triage")),
                "address_hours": _hours(median.get("address")),
            }
        )
    return out


def _hours(seconds):
    return None if seconds is None else round(seconds / 3600, 1)


# --- Real-time screen ----------------------------------------------------------------------


def screen():
    """Descriptions the real-time screen flagged or staff declined as not a network job, and
    how many of those came back rerouted (the real-time part taken out)."""
    flagged = FieldSignal.objects.filter(first_code__in=SCREEN_CODES).aggregate(
        jobs=Count("job", distinct=True),
        rerouted=Count("job", distinct=True, filter=Q(exact_revision__isnull=False)),
    )
    declined = JobStatusChange.objects.aggregate(
        jobs=Count("job", distinct=True, filter=Q(to_status=JobStatus.DECLINED)),
        revised=Count("job", distinct=True, filter=Q(from_status=JobStatus.DECLINED)),
    )
    return {
        "screened": flagged["jobs"],
        "screened_rerouted": flagged["rerouted"],
        "declined": declined["jobs"],
        "declined_revised": declined["revised"],
    }


def latest_data():
    """When the newest figure's data was recorded (the date of the figures)."""
    dates = [
        FieldSignal.objects.aggregate(at=Max("updated_at"))["at"],
        RunOutcome.objects.aggregate(at=Max("recorded_at"))["at"],
        Finding.objects.aggregate(at=Max("updated_at"))["at"],
    ]
    dates = [d for d in dates if d]
    return max(dates) if dates else None


def program():
    """Everything on the staff insights page, from every row, in a fixed number of queries."""
    return {
        "fields": fields(),
        "vague_words": vague_words(),
        "acceptance": acceptance(),
        "outcomes": outcomes(),
        "problems": problems(),
        "screen": screen(),
        "as_of": latest_data(),
        "computed_at": timezone.now(),
    }
