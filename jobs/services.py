"""Writes on job descriptions: drafts, submissions, reviews and the discussion."""

from datetime import timedelta

from django.db import transaction
from django.db.models import F, Max
from django.urls import reverse
from django.utils import timezone

from portal import badges, submissions
from portal.errors import DomainError
from portal.notify import Email, staff_people, team_people, tell
from portal.outbox import absolute_url

from . import awaiting, counts, field_signals, jobformat
from .models import (
    Comment,
    JobDescription,
    JobStatus,
    JobStatusChange,
    ReadMark,
    Review,
    ReviewOutcome,
    Revision,
)
from .rules import MOVES, Actor
from .runs.services import start_run
from .selectors import READ_UP_TO_DATE


class DraftConflict(DomainError):
    """The draft changed since the form was loaded (another tab or a teammate)."""

    def __init__(self, job):
        super().__init__("This draft was changed elsewhere since you opened it.")
        self.job = job


def _move(job, to_status, *, actor, user, via, refusal, note=""):
    """Move the status through the one table, leaving a history row; the team's status
    counts and the review queue's flag follow."""

    def record(source, target):
        JobStatusChange.objects.create(
            job=job, from_status=source, to_status=target, actor=user, note=note
        )
        counts.changed([(job.team_id, source)], [(job.team_id, target)])

    MOVES.apply(job, to_status, actor=actor, record=record, via=via, refusal=refusal)
    awaiting.follow(job)


def _touch(job, user, fields):
    now = timezone.now()
    job.updated_at = now
    job.last_activity_at = now
    job.updated_by = user
    job.save(update_fields=[*fields, "updated_at", "last_activity_at", "updated_by"])


@transaction.atomic
def create_draft(*, team, user, data=None, submission_token=None) -> JobDescription:
    """A new draft; the same "New job" form sent twice gives the draft of the first."""
    data = data or {}
    job, created = submissions.create_once(
        JobDescription.objects.filter(team=team, created_by=user),
        submission_token,
        lambda: JobDescription.objects.create(
            team=team,
            number=next_number_in_team(team),
            name=" ".join(str(data.get("name") or "").split())[:300],
            data=data,
            created_by=user,
            updated_by=user,
            submission_token=submission_token,
        ),
    )
    if created:
        counts.changed(after=[(team.pk, job.status)])
    return job


def next_number_in_team(team):
    """The next job's number in its team. Two drafts created at the same instant may share
    one: it only tells untitled drafts apart for people, nothing relies on it."""
    top = JobDescription.objects.filter(team=team).aggregate(top=Max("number"))["top"]
    return (top or 0) + 1


RECENT_SAVES = 50


def _saved_since_by_others(job, version, editor):
    """True unless every save after `version` is known and came from this same tab."""
    since = {v: e for v, e in job.recent_saves if v > version}
    if set(range(version + 1, job.version + 1)) - set(since):
        return True  # too old to know who saved in between
    return not editor or any(e != editor for e in since.values())


@transaction.atomic
def save_draft(
    *, job, user, parts: dict, version: int, name=None, force=False, editor=""
) -> JobDescription:
    """Replace the given parts of the working copy. A stale version is refused, not merged,
    unless the saves since came from the same tab (`editor`: a token per page load): a
    "Save and continue" pressed while that tab's autosave was in flight is not a conflict."""
    job = JobDescription.objects.select_for_update().get(pk=job.pk)
    if not job.editable:
        raise DomainError(
            f"This job is {job.get_status_display().lower()}: it cannot be edited now."
        )
    data = dict(job.data)
    for part, value in parts.items():
        if value:
            data[part] = value
        else:
            data.pop(part, None)
    if name is not None:
        name = " ".join(name.split())[:300]  # one line: it ends up in headers and file names
        if name:
            data["name"] = name
        else:
            data.pop("name", None)
    if data == job.data:
        return job  # nothing changes, so nothing can be overwritten (e.g. a late autosave)
    stale = version != job.version and not force
    if stale and (version > job.version or _saved_since_by_others(job, version, editor)):
        raise DraftConflict(job)
    if name is not None:
        job.name = name
    job.data = data
    job.version += 1
    job.recent_saves = [*job.recent_saves, [job.version, editor[:64]]][-RECENT_SAVES:]
    _touch(job, user, ["data", "name", "version", "recent_saves"])
    return job


