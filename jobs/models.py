from django.db import models
from django.utils import timezone

from portal.models import Team, User

from . import spec


class JobDescription(models.Model):
    """A team's job, described in the format (stored as its plain data)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="job_descriptions")
    name = models.CharField(max_length=300, blank=True)
    data = models.JSONField(default=dict)
    created_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-updated_at"]
        indexes = [models.Index(fields=["team", "-updated_at"], name="jobdesc_team_updated_idx")]

    def __str__(self):
        return self.name or f"Job {self.pk}"

    def as_description(self):
        description, _ = spec.load(self.data)
        return description
