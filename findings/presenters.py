"""What a finding's page shows, for the partner and for staff (who see it with more)."""

import unicodedata

from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.text import Truncator

from jobs.models import Phase
from jobs.steps import field_label
from portal.dates import row_dates
from portal.links import row_url
from portal.markdown import render_markdown
from portal.rows import html_row
from portal.selectors import own_memberships

from . import rules, selectors
from .forms import DETAIL_LABELS
from .models import FindingKind, FindingStatus
from .rules import Actor

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


def _truncated(text, length):
    """The `truncatechars` filter's text, without its work when the text is short."""
    text = unicodedata.normalize("NFC", text)
    return text if len(text) <= length else Truncator(text).chars(length)


# A row of the triage queue (many rows a page, made in Python: portal/rows.py).
TRIAGE_ROW = (
    "<tr>"
    '<td><input type="checkbox" name="findings" value="{pk}" id="sel-{pk}"{checked}'
    ' aria-label="Select finding #{pk}"></td>'
    '<td><a href="{link}">#{pk} {title}</a></td>'
    "<td>{team}</td>"
    "<td>{kind}</td>"
    '<td><span class="badge finding-status-{status}">{status_label}</span></td>'
    "<td>{problems}</td>"
    "<td>{assignee}</td>"
    '<td>{filed_on}<br><span class="muted">{age} ago</span></td>'
    "</tr>"
)


# A row of the partner's list of findings.
PARTNER_ROW = (
    "<tr>"
    '<td><a href="{link}">#{pk} {title}</a>{team}</td>'
    "<td>{kind}</td>"
    '<td><span class="badge finding-status-{status}">{status_label}</span></td>'
    "<td>{response}</td>"
    "<td>{filed_on}</td>"
    "</tr>"
)
TEAM_UNDER = '<br><span class="muted">{name}</span>'


def partner_rows(findings, *, staff_viewer=False):
    """The rows of the partner's list (dicts of selectors.partner_list) in one piece of
    HTML; staff looking at it also see each finding's team."""
    dates = row_dates()  # the zone and month names looked up once a page, not once a row
    rows = []
    for f in findings:
        response = f["latest_response"]
        rows.append(
            html_row(
                PARTNER_ROW,
                link=row_url("finding_detail", f["pk"]),
                pk=f["pk"],
                title=f["title"],
                team=html_row(TEAM_UNDER, name=f["team__name"]) if staff_viewer else "",
                kind=KIND_LABELS.get(f["kind"], f["kind"]),
                status=f["status"],
                status_label=STATUS_LABELS.get(f["status"], f["status"]),
                response=_truncated(response, 140) if response else "—",
                filed_on=dates.day_month(f["created_at"], time=False),
            )
        )
    return SafeString("".join(rows))


def triage_rows(findings, problem_rows, ticked=frozenset()):
    """The rows of the triage queue (dicts of selectors.staff_rows) in one piece of HTML,
    each naming its problems in the problems' order (`problem_rows`: every problem's (id,
    title), in order, as the filter lists them), with their age. `ticked`: the ids whose box
    is ticked again (a bulk action that changed nothing, findings.staff_views)."""
    dates = row_dates(timezone.now())
    place = {pk: i for i, (pk, _) in enumerate(problem_rows)}
    titles = dict(problem_rows)
    rows = []
    for f in findings:
        # A problem made since the list was read (a moment ago) waits for the next visit.
        linked = sorted((pk for pk in f["problem_ids"] if pk in place), key=place.__getitem__)
        rows.append(
            html_row(
                TRIAGE_ROW,
                pk=f["pk"],
                checked=SafeString(" checked" if f["pk"] in ticked else ""),
                link=row_url("staff_finding_detail", f["pk"]),
                title=f["title"],
                team=f["team__name"],
                kind=KIND_LABELS.get(f["kind"], f["kind"]),
                status=f["status"],
                status_label=STATUS_LABELS.get(f["status"], f["status"]),
                problems=", ".join(titles[pk] for pk in linked) or "—",
                # str(User), or a dash for no one.
                assignee=f["assignee__full_name"] or f["assignee__email"] or "—",
                filed_on=dates.day_month(f["created_at"], time=False),
                age=dates.age(f["created_at"]),
            )
        )
    return SafeString("".join(rows))


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
