"""Shape job data for the templates: step pages, grouped issues and diffs."""

import re
import uuid

from django.contrib.messages import get_messages
from django.urls import reverse

from jobs.runs.models import Run
from portal.validators import is_number

from . import jobformat
from .forms import CommentForm
from .models import JobDescription, JobStatus
from .review.presenters import review_groups
from .runs.ledger import for_description
from .runs.presenters import (
    RUN_MESSAGES,
    SIMULATE_MESSAGES,
    page_clock,
    run_context,
    staff_moves,
)
from .selectors import comments_by_anchor, discussion, revisions_with_reviews, status_history
from .steps import (
    PART_SPECS,
    PART_TITLES,
    STEP_NAMES,
    STEP_PARTS,
    STEPS,
    anchor_id,
    display_value,
    field_label,
    readable_value,
    step_of_field,
)


def generic_path(path):
    """'data.inputs.0.size' -> 'data.inputs.N.size', as comments on any item are anchored."""
    return re.sub(r"\.\d+\.", ".N.", path)


def is_missing(issue):
    return issue.code.startswith("missing")


class Seen:
    """Where the person has been on a draft: fields they left, steps they moved on from.
    A field is judged (its "missing" issues shown as errors) once it has a value, the
    person has been there, or they asked for the review; before that it is on the
    checklist of what is left, not an error."""

    def __init__(self, fields=(), steps=(), everything=False):
        self.fields = set(fields)
        self.steps = set(steps)
        self.everything = everything

    def judges(self, path, has_value=False):
        if self.everything or has_value or path in self.fields:
            return True
        return step_of_field(path) in self.steps

    @classmethod
    def all(cls):
        return cls(everything=True)


class FieldView:
    def __init__(self, spec_, path, value, issues, clarify, comments, seen=None):
        self.spec = spec_
        self.path = path
        self.id = anchor_id(path)
        self.value = display_value(value, spec_)
        self.issues = issues.get(path, [])
        has_value = value not in (None, "", [], {})
        self.has_value = has_value  # a field of another shape stays shown while it has one
        if seen is not None and not seen.judges(path, has_value):
            self.issues = [i for i in self.issues if not is_missing(i)]
        self.errors = [i for i in self.issues if i.level == jobformat.Level.ERROR]
        self.clarify = path in clarify
        self.comments = comments.get(path, []) + comments.get(generic_path(path), [])
        self.items = []

    @property
    def described_by(self):
        ids = [f"{self.id}-help", f"{self.id}-issues"]
        return " ".join(ids)


def _fields(specs, prefix, data, issues, clarify, comments, seen=None):
    views = []
    data = data if isinstance(data, dict) else {}
    for s in specs:
        path = s.path(prefix)
        view = FieldView(s, path, data.get(s.name), issues, clarify, comments, seen)
        if s.kind == "group":
            items = data.get(s.name) if isinstance(data.get(s.name), list) else []
            view.items = [
                (
                    i,
                    f"{path}.{i}",
                    _fields(s.children, f"{path}.{i}", item, issues, clarify, comments, seen),
                )
                for i, item in enumerate(items)
            ]
            view.value = ""
        views.append(view)
    return views


def issues_by_field(issues):
    by_field = {}
    for issue in issues:
        # A group-level issue ("data.inputs") shows on the group; others on their field.
        by_field.setdefault(issue.field, []).append(issue)
    return by_field


def grouped_issues(issues, job):
    """Issues grouped by part, each with a link to the field on its step."""
    groups = {}
    for issue in issues:
        part = issue.part or "work"
        step = step_of_field(issue.field) if issue.field else "work"
        link = (
            reverse("job_step", args=[job.pk, step]) + "#" + anchor_id(issue.field)
            if issue.field
            else ""
        )
        groups.setdefault(part, []).append((issue, link))
    order = ["realtime", "work", "data", "request", "output"]
    return [(PART_TITLES.get(p, p.title()), groups[p]) for p in order if p in groups] + [
        (p, groups[p]) for p in groups if p not in order
    ]


def _value_at(data, path):
    node = data
    for bit in path.split("."):
        if isinstance(node, dict):
            node = node.get(bit)
        elif isinstance(node, list) and is_number(bit) and int(bit) < len(node):
            node = node[int(bit)]
        else:
            return None
    return node


