""" "What the program has learned so far", on each published problem's public page.

The same kind of aggregates as staff's insights, cut down to counts and ratios. A figure is
shown only when at least MIN_TEAMS distinct teams contributed to it, so no figure can point at
one team, and staff can hide any figure (UnsolvedProblem.hidden_figures). Each figure is one
aggregate query, whatever the amount of data, run by the periodic recompute
(findings.insights.services); the pages read what it stored."""

from dataclasses import dataclass

from django.db.models import Count, F, Max, Q
from django.utils.dateparse import parse_datetime

from jobs.jobformat import Problem
from jobs.models import FieldSignal
from jobs.runs.models import RunOutcome
from jobs.steps import field_label
from portal.aggregates import Median

from .. import rules
from ..models import Finding, FindingKind, FindingStatus
from .figures import submitted_jobs

MIN_TEAMS = 3


@dataclass
class PublicFigure:
    key: str
    label: str
    text: str
    teams: int
    as_of: object = None
    hidden: bool = False

    @property
    def enough_teams(self):
        return self.teams >= MIN_TEAMS

    @property
    def shown(self):
        return self.enough_teams and not self.hidden


def _pct(part, whole):
    return f"{round(100 * part / whole)} %" if whole else "—"


def _findings(problem):
    counted = Q(status__in=rules.COUNTED)
    # Filtered to one problem, the join cannot repeat a finding: no DISTINCT needed.
    kinds = {f"kind__{k.value}": Count("pk", filter=Q(kind=k)) for k in FindingKind}
    row = Finding.objects.filter(counted, problems=problem).aggregate(
        findings=Count("pk"),
        teams=Count("team", distinct=True),
        addressed=Count(
            "pk", filter=Q(status__in=[FindingStatus.ADDRESSED, FindingStatus.VERIFIED])
        ),
        at=Max("updated_at"),
        **kinds,
    )
    figures = []
    if row["findings"]:
        top = max(FindingKind, key=lambda k: (row[f"kind__{k.value}"], -list(FindingKind).index(k)))
        figures.append(
            PublicFigure(
                "findings",
                "Findings from design partners",
                f"{row['findings']} findings from {row['teams']} teams; the most common kind is "
                f"“{top.label.lower()}” ({_pct(row[f'kind__{top.value}'], row['findings'])}).",
                row["teams"],
                row["at"],
            )
        )
        figures.append(
            PublicFigure(
                "addressed",
                "Findings addressed",
                f"{_pct(row['addressed'], row['findings'])} of them have been addressed.",
                row["teams"],
                row["at"],
            )
        )
    return figures


def _fields(problem):
    slug = problem.slug
    submitted = submitted_jobs()
    row = FieldSignal.objects.filter(problem=slug).aggregate(
        jobs=Count("job", distinct=True),
        first=Count("job", distinct=True, filter=Q(at_first_submission=True) & ~Q(first_level="")),
        teams=Count("team", distinct=True),
        at=Max("updated_at"),
    )
    figures = []
    if row["jobs"]:
        figures.append(
            PublicFigure(
                "flagged",
                "Descriptions not exact at first",
                f"{_pct(row['first'], submitted)} of job descriptions had a field about this "
                f"problem flagged when first submitted ({row['first']} of {submitted}).",
                row["teams"],
                row["at"],
            )
        )
    top = (
        FieldSignal.objects.filter(problem=slug)
        .values("field")
        .annotate(jobs=Count("job", distinct=True), teams=Count("team", distinct=True))
        .order_by("-jobs", "field")
        .first()
    )
    if top:
        figures.append(
            PublicFigure(
                "top_field",
                "Hardest field to declare",
                f"“{field_label(top['field'])}” was flagged or questioned in "
                f"{top['jobs']} job descriptions.",
                top["teams"],
                row["at"],
            )
        )
    return figures


# Which run figures speak to which published problem (by the slugs jobs.jobformat uses).
RUN_FIGURES = {
    str(Problem.DATA): ("staging", "data"),
    str(Problem.SCHEDULING): ("nodes", "deadline"),
    str(Problem.DECLARE): ("duration", "hours"),
}


