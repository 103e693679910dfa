"""Recount every read mark and badge from the comments and notices themselves.

The counts are kept on write (jobs.services.add_comment / mark_read, portal.notify.tell,
portal.services.mark_notices_read); this puts them right after writes that bypass the
services (load_scale's bulk inserts) or after an operator edits memberships by hand."""

from collections import Counter, defaultdict

from django.db import transaction
from django.db.models import Count, IntegerField, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce

from portal.badges import BADGE_TOPIC
from portal.models import Membership, Notice, User

from .models import Comment, ReadMark

_MISSING = object()


def _scalar(queryset, aggregate):
    """A correlated aggregate as a subquery, 0 when there are no rows."""
    sub = queryset.order_by().values("user").annotate(n=aggregate).values("n")[:1]
    return Coalesce(Subquery(sub, output_field=IntegerField()), 0)


@transaction.atomic
def recount_unread(*, batch_size=5000):
    staff = set(User.objects.filter(is_staff=True, is_active=True).values_list("pk", flat=True))
    readers = defaultdict(set)
    for team_id, user_id in Membership.objects.filter(user__is_active=True).values_list(
        "team_id", "user_id"
    ):
        readers[team_id].add(user_id)
    marks = {
        (job_id, user_id): read_at
        for job_id, user_id, read_at in ReadMark.objects.values_list("job_id", "user_id", "read_at")
    }
    unread = Counter()
    comments = Comment.objects.values_list("job_id", "job__team_id", "author_id", "created_at")
    for job_id, team_id, author_id, created_at in comments.iterator(chunk_size=batch_size):
        for reader in readers[team_id] | staff:
            if reader == author_id:
                continue
            read_at = marks.get((job_id, reader), _MISSING)
            if read_at is _MISSING or read_at is None or created_at > read_at:
                unread[(job_id, reader)] += 1
    ReadMark.objects.exclude(unread=0).update(unread=0)
    ReadMark.objects.bulk_create(
        [
            ReadMark(job_id=job_id, user_id=user_id, unread=n, read_at=marks.get((job_id, user_id)))
            for (job_id, user_id), n in unread.items()
        ],
        update_conflicts=True,
        unique_fields=["job", "user"],
        update_fields=["unread"],
        batch_size=batch_size,
    )
    job_notices = Notice.objects.filter(topic=BADGE_TOPIC, read_at__isnull=True)
    Membership.objects.update(
        unread_comments=_scalar(
            ReadMark.objects.filter(user=OuterRef("user"), job__team=OuterRef("team")),
            Sum("unread"),
        ),
        unread_notices=_scalar(
            job_notices.filter(user=OuterRef("user"), team=OuterRef("team")), Count("pk")
        ),
    )
    User.objects.filter(is_staff=True).update(
        unread_comments=_scalar(ReadMark.objects.filter(user=OuterRef("pk")), Sum("unread")),
        unread_notices=_scalar(job_notices.filter(user=OuterRef("pk")), Count("pk")),
    )
    User.objects.filter(is_staff=False).update(
        unread_comments=0,
        unread_notices=_scalar(
            job_notices.filter(Q(team__isnull=True), user=OuterRef("pk")), Count("pk")
        ),
    )
