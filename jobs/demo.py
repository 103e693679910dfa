"""Demo job descriptions for `load_demo`."""

from . import spec
from .models import JobDescription


def load_jobs(*, teams, users):
    team = teams["northwind-vision"]
    if not JobDescription.objects.filter(team=team).exists():
        data = spec.example_data()
        JobDescription.objects.create(
            team=team, name=data["name"], data=data, created_by=users["ada@northwind.example"]
        )
