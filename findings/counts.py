"""How many findings and distinct teams back each unsolved problem, kept on the problem
when a finding's status or links change (every change goes through findings.services or
the admin's hooks), so the public list reads two numbers instead of counting findings."""

from django.db.models import Count, F, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce

from . import rules
from .models import Finding, UnsolvedProblem


def _count(expression):
    sub = (
        Finding.objects.filter(problems=OuterRef("pk"), status__in=rules.COUNTED)
        .order_by()
        .values("problems")
        .annotate(n=expression)
        .values("n")[:1]
    )
    return Coalesce(Subquery(sub, output_field=IntegerField()), 0)


def recount_problems(problem_ids=None):
    """Recount the given problems (all when None): one UPDATE, whatever their number."""
    problems = UnsolvedProblem.objects.all()
    if problem_ids is not None:
        problem_ids = list(problem_ids)
        if not problem_ids:
            return
        problems = problems.filter(pk__in=problem_ids)
    # An erased team's findings are gone but still count (findings/team_data.py).
    problems.update(
        finding_count=_count(Count("pk", distinct=True)) + F("erased_finding_count"),
        team_count=_count(Count("team", distinct=True)) + F("erased_team_count"),
    )


def problems_of(*findings):
    return set(
        Finding.problems.through.objects.filter(
            finding_id__in=[f.pk for f in findings]
        ).values_list("unsolvedproblem_id", flat=True)
    )
