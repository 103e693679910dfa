"""What a finding's page shows, for the partner and for staff (who see it with more)."""

from django.template.loader import render_to_string

from jobs.runs.models import Phase
from jobs.steps import field_label
from portal.kept import kept_all
from portal.markdown import render_markdown
from portal.selectors import own_memberships

from . import detail_kept, rules, selectors
from .forms import DETAIL_LABELS
from .models import FindingKind, FindingStatus
from .rules import Actor
from .staff_forms import MergeForm, StatusForm

# get_FOO_display() rebuilds the choices' dict on every call; a list calls it per row.
KIND_LABELS = dict(FindingKind.choices)
STATUS_LABELS = dict(FindingStatus.choices)


def is_member(user, finding):
    """Whether the user is in the finding's team (from the memberships the request has
    already read for the menu: no query)."""
    return any(m.team_id == finding.team_id for m in own_memberships(user))


def _shown(key, value):
    """Stored values as people read them: a phase by its label, a field path by its name."""
    if key == "phase" and value in Phase.values:
        return Phase(value).label
    if key == "field" and isinstance(value, str):
        return field_label(value)
    return value


def partner_rows(findings):
    """The rows of the partner's list (dicts of selectors.partner_list) with their labels,
    for findings/list.html."""
    return [
        {
            **f,
            "kind_label": KIND_LABELS.get(f["kind"], f["kind"]),
            "status_label": STATUS_LABELS.get(f["status"], f["status"]),
        }
        for f in findings
    ]


def triage_rows(findings, problem_rows, ticked=frozenset()):
    """The rows of the triage queue (dicts of selectors.staff_rows) for
    findings/staff_queue.html, each naming its problems in the problems' order
    (`problem_rows`: every problem's (id, title), in order, as the filter lists them).
    `ticked`: the ids whose box is ticked again (a bulk action that changed nothing,
    findings.staff_views)."""
    place = {pk: i for i, (pk, _) in enumerate(problem_rows)}
    titles = dict(problem_rows)
    rows = []
    for f in findings:
        # A problem made since the list was read (a moment ago) waits for the next visit.
        linked = sorted((pk for pk in f["problem_ids"] if pk in place), key=place.__getitem__)
        rows.append(
            {
                **f,
                "ticked": f["pk"] in ticked,
                "kind_label": KIND_LABELS.get(f["kind"], f["kind"]),
                "status_label": STATUS_LABELS.get(f["status"], f["status"]),
                "problems": ", ".join(titles[pk] for pk in linked) or "—",
                # str(User), or a dash for no one.
                "assignee": f["assignee__full_name"] or f["assignee__email"] or "—",
            }
        )
    return rows


def _names(values):
    """The team and the assignee the staff page names (selectors.read_names read them)."""
    finding = values["finding"]
    return {"team": finding.team.name, "assignee": str(finding.assignee or "")}


def _linked(values):
    """The problems the finding is linked to (the staff page lists them to unlink, and ticks
    them in the triage form), as (id, title) rows."""
    return [{"pk": p.pk, "title": p.title} for p in values["problems"]]


def _problem_boxes(values):
    """The triage form's boxes, one a problem, the linked ones ticked, when the staff page
    offers to triage (a form posted back and refused is shown as it was sent instead)."""
    finding = values["finding"]
    if FindingStatus.TRIAGED not in rules.allowed_targets(finding.status, Actor.STAFF):
        return ""
    form = StatusForm(initial={"problems": [p.pk for p in values["problems"]]})
    return render_to_string(PROBLEM_BOXES, {"status_form": form})


def _merge_fields(values):
    """The merge form's fields, when the finding may be merged (a refused one: as sent)."""
    finding = values["finding"]
    if (finding.status, FindingStatus.DUPLICATE) not in rules.TRANSITIONS:
        return ""
    return render_to_string(FIELDS, {"form": MergeForm(initial={"version": finding.version})})


PROBLEM_BOXES = "findings/staff_detail.html#problem_boxes"
FIELDS = "findings/_fields.html"


# The parts of each page kept rendered (findings/detail_kept.py): name -> template, or a
# function of the same context for what it returns (rows, HTML). The staff page's forms list
# the staff, the problems and the linked problems from those, kept with the rest (its stamp
# covers them, and the finding's version the forms carry): no query of their own on each
# visit, and the forms' repeated fields not rendered each time.
KEPT_PARTS = {
    "partner": {
        "body": "findings/_finding_body.html",
        "notes": "findings/detail.html#notes",
        "history": "findings/detail.html#history",
    },
    "staff": {
        "body": "findings/_finding_body.html",
        "notes": "findings/staff_detail.html#notes",
        "history": "findings/staff_detail.html#history",
        "followers": "findings/staff_detail.html#followers",
        "names": _names,
        "linked": _linked,
        "assignees": lambda values: selectors.assignee_choices(),
        "problem_boxes": _problem_boxes,
        "merge_fields": _merge_fields,
    },
}


def detail_context(request, finding, info_form_errors=None, reopen_text="", page="partner"):
    """The finding's page, the partner's or (page="staff") the staff's, who see it with more
    (every note and problem, followers, duplicates). What it shows of the finding's rows is
    `kept`: HTML kept until one of them changes."""
    reads = selectors.partner_detail if page == "partner" else selectors.staff_detail

    def values():
        selectors.read_names(finding)
        return {**_said(finding), **reads(finding), "staff_view": page == "staff"}

    kept = detail_kept.parts(page, finding, request, values, KEPT_PARTS[page])
    context = {"finding": finding, **kept_all({"kept": kept}, max_age=detail_kept.MAX_AGE)}
    if page == "staff":
        return context  # staff neither follow nor act as the team from the triage page
    member = is_member(request.user, finding)
    return {
        **context,
        "subscribed": _subscribed(finding, request.user),
        "is_member": member,
        "partner_moves": rules.allowed_targets(finding.status, Actor.PARTNER) if member else [],
        "info_error": info_form_errors,
        "reopen_text": reopen_text,
    }


def _said(finding):
    return {
        "summary": render_markdown(finding.summary),
        "details": [
            (DETAIL_LABELS.get(key, key), _shown(key, value))
            for key, value in finding.details.items()
            if key in DETAIL_LABELS
        ],
    }


def _subscribed(finding, user):
    """Read with the finding when the view asked (selectors.get_finding_for_page)."""
    known = getattr(finding, "viewer_follows", None)
    return selectors.is_subscribed(finding, user) if known is None else known
