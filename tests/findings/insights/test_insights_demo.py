"""The demo data says something: runs with real gaps, several revisions per job, and public
figures past the three-team threshold on every published problem."""

import pytest
from django.db.models import Count, F, Q

from findings.demo import load_findings
from findings.insights import figures, public
from findings.insights.demo import load_program_history
from findings.models import ProgramFigures, UnsolvedProblem
from jobs.demo import load_jobs
from jobs.models import JobDescription
from jobs.runs.models import RunOutcome
from portal.management.commands.load_demo import Command


@pytest.mark.django_db
def test_demo_history_gives_non_trivial_insights():
    teams, users = Command().load_accounts()
    for load in (load_jobs, load_findings, load_program_history, load_program_history):
        load(teams=teams, users=users)  # the last one twice: loading again adds nothing

    gaps = RunOutcome.objects.filter(
        Q(duration_ratio__gt=1.5) | Q(duration_ratio__lt=1 / 1.5) | Q(staging_ratio__gt=1.5)
        | Q(nodes_granted__lt=F("nodes_asked"))
    )  # fmt: skip
    assert RunOutcome.objects.count() >= 7 and gaps.count() >= 3
    assert RunOutcome.objects.filter(deadline_met=False).exists()
    revised = JobDescription.objects.annotate(n=Count("revisions")).filter(n__gte=2)
    assert revised.count() >= 6

    data = figures.program()
    assert {r["field"] for r in data["fields"]["rows"]} >= {
        "request.estimate",
        "data.inputs.N.size",
    }
    assert any(r["revisions"] and r["revisions"] >= 1 for r in data["fields"]["rows"])
    assert len(data["vague_words"]) >= 5
    assert data["screen"]["screened"] >= 1 and data["screen"]["screened_rerouted"] >= 1
    stored = ProgramFigures.objects.get()  # load_demo stored the figures: shown at once
    assert stored.figures["fields"] == data["fields"] and stored.figures["screen"] == data["screen"]
    for problem in UnsolvedProblem.objects.filter(published=True):
        shown, as_of = public.shown(public.problem_figures(problem, stored.public))
        assert len(shown) >= 3 and as_of is not None, problem.slug
