"""What each field teaches the program about declaring it, recorded as the description goes
through submission and review (one FieldSignal row per job and field):

- flagged when the team tried to submit (the precision check's error or warning, its code and
  the vague word it found), and whether that was while preparing the first revision;
- the revision at which it became exact (no issue left and not named by staff);
- how often staff asked to clarify it;
- once accepted, how long the job took from its first draft.

Staff's insights page aggregates these rows in the database (findings/insights/)."""

import re

from django.db.models import F
from django.utils import timezone

from portal.validators import is_number

from .jobformat import Level, Problem
from .jobformat.units import VAGUE
from .models import FieldSignal, ReviewOutcome

INDEX = re.compile(r"\.\d+(?=\.|$)")
SCREEN_CODES = ("not_a_network_job", "looks_like_a_service")


def generic(path):
    """'data.inputs.0.size' -> 'data.inputs.N.size': one row per field, whatever the item."""
    return INDEX.sub(".N", path or "")[:120]


def _value_at(data, path):
    value = data
    for key in (path or "").split("."):
        if isinstance(value, dict):
            value = value.get(key)
        elif isinstance(value, list) and is_number(key) and int(key) < len(value):
            value = value[int(key)]
        else:
            return None
    return value


def vague_word(text):
    """The vague word or phrase a partner wrote, as written (lower case, numbers left out)."""
    if not isinstance(text, str):
        return ""
    for pattern, label in VAGUE:
        match = re.search(pattern, text, flags=re.IGNORECASE)
        if match:
            word = re.sub(r"[\d.,\s-]+$", "", match.group(0)).strip().lower()
            return (word or label)[:60]
    return ""


def _strongest(issues):
    """Per field, the issue that says most: an error before a warning."""
    by_field = {}
    for issue in issues:
        if not issue.field:
            continue
        field = generic(issue.field)
        current = by_field.get(field)
        if current is None or (current.level != Level.ERROR and issue.level == Level.ERROR):
            by_field[field] = issue
    return by_field


def record_attempt(*, job, issues, number):
    """A submission attempt (refused or not) for revision `number`: each field it flags gets
    its signal the first time; a field flagged again after it was exact is open again."""
    flagged = _strongest(issues)
    if not flagged:
        return
    known = set(
        FieldSignal.objects.filter(job=job, field__in=flagged).values_list("field", flat=True)
    )
    now = timezone.now()
    FieldSignal.objects.bulk_create(
        [
            FieldSignal(
                job=job,
                team_id=job.team_id,
                field=field,
                problem=str(issue.problem),
                first_level=str(issue.level),
                first_code=issue.code[:60],
                vague_word=vague_word(_value_at(job.data, issue.field))
                if issue.code.startswith("vague")
                else "",
                at_first_submission=number == 1,
                first_revision=number,
                created_at=now,
                updated_at=now,
            )
            for field, issue in flagged.items()
            if field not in known
        ],
        ignore_conflicts=True,  # two tabs submitting at once: the first row stands
    )
    FieldSignal.objects.filter(job=job, field__in=known, exact_revision__isnull=False).update(
        exact_revision=None, updated_at=now
    )


def after_submit(*, job, revision, issues):
    """Fields flagged only by the precision check are exact once a revision has no issue on
    them; fields staff named wait for the review of the new revision."""
    flagged = set(_strongest(issues))
    FieldSignal.objects.filter(job=job, exact_revision__isnull=True, clarify_requests=0).exclude(
        field__in=flagged
    ).update(exact_revision=revision.number, updated_at=timezone.now())


def _problem_of(field):
    return str(Problem.DATA if field.startswith("data.") else Problem.DECLARE)


def after_review(*, job, revision, outcome, fields):
    """Staff named `fields` to clarify, or accepted, or declined revision `revision`."""
    now = timezone.now()
    named = {generic(f) for f in fields} if outcome == ReviewOutcome.CLARIFY else set()
    if named:
        known = set(
            FieldSignal.objects.filter(job=job, field__in=named).values_list("field", flat=True)
        )
        FieldSignal.objects.bulk_create(
            [
                FieldSignal(
                    job=job,
                    team_id=job.team_id,
                    field=field,
                    problem=_problem_of(field),
                    at_first_submission=revision.number == 1,
                    first_revision=revision.number,
                    created_at=now,
                    updated_at=now,
                )
                for field in sorted(named - known)
            ],
            ignore_conflicts=True,
        )
        FieldSignal.objects.filter(job=job, field__in=named).update(
            clarify_requests=F("clarify_requests") + 1, exact_revision=None, updated_at=now
        )
    # Whatever staff did not name at this review is exact at this revision, unless the team
    # submitted it with a warning still on it (then only acceptance makes it exact enough).
    warned = {generic(w.split(":", 1)[0]) for w in revision.warnings_acknowledged or []}
    open_ = FieldSignal.objects.filter(job=job, exact_revision__isnull=True)
    if outcome == ReviewOutcome.ACCEPTED:
        open_.update(exact_revision=revision.number, updated_at=now)
        FieldSignal.objects.filter(job=job).update(
            draft_to_accept_seconds=(now - job.created_at).total_seconds(), updated_at=now
        )
    else:
        open_.exclude(field__in=named | warned).update(
            exact_revision=revision.number, updated_at=now
        )
