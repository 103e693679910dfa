"""Writes on findings and problems: each is one transaction, locks the finding it moves,
records what changed as rows, and notifies the partner after commit."""

from django.db import transaction
from django.utils import timezone

from portal import submissions
from portal.errors import DomainError
from portal.markdown import markdown_as_text
from portal.models import Membership, NoticeTopic, User
from portal.notify import Email, tell
from portal.outbox import absolute_url

from . import evidence, rules
from .counts import problems_of, recount_problems
from .models import (
    EvidenceSnapshot,
    Finding,
    FindingNote,
    FindingStatus,
    NoteVisibility,
    StatusChange,
    Subscription,
    UnsolvedProblem,
)
from .rules import Actor


@transaction.atomic
def file_finding(
    *,
    team,
    user,
    kind,
    title,
    summary,
    impact,
    details,
    job=None,
    revision=None,
    submission_token=None,
) -> Finding:
    """Record a partner's finding, freeze the job's evidence, subscribe the filer. The same
    form sent twice (a double click) files one finding."""
    if job is not None and job.team_id != team.pk:
        # The forms only offer the team's jobs; this keeps any other caller honest.
        raise DomainError("A finding can only name one of your team's own jobs.")
    now = timezone.now()
    finding, created = submissions.create_once(
        Finding.objects.filter(team=team, filed_by=user),
        submission_token,
        lambda: Finding.objects.create(
            team=team,
            filed_by=user,
            kind=kind,
            title=title,
            summary=summary,
            impact=impact,
            details=details,
            job=job,
            revision=revision,
            created_at=now,
            updated_at=now,
            status_changed_at=now,
            submission_token=submission_token,
        ),
    )
    if not created:
        return finding
    if job is not None:
        snapshot = evidence.capture(job)
        if snapshot is not None:
            EvidenceSnapshot.objects.create(finding=finding, captured_at=now, **snapshot)
    Subscription.objects.create(finding=finding, user=user)
    StatusChange.objects.create(
        finding=finding, from_status="", to_status=FindingStatus.NEW, actor=user, note="Filed."
    )
    return finding


def _locked(finding, expected_version=None):
    locked = Finding.objects.select_for_update().get(pk=finding.pk)
    if expected_version is not None and locked.version != expected_version:
        raise DomainError(
            "Someone else changed this finding while you had it open. Nothing was saved: "
            "read their change below and try again."
        )
    return locked


def _touch(finding, *fields):
    finding.version += 1
    finding.updated_at = timezone.now()
    finding.save(update_fields=["version", "updated_at", *fields])


def _subscribers(finding):
    """Who hears about a finding: its subscribers who are still in the team."""
    members = Membership.objects.filter(team_id=finding.team_id).values("user_id")
    return list(
        User.objects.filter(
            finding_subscriptions__finding=finding, pk__in=members, is_active=True
        ).distinct()
    )


def _notify(finding, *, key, message, template, context, exclude=None):
    tell(
        _subscribers(finding),
        key=key,
        notice=message,
        topic=NoticeTopic.FINDING,
        url=finding.get_absolute_url(),
        team=finding.team,
        exclude=exclude,
        email=Email(
            subject=f"[E31 finding #{finding.pk}] {message}",
            template=template,
            context={
                "finding": finding,
                "message": message,
                "url": absolute_url(finding.get_absolute_url()),
                **context,
            },
        ),
    )


def _move(finding, *, to_status, actor, note, actor_role, answer=False):
    """The single place a status changes: check the table, write the row, tell the partner.
    With `answer`, staff's note is their answer to the partner: a response the partner reads
    where responses are (by the staff member's name), not a line of the history."""
    rules.check(finding.status, to_status, actor_role)
    to_status = FindingStatus(to_status)
    needs = (rules.PARTNER_NEEDS_NOTE if actor_role == Actor.PARTNER else rules.NEEDS_NOTE).get(
        to_status
    )
    if needs and not note.strip():
        raise DomainError(needs)
    response = None
    if answer and note.strip():
        _not_too_long(note.strip(), NOTE_MAX, "An answer")
        response = FindingNote.objects.create(
            finding=finding, visibility=NoteVisibility.RESPONSE, author=actor, body=note.strip()
        )
    change = StatusChange.objects.create(
        finding=finding,
        from_status=finding.status,
        to_status=to_status,
        actor=actor,
        note=note.strip(),
        response=response,
    )
    counted_changes = (finding.status in rules.COUNTED) != (to_status in rules.COUNTED)
    finding.status = to_status
    finding.status_changed_at = change.created_at
    if to_status == FindingStatus.DECLINED:
        finding.decline_reason = note.strip()
    _touch(finding, "status", "status_changed_at", "decline_reason", "duplicate_of")
    if counted_changes:
        recount_problems(problems_of(finding))
    _notify(
        finding,
        key=f"finding-change:{change.pk}",
        message=f"“{finding.title}” is now {to_status.label.lower()}",
        template="emails/finding_status.txt",
        # The answer as the partner reads it on the page, in the words of a plain-text e-mail.
        context={
            "change": change,
            "answer": response,
            "answer_text": markdown_as_text(response.body) if response else "",
        },
        exclude=actor,
    )
    return change