class StepPage:
    def __init__(self, job, step, user, seen=None):
        self.job = job
        self.step = step
        self.user = user
        self.seen = seen or Seen.all()

    def _judged(self, issue):
        if not is_missing(issue) or not issue.field:
            return True
        return self.seen.judges(issue.field, _value_at(self.job.data, issue.field) is not None)

    def context(self):
        job, step = self.job, self.step
        description, all_issues = job.lint()
        # What is still to fill in, and not yet judged, is a checklist, not a list of errors.
        left = [i for i in all_issues if not self._judged(i)]
        issues = [i for i in all_issues if self._judged(i)]
        by_field = issues_by_field(issues)
        _, comments = discussion(job)
        anchored = comments_by_anchor(comments)
        clarify = set(job.clarify_fields or [])
        parts = []
        for part in STEP_PARTS.get(step, []):
            fields = _fields(
                PART_SPECS[part], part, job.data.get(part), by_field, clarify, anchored, self.seen
            )
            part_issues = list(by_field.get(part, []))
            parts.append(
                {"name": part, "title": PART_TITLES[part], "fields": fields, "issues": part_issues}
            )
        index = STEP_NAMES.index(step)
        errors = [i for i in issues if i.level == jobformat.Level.ERROR]
        warnings = [i for i in issues if i.level == jobformat.Level.WARNING]
        review = step == "review"
        # What only the review step shows (each issue with its link, the hours requested).
        requested = for_description(description) if review else None  # accelerator-hours
        return {
            "job": job,
            "editor_token": uuid.uuid4().hex,
            "step": step,
            "steps": [
                {
                    "name": n,
                    "title": t,
                    "intro": intro,
                    "number": i + 1,
                    "current": n == step,
                    "count": sum(
                        1
                        for x in issues
                        if x.level == jobformat.Level.ERROR and step_of_field(x.field) == n
                    ),
                    "left": sum(1 for x in left if step_of_field(x.field) == n),
                }
                for i, (n, t, intro) in enumerate(STEPS)
            ],  # fmt: skip
            "step_title": STEPS[index][1],
            "step_intro": STEPS[index][2],
            "step_number": index + 1,
            "step_count": len(STEPS),
            "previous_step": STEP_NAMES[index - 1] if index else None,
            "next_step": STEP_NAMES[index + 1] if index + 1 < len(STEPS) else None,
            "parts": parts,
            "left": [
                (i, reverse("job_step", args=[job.pk, step]) + "#" + anchor_id(i.field))
                for i in left
                if step_of_field(i.field) == step
            ],
            "issues": issues,
            "errors": errors,
            "warnings": warnings,
            "groups": grouped_issues(issues, job) if review else [],
            "not_a_network_job": next((i for i in issues if i.code == "not_a_network_job"), None),
            "requested_hours": requested.requested if review else None,
            "requested_unit": requested.unit if review else "",
            "name_anchor": anchor_id("name"),
            "clarify": sorted(clarify),
            "anchored": anchored,
        }


def _flatten(data, prefix=""):
    flat = {}
    if isinstance(data, dict):
        for key, value in data.items():
            flat.update(_flatten(value, f"{prefix}{key}."))
    elif isinstance(data, list):
        if all(not isinstance(v, dict | list) for v in data):
            flat[prefix[:-1]] = list(data)
        else:
            for i, value in enumerate(data):
                flat.update(_flatten(value, f"{prefix}{i}."))
    else:
        flat[prefix[:-1]] = data
    return flat


def diff_rows(before, after, parts=None):
    """Side-by-side rows for the fields that differ: the person's label and values as they
    read them (Yes/No, a choice's label), with the dotted path kept for links."""
    before = {k: v for k, v in (before or {}).items() if k != "source"}
    after = {k: v for k, v in (after or {}).items() if k != "source"}
    if parts is not None:
        before = {k: v for k, v in before.items() if k in parts}
        after = {k: v for k, v in after.items() if k in parts}
    old, new = _flatten(before), _flatten(after)
    rows = []
    for key in sorted(set(old) | set(new), key=_order):
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        change = "added" if a is None else "removed" if b is None else "changed"
        rows.append(
            {
                "field": key,
                "label": field_label(key),
                "before": readable_value(key, a),
                "after": readable_value(key, b),
                "change": change,
            }
        )
    return rows


