"""What a finding's page shows, for the partner and for staff (who see it with more)."""

from django.template.defaultfilters import date, floatformat
from django.utils import timezone
from django.utils.html import strip_tags
from django.utils.timesince import timesince

from jobs.runs.models import Phase
from jobs.steps import field_label
from portal.markdown import render_markdown
from portal.selectors import own_memberships

from . import rules, selectors
from .forms import DETAIL_LABELS
from .models import FindingKind, FindingStatus
from .rules import Actor

# get_FOO_display() rebuilds the choices' dict on every call; a list calls it per row.
KIND_LABELS = dict(FindingKind.choices)
STATUS_LABELS = dict(FindingStatus.choices)
HOURS = ("expected_hours", "held_hours")


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
    if key in HOURS and isinstance(value, int | float):
        return floatformat(value, "1g")  # as the evidence's ledger writes it: 1,379.8
    return value


def partner_rows(findings):
    """The rows of the partner's list (dicts of selectors.partner_list) with their labels,
    for findings/list.html. The latest response is read as on the finding's page: by its
    author's name, its Markdown rendered (then as text: a table cell holds a line, not
    paragraphs and lists)."""
    return [
        {
            **f,
            "kind_label": KIND_LABELS.get(f["kind"], f["kind"]),
            "status_label": STATUS_LABELS.get(f["status"], f["status"]),
            "latest_response_text": _as_text(f["latest_response"]),
            "latest_response_by": f["latest_response_name"] or f["latest_response_email"],
        }
        for f in findings
    ]


def _as_text(markdown):
    if not markdown:
        return ""
    return " ".join(strip_tags(render_markdown(markdown)).split())


def triage_rows(findings, problem_rows, ticked=frozenset()):
    """The rows of the triage queue (dicts of selectors.staff_rows) for
    findings/staff_queue.html, each naming its problems in the problems' order
    (`problem_rows`: every problem's (id, title), in order, as the filter lists them).
    `ticked`: the ids whose box is ticked again (a bulk action that changed nothing,
    findings.staff_views)."""
    place = {pk: i for i, (pk, _) in enumerate(problem_rows)}
    titles = dict(problem_rows)
    filed = _Filed()
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
                "filed_on": filed.day(f["created_at"]),
                "filed_ago": filed.ago(f["created_at"]),
            }
        )
    return rows


class _Filed:
    """When each row was filed, as the `date:"j M Y"` and `timesince` filters write it: the
    day written once per day a page's rows share (a page of the queue is mostly one or two
    days; the filter translated the month's name again for each row), the time since
    against one reading of the clock."""

    def __init__(self):
        self.now = timezone.now()
        self.days = {}

    def day(self, moment):
        local = timezone.localtime(moment)
        key = local.date()
        if key not in self.days:
            self.days[key] = date(local, "j M Y")
        return self.days[key]

    def ago(self, moment):
        return timesince(moment, self.now)


def detail_context(request, finding, info_form_errors=None, reopen_text="", page="partner"):
    """The finding's page, the partner's or (page="staff") the staff's, who see it with more
    (every note and problem, followers, duplicates)."""
    reads = selectors.partner_detail if page == "partner" else selectors.staff_detail
    context = {
        "finding": finding,
        **_said(finding),
        **reads(finding),
        "staff_view": page == "staff",
    }
    # Answers and information are written in Markdown, as the finding's description is.
    for note in context["notes"]:
        note.html = render_markdown(note.body)
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