@transaction.atomic
def change_status(
    *, finding, actor, to_status, note="", problems=None, proposed_problem="", expected_version=None
) -> Finding:
    """A staff move. Triage needs at least one problem, or a new problem proposed."""
    finding = _locked(finding, expected_version)
    rules.check(finding.status, to_status, Actor.STAFF)  # before touching its problems
    if to_status == FindingStatus.TRIAGED:
        _set_problems(finding, problems, proposed_problem)
    _move(finding, to_status=to_status, actor=actor, note=note, actor_role=Actor.STAFF, answer=True)
    return finding


def _set_problems(finding, problems, proposed_problem):
    problems = list(problems or [])
    proposed_problem = (proposed_problem or "").strip()
    if problems:
        finding.problems.add(*problems)
    if proposed_problem:
        finding.proposed_problem = proposed_problem[:200]
        finding.save(update_fields=["proposed_problem"])
    if not finding.problems.exists() and not finding.proposed_problem:
        raise DomainError(
            "Triage links a finding to at least one unsolved problem, or proposes a new one."
        )


@transaction.atomic(durable=True)
def partner_verify(*, finding, user) -> Finding:
    finding = _locked(finding)
    _move(finding, to_status=FindingStatus.VERIFIED, actor=user, note="", actor_role=Actor.PARTNER)
    return finding


# The longest text a note or a reopening note holds. Longer is refused with a message and
# kept in the form, never cut: the partner would not know their last paragraphs were lost.
NOTE_MAX = 10_000
REOPEN_NOTE_MAX = 2_000


def _not_too_long(text, limit, what):
    if len(text) > limit:
        raise DomainError(
            f"{what} can be at most {limit:,} characters; this one has {len(text):,}. "
            "Shorten it, or add the rest as information afterwards."
        )


@transaction.atomic(durable=True)
def partner_reopen(*, finding, user, note) -> Finding:
    _not_too_long(note.strip(), REOPEN_NOTE_MAX, "The note")
    finding = _locked(finding)
    _move(
        finding, to_status=FindingStatus.REOPENED, actor=user, note=note, actor_role=Actor.PARTNER
    )
    return finding


@transaction.atomic
def add_note(
    *, finding, author, visibility, body, expected_version=None, submission_token=None
) -> FindingNote:
    """An internal note, a response the partner reads, or information from the partner.
    The same form sent twice is one note (looked up before the version check: the first
    note bumped the version, and a double click is not someone else's change)."""
    notes = FindingNote.objects.filter(finding=finding, author=author)
    repeat = submissions.earlier(notes, submission_token)
    if repeat is not None:
        return repeat
    body = (body or "").strip()
    if not body:
        raise DomainError("Write something first.")
    _not_too_long(body, NOTE_MAX, "A note")
    finding = _locked(finding, expected_version)
    note, created = submissions.create_once(
        notes,
        submission_token,
        lambda: FindingNote.objects.create(
            finding=finding,
            visibility=visibility,
            author=author,
            body=body,
            submission_token=submission_token,
        ),
    )
    if not created:
        return note
    _touch(finding)
    if visibility == NoteVisibility.RESPONSE:
        _notify(
            finding,
            key=f"finding-response:{note.pk}",
            message=f"{author} answered on “{finding.title}”",
            template="emails/finding_response.txt",
            context={"note": note, "note_text": markdown_as_text(note.body)},
        )
    return note


@transaction.atomic
def assign(*, findings, assignee, actor) -> int:
    """Assign (or, with None, unassign) findings; each change leaves an internal note."""
    if assignee is not None and not assignee.is_staff:
        raise DomainError("Findings are assigned to staff members only.")
    changed = 0
    for finding in Finding.objects.select_for_update().filter(pk__in=[f.pk for f in findings]):
        if finding.assignee_id == (assignee.pk if assignee else None):
            continue
        finding.assignee = assignee
        _touch(finding, "assignee")
        FindingNote.objects.create(
            finding=finding,
            visibility=NoteVisibility.INTERNAL,
            author=actor,
            body=f"Assigned to {assignee}." if assignee else "Unassigned.",
        )
        changed += 1
    return changed


@transaction.atomic(durable=True)
def link_problems(*, findings, problems, actor) -> int:
    problems = list(problems)
    if not problems:
        raise DomainError("Choose a problem to link.")
    for finding in Finding.objects.select_for_update().filter(pk__in=[f.pk for f in findings]):
        finding.problems.add(*problems)
        _touch(finding)
    recount_problems(p.pk for p in problems)
    return len(findings)


