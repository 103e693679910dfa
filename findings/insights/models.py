from django.db import models
from django.db.models import Q


class ProgramFigures(models.Model):
    """The program-wide figures as last computed (findings.insights.services.recompute): one
    row, rewritten in place, so the insights pages and the public problem pages read one row
    instead of aggregating every signal, run and finding on each visit. A model, not the cache:
    nothing evicts it, and the pages never wait on a recompute after the first."""

    ONE = 1

    computed_at = models.DateTimeField()
    # figures.program() as plain JSON (dates as ISO text): what the staff page, its JSON and
    # CSV exports render.
    figures = models.JSONField(default=dict)
    # Per problem id (as text): every figure its public page could show, before staff hide any.
    public = models.JSONField(default=dict)
    # Set by the first erasure of a team's data (findings/team_data.py): a recompute over what
    # is left would drop the erased teams' share, so from then on these figures stay as they
    # were (the periodic recompute and "Recompute now" leave them). Set it back to empty in
    # the database to compute them again from the rows that remain.
    frozen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "program figures"
        constraints = [models.CheckConstraint(condition=Q(pk=1), name="programfigures_one_row")]

    def __str__(self):
        return f"Program figures computed at {self.computed_at:%Y-%m-%d %H:%M} UTC"
