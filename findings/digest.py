"""The daily e-mail to staff: untriaged findings older than a threshold, and findings
waiting on staff (reopened by the partner, or with partner information staff have not
answered). Idempotent per staff member and day through the e-mail's key."""

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from django.urls import reverse
from django.utils import timezone

from portal.notify import Email, staff_people, tell
from portal.outbox import absolute_url

from .models import Finding, FindingNote, FindingStatus, NoteVisibility

# A partner note newer than any response on these means staff owe an answer.
OPEN_AFTER_TRIAGE = (FindingStatus.TRIAGED, FindingStatus.ACCEPTED, FindingStatus.ADDRESSED)


def threshold():
    return timedelta(hours=getattr(settings, "FINDINGS_DIGEST_AFTER_HOURS", 24))


def digest_rows(now=None):
    now = now or timezone.now()
    untriaged = list(
        Finding.objects.filter(status=FindingStatus.NEW, created_at__lte=now - threshold())
        .select_related("team", "assignee")
        .order_by("created_at")
    )
    last_note = (
        FindingNote.objects.filter(finding=OuterRef("pk"))
        .exclude(visibility=NoteVisibility.INTERNAL)
        .order_by("-created_at", "-pk")
    )
    waiting = list(
        Finding.objects.annotate(last_visibility=Subquery(last_note.values("visibility")[:1]))
        .filter(
            Q(status=FindingStatus.REOPENED)
            | Q(status__in=OPEN_AFTER_TRIAGE, last_visibility=NoteVisibility.PARTNER)
        )
        .select_related("team", "assignee")
        .order_by("status_changed_at")
    )
    return untriaged, waiting


@transaction.atomic
def send_staff_digest(*, now=None) -> int:
    now = now or timezone.now()
    untriaged, waiting = digest_rows(now)
    if not untriaged and not waiting:
        return 0
    day = timezone.localdate(now).isoformat()
    told = tell(
        staff_people(),
        key=f"findings-digest:{day}",
        email=Email(
            subject=f"[E31 findings] {len(untriaged)} to triage, {len(waiting)} waiting on staff",
            template="emails/finding_digest.txt",
            context={
                "untriaged": untriaged,
                "waiting": waiting,
                "hours": int(threshold().total_seconds() // 3600),
                "queue_url": absolute_url(reverse("staff_finding_queue")),
            },
        ),
    )
    return len(told)
