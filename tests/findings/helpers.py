from findings import services
from findings.models import FindingKind, Impact
from jobs import jobformat
from jobs import services as job_services
from jobs.runs import simulator


def accepted_job(team, member, staff, *, play=True):
    job = job_services.create_draft(team=team, user=member, data=jobformat.example_data())
    revision = job_services.submit(job=job, user=member)
    job_services.review(revision=revision, reviewer=staff, outcome="accepted")
    job.refresh_from_db()
    if play:
        simulator.play_now(job.run)
    return job


def file(team, user, *, kind=FindingKind.OTHER, title="Something went wrong", job=None, **kw):
    details = kw.pop("details", {"what_happened": "It broke.", "what_expected": "It works."})
    return services.file_finding(
        team=team,
        user=user,
        kind=kind,
        title=title,
        summary=kw.pop("summary", "The private description of what happened."),
        impact=kw.pop("impact", Impact.COSTS_TIME),
        details=details,
        job=job,
        revision=kw.pop("revision", None),
    )
