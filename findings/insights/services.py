"""The program-wide figures, computed in one place and stored as one row.

Aggregating every field signal, run and finding takes about half a second at 100× a busy
program, so no page does it: the beat recomputes every five minutes (findings.tasks), staff
may press "Recompute now", load_demo computes them once, and the first staff visit after a
deploy (no row yet) computes them once. Pages read the row: a fixed couple of queries whatever
the data."""

import json
from dataclasses import asdict

from django.core.serializers.json import DjangoJSONEncoder

from ..models import UnsolvedProblem
from . import figures, public
from .models import ProgramFigures


def _plain(value):
    """As the JSON export writes it (dates as ISO text): the row reads back exactly so."""
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def recompute():
    """Compute every program-wide figure and store it as the one current row (idempotent).
    Figures frozen by a team's erasure stay as they are."""
    frozen = ProgramFigures.objects.filter(pk=ProgramFigures.ONE, frozen_at__isnull=False).first()
    if frozen is not None:
        return frozen
    program = figures.program()
    # Every problem, published or not: staff preview an unpublished problem's figures too.
    per_problem = {
        str(problem.pk): [
            {k: v for k, v in asdict(f).items() if k != "hidden"} for f in public.compute(problem)
        ]
        for problem in UnsolvedProblem.objects.all()
    }
    row, _ = ProgramFigures.objects.update_or_create(
        pk=ProgramFigures.ONE,
        defaults={
            "computed_at": program["computed_at"],
            "figures": _plain(program),
            "public": _plain(per_problem),
        },
    )
    return row


def current(*, public_only=False):
    """The stored figures; computed now if none are stored yet (the first staff visit after a
    deploy). public_only: without the staff figures, for a problem's figures page."""
    rows = ProgramFigures.objects.filter(pk=ProgramFigures.ONE)
    if public_only:
        rows = rows.defer("figures")
    return rows.first() or recompute()


def public_figures():
    """Per problem id, the figures its public page may show; none until first computed. An
    anonymous visit never computes them: the beat does within five minutes of a deploy."""
    row = ProgramFigures.objects.filter(pk=ProgramFigures.ONE).only("public").first()
    return row.public if row else {}


def freeze(at):
    """Keep the figures as they are now (computing them first if none are stored yet): a
    team's data is about to be erased, and a recompute after it would drop its share."""
    row = current()
    if row.frozen_at is None:
        ProgramFigures.objects.filter(pk=row.pk).update(frozen_at=at)