@transaction.atomic
def import_draft(
    *, team, user, text, filename=None, source_format="auto", submission_token=None
) -> tuple:
    """A new draft from a SkyPilot task, an sbatch script or a description (first stage only)."""
    results = jobformat.import_text(text, source_format, filename=filename)
    result = results[0]
    data = result.description.to_data()
    job = create_draft(team=team, user=user, data=data, submission_token=submission_token)
    return job, result, len(results)


@transaction.atomic(durable=True)
def delete_draft(*, job) -> None:
    job = JobDescription.objects.select_for_update().get(pk=job.pk)
    if job.status != JobStatus.DRAFT or job.revisions.exists():
        raise DomainError("Only a draft that was never submitted can be deleted.")
    counts.changed(before=[(job.team_id, job.status)])
    job.delete()


@transaction.atomic(durable=True)
def withdraw(*, job, user) -> JobDescription:
    """Take a submitted revision back before staff decide, to revise it (it stays on record)."""
    job = JobDescription.objects.select_for_update().get(pk=job.pk)
    _move(
        job,
        JobStatus.DRAFT,
        actor=Actor.TEAM,
        user=user,
        via="withdraw",
        refusal="Only a description in review can be withdrawn.",
        note="Withdrawn from review to revise it.",
    )
    _touch(job, user, ["status"])
    return job


def submit(*, job, user, acknowledge_warnings=False) -> Revision:
    """Freeze the working copy as revision N+1 and send it to staff for review.

    What the precision check flags is recorded first, in its own transaction, so it stays
    even when the submission is refused: what was still vague when the team thought it was
    done is what the program learns from (jobs/field_signals.py)."""
    _record_attempt(job)
    return _submit(job=job, user=user, acknowledge_warnings=acknowledge_warnings)


def _next_number(job):
    return (job.revisions.order_by("-number").values_list("number", flat=True).first() or 0) + 1


@transaction.atomic
def _record_attempt(job):
    job = JobDescription.objects.select_for_update().get(pk=job.pk)
    if not job.editable:
        return  # refused for its status: nothing was attempted
    _, issues = jobformat.lint(job.data)
    field_signals.record_attempt(job=job, issues=issues, number=_next_number(job))


@transaction.atomic
def _submit(*, job, user, acknowledge_warnings):
    job = JobDescription.objects.select_for_update().get(pk=job.pk)
    refusal = f"This job is {job.get_status_display().lower()}: it cannot be submitted."
    MOVES.check(job.status, JobStatus.IN_REVIEW, Actor.TEAM, via="submit", refusal=refusal)
    description, issues = jobformat.lint(job.data)
    errors = [i for i in issues if i.level == jobformat.Level.ERROR]
    if errors:
        raise DomainError(f"Fix the {len(errors)} errors first: the review step lists them.")
    warnings = [i for i in issues if i.level == jobformat.Level.WARNING]
    if warnings and not acknowledge_warnings:
        raise DomainError("Confirm that you have read the warnings, or fix them, then submit.")
    number = _next_number(job)
    revision = Revision.objects.create(
        job=job,
        number=number,
        data=description.to_data(),
        warnings_acknowledged=[f"{w.field}:{w.code}" for w in warnings],
        submitted_by=user,
    )
    field_signals.after_submit(job=job, revision=revision, issues=issues)
    _move(
        job,
        JobStatus.IN_REVIEW,
        actor=Actor.TEAM,
        user=user,
        via="submit",
        refusal=refusal,
        note=f"Revision {number} submitted.",
    )
    job.clarify_fields = []
    _touch(job, user, ["status", "clarify_fields"])
    url = absolute_url(reverse("job_detail", args=[job.pk]))
    tell(
        staff_people(),
        key=f"submitted:{revision.pk}",
        email=Email(
            subject=f"{job.team.name} submitted {job} (revision {number}) for review",
            template="emails/job_submitted.txt",
            context={"job": job, "revision": revision, "url": url, "warnings": warnings},
        ),
    )
    return revision