def _runs(problem):
    wanted = RUN_FIGURES.get(problem.slug, ())
    if not wanted:
        return []
    teams = {
        f"teams_{m}": Count("team", distinct=True, filter=Q(**{f"{m}_ratio__isnull": False}))
        for m in ("duration", "data", "staging", "hours")
    }
    row = RunOutcome.objects.aggregate(
        duration=Median("duration_ratio"),
        data=Median("data_ratio"),
        staging=Median("staging_ratio"),
        hours=Median("hours_ratio"),
        within=Count("pk", filter=Q(duration_ratio__gte=1 / 1.5, duration_ratio__lte=1.5)),
        timed=Count("duration_ratio"),
        deadline_declared=Count("pk", filter=Q(deadline_met__isnull=False)),
        met=Count("pk", filter=Q(deadline_met=True)),
        teams_deadline=Count("team", distinct=True, filter=Q(deadline_met__isnull=False)),
        granted=Count("pk", filter=Q(nodes_granted__isnull=False, nodes_asked__isnull=False)),
        fewer=Count("pk", filter=Q(nodes_granted__lt=F("nodes_asked"))),
        teams_nodes=Count("team", distinct=True, filter=Q(nodes_granted__isnull=False)),
        at=Max("recorded_at"),
        **teams,
    )
    at = row["at"]
    figures = {
        "staging": lambda: (
            PublicFigure(
                "staging",
                "Staging time against the declared data size",
                f"Staging took a median {row['staging']:.2f}× the time the declared data size "
                "implies at 10 Gbit/s.",
                row["teams_staging"],
                at,
            )
            if row["staging"] is not None
            else None
        ),
        "data": lambda: (
            PublicFigure(
                "data",
                "Data staged against declared",
                f"Runs staged a median {row['data']:.2f}× the data size their descriptions declared.",
                row["teams_data"],
                at,
            )
            if row["data"] is not None
            else None
        ),
        "duration": lambda: (
            PublicFigure(
                "duration",
                "Running time against the estimate",
                f"Runs took a median {row['duration']:.2f}× their estimate; "
                f"{_pct(row['within'], row['timed'])} were within 1.5× of it.",
                row["teams_duration"],
                at,
            )
            if row["duration"] is not None
            else None
        ),
        "hours": lambda: (
            PublicFigure(
                "hours",
                "Accelerator-hours held against expected",
                f"The network held a median {row['hours']:.2f}× the accelerator-hours teams expected.",
                row["teams_hours"],
                at,
            )
            if row["hours"] is not None
            else None
        ),
        "nodes": lambda: (
            PublicFigure(
                "nodes",
                "Nodes granted",
                f"{_pct(row['fewer'], row['granted'])} of runs were granted fewer nodes than they "
                "asked for.",
                row["teams_nodes"],
                at,
            )
            if row["granted"]
            else None
        ),
        "deadline": lambda: (
            PublicFigure(
                "deadline",
                "Deadlines met",
                f"{_pct(row['met'], row['deadline_declared'])} of runs with a deadline met it.",
                row["teams_deadline"],
                at,
            )
            if row["deadline_declared"]
            else None
        ),
    }
    return [f for f in (figures[key]() for key in wanted) if f is not None]


def compute(problem):
    """Every figure the program could publish for `problem`, from the rows (the periodic
    recompute stores them: findings.insights.services)."""
    return _findings(problem) + _fields(problem) + _runs(problem)


def problem_figures(problem, stored):
    """`problem`'s figures as last computed (`stored`: ProgramFigures.public), each saying
    whether it is shown: staff hide some (UnsolvedProblem.hidden_figures), read here so that
    hiding one shows at once."""
    hidden = set(problem.hidden_figures or [])
    out = []
    for figure in stored.get(str(problem.pk), []):
        as_of = figure["as_of"] and parse_datetime(figure["as_of"])
        out.append(PublicFigure(**{**figure, "as_of": as_of, "hidden": figure["key"] in hidden}))
    return out


def shown(figures):
    """The figures the public sees, and the date of the newest data among them."""
    visible = [f for f in figures if f.shown]
    dates = [f.as_of for f in visible if f.as_of]
    return visible, (max(dates) if dates else None)


FIGURE_KEYS = ("findings", "addressed", "flagged", "top_field", *sorted({
    k for keys in RUN_FIGURES.values() for k in keys
}))  # fmt: skip