def _order(key):
    part = key.split(".", 1)[0]
    order = ["name", "work", "realtime", "data", "request", "output", "version"]
    return (order.index(part) if part in order else 99, key)


def placed_messages(request, *, simulate_form):
    """The request's messages by where the job page shows them: about the run in its section,
    the simulator's beside its form while it is shown, the rest at the top (the tags and why:
    jobs/runs/presenters.py)."""
    placed = {"top_messages": [], "run_messages": [], "simulate_messages": []}
    for message in get_messages(request):
        if message.extra_tags == RUN_MESSAGES:
            placed["run_messages"].append(message)
        elif message.extra_tags == SIMULATE_MESSAGES and simulate_form:
            placed["simulate_messages"].append(message)
        else:
            placed["top_messages"].append(message)
    return placed


def detail_context(request, job, review_values=None):
    run = _run_of(job)
    threads, _ = discussion(job)
    context = {
        "job": job,
        "threads": threads,
        "comment_form": CommentForm(job=job),
        "statuses": JobStatus,
        "review_values": review_values or {},
        **_record_context(request, job),
    }
    revisions = context["revisions"]
    context["latest_number"] = revisions[0]["number"] if revisions else None
    if run is not None:
        staff = request.user.is_staff
        context.update(run_context(run, page_clock(), staff=staff))
        if staff and not run.is_final:  # the box below an active run (jobs/_run.html)
            has_events = bool(context["events"])
            context.update(staff_moves(run, context["dispatch"], has_events=has_events))
        context.update(placed_messages(request, simulate_form=staff and not run.is_final))
    return context


def _run_of(job):
    """The job's run: loaded with the job when the caller asked (selectors.get_job_for_page)."""
    relation = JobDescription._meta.get_field("run")
    if relation.is_cached(job):
        return relation.get_cached_value(job)
    return Run.objects.filter(job=job).select_related("revision", "dispatch__cluster").first()


def _record_context(request, job):
    """The revisions with their reviews and the status history, as the page shows them."""
    revisions = revisions_with_reviews(job)
    reviewing = request.user.is_staff and job.status == JobStatus.IN_REVIEW and revisions
    return {
        "revisions": revisions,
        "changes": status_history(job),
        # A review's note is shown with the review above; the history only names the move.
        "review_outcomes": [JobStatus.ACCEPTED, JobStatus.NEEDS_CLARIFICATION, JobStatus.DECLINED],
        # The fields staff may name come from the description under review.
        "review_groups": review_groups(job.revisions.first()) if reviewing else [],
    }


def description_sections(data, previous=None):
    """A description as people read it, part by part: each field with its label and the
    value as typed (Yes/No, a choice's label); what was not said in one line; repeated
    parts per item. With the previous revision's data, each changed field is marked in
    place with what it was, and changes to fields no longer present are listed apart."""
    data = data if isinstance(data, dict) else {}
    changes = {r["field"]: r for r in diff_rows(previous, data)} if previous is not None else {}
    shown = set()

    def row(path, label, value):
        shown.add(path)
        change = changes.get(path)
        return {
            "label": label,
            "value": readable_value(path, value),
            "changed": change is not None,
            "was": change["before"] if change else "",
        }

    sections = []
    for part in ["work", "realtime", "data", "request", "output"]:
        values = data.get(part) if isinstance(data.get(part), dict) else {}
        rows, groups = [], []
        for s in PART_SPECS[part]:
            path = f"{part}.{s.name}"
            if s.kind == "group":
                items = values.get(s.name) if isinstance(values.get(s.name), list) else []
                groups.append(
                    {
                        "label": s.label,
                        "item_label": s.item_label,
                        "items": [
                            [
                                row(f"{path}.{i}.{c.name}", c.label, item.get(c.name))
                                for c in s.children
                            ]
                            for i, item in enumerate(items)
                            if isinstance(item, dict)
                        ],
                    }
                )
            else:
                rows.append(row(path, s.label, values.get(s.name)))
        sections.append(
            {
                "part": part,
                "title": PART_TITLES[part],
                "rows": [r for r in rows if r["value"] or r["changed"]],
                # What the team did not say, in one line: the page stays one page.
                "unsaid": [r["label"] for r in rows if not r["value"] and not r["changed"]],
                "groups": groups,
            }
        )
    elsewhere = [c for path, c in changes.items() if path not in shown]
    return sections, list(changes.values()), elsewhere