@transaction.atomic
def review(*, revision, reviewer, outcome, note="", fields=()) -> Review:
    """Staff decide on the latest submitted revision; the team is told by e-mail."""
    job = JobDescription.objects.select_for_update().get(pk=revision.job_id)
    latest = job.revisions.order_by("-number").first()
    if job.status != JobStatus.IN_REVIEW or latest is None or latest.pk != revision.pk:
        raise DomainError("Only the latest revision of a job in review can be reviewed.")
    outcome = ReviewOutcome(outcome)
    fields = [f for f in fields if f]
    if outcome == ReviewOutcome.CLARIFY and not fields:
        raise DomainError("Name at least one field that needs clarifying.")
    if outcome != ReviewOutcome.ACCEPTED and not note.strip():
        raise DomainError("Write a note: the team needs to know why.")
    result = Review.objects.create(
        revision=revision, outcome=outcome, note=note.strip(), fields=fields, reviewer=reviewer
    )
    field_signals.after_review(job=job, revision=revision, outcome=outcome, fields=fields)
    target = {
        ReviewOutcome.ACCEPTED: JobStatus.ACCEPTED,
        ReviewOutcome.CLARIFY: JobStatus.NEEDS_CLARIFICATION,
        ReviewOutcome.DECLINED: JobStatus.DECLINED,
    }[outcome]
    _move(
        job,
        target,
        actor=Actor.STAFF,
        user=reviewer,
        via="review",
        refusal="Only the latest revision of a job in review can be reviewed.",
        note=result.note,
    )
    job.clarify_fields = fields if outcome == ReviewOutcome.CLARIFY else []
    _touch(job, reviewer, ["status", "clarify_fields"])
    if outcome == ReviewOutcome.ACCEPTED:
        start_run(job=job, revision=revision)
    url = absolute_url(reverse("job_detail", args=[job.pk]))
    tell(
        team_people(job.team),
        key=f"review:{result.pk}",
        email=Email(
            subject=f"{job}: {result.get_outcome_display().lower()}",
            template="emails/job_reviewed.txt",
            context={"job": job, "review": result, "revision": revision, "url": url},
        ),
    )
    return result


@transaction.atomic
def add_comment(*, job, author, body, anchor="", parent=None, submission_token=None) -> Comment:
    """A comment, and the other side told. The same form sent twice (a double click) is one
    comment: the second answer is the first one's."""
    repeat = submissions.earlier(Comment.objects.filter(job=job, author=author), submission_token)
    if repeat is not None:
        return repeat
    body = (body or "").strip()
    if not body:
        raise DomainError("Write something first.")
    if len(body) > 10_000:
        raise DomainError("A comment is at most 10,000 characters.")
    if parent is not None and parent.job_id != job.pk:
        raise DomainError("You can only reply to a comment on the same job.")
    if parent is not None and parent.parent_id:
        parent = parent.parent  # one level of threading keeps discussions readable
    comment, created = submissions.create_once(
        Comment.objects.filter(job=job, author=author),
        submission_token,
        lambda: Comment.objects.create(
            job=job,
            parent=parent,
            anchor=anchor[:120],
            body=body,
            author=author,
            by_staff=author.is_staff,
            submission_token=submission_token,
        ),
    )
    if not created:
        return comment  # the same form won a race with itself: its e-mails are sent
    JobDescription.objects.filter(pk=job.pk).update(last_activity_at=comment.created_at)
    mark_read(job=job, user=author)
    _count_unread(job, exclude=author)
    # The other side hears of it: staff of a partner's comment, the team of staff's.
    recipients = team_people(job.team) if author.is_staff else staff_people()
    url = absolute_url(reverse("job_detail", args=[job.pk])) + f"#comment-{comment.pk}"
    tell(
        recipients,
        key=f"comment:{comment.pk}",
        exclude=author,
        email=Email(
            subject=f"New comment on {job} from {author}",
            template="emails/job_comment.txt",
            context={"job": job, "comment": comment, "url": url},
        ),
    )
    return comment


