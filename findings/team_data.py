"""The findings app's part of a team's data (portal/team_archive.py): its findings with
their evidence, history and the notes the partner sees (staff-internal notes stay out).

At erasure the public figures stay as they were: each problem keeps the erased findings in
its counts (UnsolvedProblem.erased_*, added back by every recount), and the program's
figures are frozen before the rows they were computed from go."""

from django.db.models import Count, F
from django.utils import timezone

from portal.team_archive import CHUNK, person

from . import rules
from .counts import recount_problems
from .insights import services as insights
from .models import (
    EvidenceSnapshot,
    Finding,
    FindingNote,
    NoteVisibility,
    StatusChange,
    Subscription,
    UnsolvedProblem,
)

FILES = [
    (
        "findings.json",
        "Each finding the team filed: kind, status, impact, title, summary, the kind's details, "
        "the job it is about, the published problems it was linked to, who follows it.",
    ),
    (
        "finding_evidence.json",
        "The evidence frozen with each finding: the job's ledger figures and timeline then.",
    ),
    ("finding_history.json", "Each move of a finding's status: from, to, who, when, the note."),
    (
        "finding_notes.json",
        "Staff's answers to the team and the information the team added (staff-internal notes "
        "are not part of the team's data).",
    ),
]


def export(team, archive):
    findings = (
        Finding.objects.filter(team=team)
        .select_related("filed_by")
        .prefetch_related("problems", "subscriptions__user")
        .order_by("pk")
    )
    archive.records(
        "findings.json",
        (
            {
                "id": f.pk,
                "kind": f.kind,
                "status": f.status,
                "impact": f.impact,
                "title": f.title,
                "summary": f.summary,
                "details": f.details,
                "job_id": f.job_id,
                "revision_id": f.revision_id,
                "duplicate_of": f.duplicate_of_id,
                "decline_reason": f.decline_reason,
                "problems": [
                    {"title": p.title, "slug": p.slug} for p in f.problems.all() if p.published
                ],
                "followers": [person(s.user) for s in f.subscriptions.all()],
                "filed_by": person(f.filed_by),
                "created_at": f.created_at,
                "updated_at": f.updated_at,
                "status_changed_at": f.status_changed_at,
            }
            for f in findings.iterator(chunk_size=CHUNK)
        ),
    )
    evidence = EvidenceSnapshot.objects.filter(finding__team=team).order_by("finding", "pk")
    archive.records(
        "finding_evidence.json",
        (
            {
                "id": e.pk,
                "finding_id": e.finding_id,
                "job_id": e.job_id,
                "job_name": e.job_name,
                "revision_number": e.revision_number,
                "run_state": e.run_state,
                "ledger": e.ledger,
                "timeline": e.timeline,
                "captured_at": e.captured_at,
            }
            for e in evidence.iterator(chunk_size=CHUNK)
        ),
    )
    changes = StatusChange.objects.filter(finding__team=team).select_related("actor")
    archive.records(
        "finding_history.json",
        (
            {
                "id": c.pk,
                "finding_id": c.finding_id,
                "from_status": c.from_status,
                "to_status": c.to_status,
                "by": person(c.actor),
                "note": c.note,
                "at": c.created_at,
            }
            for c in changes.order_by("pk").iterator(chunk_size=CHUNK)
        ),
    )
    # Filtered in the query, as the partner's finding page does (findings.selectors).
    notes = (
        FindingNote.objects.filter(finding__team=team)
        .exclude(visibility=NoteVisibility.INTERNAL)
        .select_related("author")
        .order_by("pk")
    )
    archive.records(
        "finding_notes.json",
        (
            {
                "id": n.pk,
                "finding_id": n.finding_id,
                "kind": n.visibility,
                "author": person(n.author),
                "body": n.body,
                "created_at": n.created_at,
            }
            for n in notes.iterator(chunk_size=CHUNK)
        ),
    )


def count(team):
    return {
        "findings": Finding.objects.filter(team=team).count(),
        "evidence snapshots": EvidenceSnapshot.objects.filter(finding__team=team).count(),
        "finding notes": FindingNote.objects.filter(finding__team=team).count(),
        "finding status changes": StatusChange.objects.filter(finding__team=team).count(),
        "finding followers": Subscription.objects.filter(finding__team=team).count(),
    }


def erase(team):
    findings = Finding.objects.filter(team=team)
    counts = count(team)
    insights.freeze(timezone.now())
    # What each published count holds of this team, kept after its findings go.
    counted = (
        Finding.problems.through.objects.filter(
            finding__team=team, finding__status__in=rules.COUNTED
        )
        .values("unsolvedproblem_id")
        .annotate(n=Count("finding_id", distinct=True))
        .order_by()
    )
    for row in counted:
        UnsolvedProblem.objects.filter(pk=row["unsolvedproblem_id"]).update(
            erased_finding_count=F("erased_finding_count") + row["n"],
            erased_team_count=F("erased_team_count") + 1,
        )
    problems = set(
        Finding.problems.through.objects.filter(finding__team=team).values_list(
            "unsolvedproblem_id", flat=True
        )
    )
    # A duplicate holds the finding it was merged into (PROTECT), and merges stay within a
    # team: the duplicates go first.
    findings.filter(duplicate_of__isnull=False).delete()
    findings.delete()
    recount_problems(problems)
    return counts