@transaction.atomic(durable=True)
def unlink_problem(*, finding, problem, actor, expected_version=None) -> Finding:
    finding = _locked(finding, expected_version)
    finding.problems.remove(problem)
    _touch(finding)
    recount_problems([problem.pk])
    return finding


def bulk_status(*, findings, actor, to_status, note="", problems=None):
    """Each finding moves in its own transaction: the legal ones move, the others are
    reported with the reason, so one refused row does not undo the rest."""
    moved, refused = [], []
    for finding in findings:
        try:
            change_status(
                finding=finding, actor=actor, to_status=to_status, note=note, problems=problems
            )
        except DomainError as error:
            refused.append((finding, str(error)))
        else:
            moved.append(finding)
    return moved, refused


@transaction.atomic(durable=True)
def merge(*, source, target, actor, note="", expected_version=None) -> Finding:
    """Mark `source` a duplicate of `target`; copy its evidence and subscribers over."""
    if source.pk == target.pk:
        raise DomainError("A finding cannot be a duplicate of itself.")
    # Merging copies evidence (job, ledger, timeline) onto the target, which its team reads:
    # across teams that would show one team's job to another, so it is refused.
    if source.team_id != target.team_id:
        raise DomainError(
            f"Finding #{target.pk} belongs to another team: only findings of the same team can be "
            "merged. Link both to the same problem instead."
        )
    # Lock both in id order so two staff merging the pair opposite ways cannot deadlock.
    locked = {
        f.pk: f
        for f in Finding.objects.select_for_update()
        .filter(pk__in=[source.pk, target.pk])
        .order_by("pk")
    }
    source, target = locked[source.pk], locked[target.pk]
    if expected_version is not None and source.version != expected_version:
        raise DomainError(
            "Someone else changed this finding while you had it open. Nothing was saved."
        )
    if target.status == FindingStatus.DUPLICATE:
        raise DomainError(
            f"Finding #{target.pk} is itself a duplicate: merge into #{target.duplicate_of_id}."
        )
    rules.check(source.status, FindingStatus.DUPLICATE, Actor.MERGE)
    for snapshot in source.evidence.all():
        EvidenceSnapshot.objects.create(
            finding=target,
            job=snapshot.job,
            job_name=snapshot.job_name,
            revision_number=snapshot.revision_number,
            run_state=snapshot.run_state,
            ledger=snapshot.ledger,
            timeline=snapshot.timeline,
            captured_at=snapshot.captured_at,
            carried_from=source,
        )
    already = set(target.subscriptions.values_list("user_id", flat=True))
    Subscription.objects.bulk_create(
        [
            Subscription(finding=target, user_id=s.user_id, carried_from=source)
            for s in source.subscriptions.all()
            if s.user_id not in already
        ]
    )
    target.problems.add(*source.problems.all())
    _touch(target)
    recount_problems(problems_of(source))
    source.duplicate_of = target
    # A note typed by staff is their answer; without one the history says what happened.
    _move(
        source,
        to_status=FindingStatus.DUPLICATE,
        actor=actor,
        note=note or f"Merged into #{target.pk}.",
        actor_role=Actor.MERGE,
        answer=bool(note.strip()),
    )
    return source


@transaction.atomic(durable=True)
def unmerge(*, source, actor, note="") -> Finding:
    """Undo a merge: take back what was carried over, restore the status before it."""
    source = _locked(source)
    if source.status != FindingStatus.DUPLICATE:
        raise DomainError("This finding is not a duplicate.")
    target = Finding.objects.select_for_update().get(pk=source.duplicate_of_id)
    EvidenceSnapshot.objects.filter(finding=target, carried_from=source).delete()
    Subscription.objects.filter(finding=target, carried_from=source).delete()
    _touch(target)
    before = (
        source.changes.filter(to_status=FindingStatus.DUPLICATE)
        .order_by("-created_at", "-pk")
        .values_list("from_status", flat=True)
        .first()
    ) or FindingStatus.NEW
    change = StatusChange.objects.create(
        finding=source,
        from_status=FindingStatus.DUPLICATE,
        to_status=before,
        actor=actor,
        note=note or f"Unmerged from #{target.pk}.",
    )
    source.status, source.duplicate_of = before, None
    source.status_changed_at = change.created_at
    _touch(source, "status", "duplicate_of", "status_changed_at")
    if before in rules.COUNTED:
        recount_problems(problems_of(source))
    _notify(
        source,
        key=f"finding-change:{change.pk}",
        message=f"“{source.title}” is no longer a duplicate",
        template="emails/finding_status.txt",
        context={"change": change},
        exclude=actor,
    )
    return source


@transaction.atomic(durable=True)
def subscribe(*, finding, user, on=True):
    if on:
        Subscription.objects.get_or_create(finding=finding, user=user)
    else:
        Subscription.objects.filter(finding=finding, user=user).delete()


@transaction.atomic(durable=True)
def save_problem(*, problem, actor) -> UnsolvedProblem:
    problem.updated_at = timezone.now()
    problem.full_clean()
    problem.save()
    return problem