def _count_unread(job, *, exclude):
    """A new comment is unread for everyone else who can see the job: the team's members
    and staff. Their read marks and badges count it now, so no page has to."""
    readers = [
        person
        for person in {p.pk: p for p in team_people(job.team) + staff_people()}.values()
        if person.pk != exclude.pk
    ]
    if not readers:
        return
    ids = [p.pk for p in readers]
    marked = set(
        ReadMark.objects.filter(job=job, user_id__in=ids).values_list("user_id", flat=True)
    )
    if marked:
        ReadMark.objects.filter(job=job, user_id__in=marked).update(unread=F("unread") + 1)
    ReadMark.objects.bulk_create(
        [ReadMark(job=job, user_id=pk, read_at=None, unread=1) for pk in ids if pk not in marked],
        ignore_conflicts=True,
    )
    badges.comments_arrived(readers, team_id=job.team_id)


def mark_read(*, job, user, up_to_date=None) -> None:
    # Most visits find nothing new: one indexed read then, no lock and no write. (The mark's
    # time stays that of the last read that had something new: nothing arrived since.)
    # `up_to_date`: that read, made by the caller with the job's row (selectors.get_job_for_page).
    if up_to_date is None:
        up_to_date = ReadMark.objects.filter(job=job, user=user, **READ_UP_TO_DATE).exists()
    if up_to_date:
        return
    _mark_read(job=job, user=user)


@transaction.atomic
def _mark_read(*, job, user) -> None:
    mark, created = ReadMark.objects.select_for_update().get_or_create(
        job=job, user=user, defaults={"read_at": timezone.now()}
    )
    if created:
        return
    unread = mark.unread
    ReadMark.objects.filter(pk=mark.pk).update(read_at=timezone.now(), unread=0)
    if unread:
        badges.comments_read(user, team_id=job.team_id, count=unread)


def after_admin_save(*, job, previous, user) -> None:
    """What the services do on a move, for a job saved in the admin (which may set any
    status or team, outside the table of moves): the history row, the teams' status
    counts and the review queue's flag. `previous`: the job's (team id, status) before the
    edit; None for a job the admin created."""
    if previous is not None and previous[1] != job.status:
        JobStatusChange.objects.create(
            job=job,
            from_status=previous[1],
            to_status=job.status,
            actor=user,
            note="Set in the admin.",
        )
    counts.changed([previous] if previous else [], [(job.team_id, job.status)])
    awaiting.follow(job)


def before_admin_delete(jobs) -> None:
    """The teams' status counts without `jobs` (a queryset the admin is about to delete)."""
    counts.changed(before=list(jobs.values_list("team_id", "status")))


REMIND_AFTER = timedelta(days=3)


def remind_clarifications(*, now=None) -> int:
    """E-mail the team of each job that has waited on its clarification for REMIND_AFTER.
    One reminder per job and day (the e-mail key names the day), so re-runs send nothing twice."""
    now = now or timezone.now()
    waiting = JobDescription.objects.filter(
        status=JobStatus.NEEDS_CLARIFICATION, last_activity_at__lt=now - REMIND_AFTER
    ).select_related("team")
    count = 0
    for job in waiting:
        url = absolute_url(reverse("job_step", args=[job.pk, "review"]))
        days = (now - job.last_activity_at).days
        tell(
            team_people(job.team),
            key=f"clarify-reminder:{job.pk}:{now:%Y-%m-%d}",
            email=Email(
                subject=f"{job} has waited {days} days for your clarification",
                template="emails/job_clarify_reminder.txt",
                context={"job": job, "days": days, "url": url},
            ),
        )
        count += 1
    return count
