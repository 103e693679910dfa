"""What a finding's page shows, for the partner and for staff (who see it with more)."""

import unicodedata

from django.utils import timezone
from django.utils.text import Truncator

from jobs.models import Phase
from jobs.steps import field_label
from portal.dates import age, day_month
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
    '<td><input type="checkbox" name="findings" value="{pk}" id="sel-{pk}"'
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


def list_rows(findings, *, staff=False):
    """What each row of a list of findings shows, worked out once per row in Python (the
    link, labels, dates, the latest response, on triage the problems and the age), so the
    template only places strings."""
    now = timezone.now()
    for f in findings:
        f.link = row_url("staff_finding_detail" if staff else "finding_detail", f.pk)
        f.kind_label = KIND_LABELS.get(f.kind, f.kind)
        f.status_label = STATUS_LABELS.get(f.status, f.status)
        f.filed_on = day_month(f.created_at, time=False)
        if staff:
            f.row = html_row(
                TRIAGE_ROW,
                pk=f.pk,
                link=f.link,
                title=f.title,
                team=f.team.name,
                kind=f.kind_label,
                status=f.status,
                status_label=f.status_label,
                problems=", ".join(p.title for p in f.problem_list) or "—",
                assignee=f.assignee or "—",
                filed_on=f.filed_on,
                age=age(f.created_at, now),
            )
        else:
            response = getattr(f, "latest_response", None)
            f.response_shown = _truncated(response, 140) if response else "—"
    return findings


def detail_context(request, finding, info_form_errors=None, reopen_text="", reads=None):
    """The finding's page; `reads` replaces what the partner sees beside it (history, notes,
    evidence, problems) with more, for staff, so neither is read twice."""
    member = is_member(request.user, finding)
    return {
        "finding": finding,
        "summary": render_markdown(finding.summary),
        "details": [
            (DETAIL_LABELS.get(key, key), _shown(key, value))
            for key, value in finding.details.items()
            if key in DETAIL_LABELS
        ],
        "subscribed": selectors.is_subscribed(finding, request.user),
        "is_member": member,
        "partner_moves": rules.allowed_targets(finding.status, Actor.PARTNER) if member else [],
        "info_error": info_form_errors,
        "reopen_text": reopen_text,
        **(selectors.partner_detail(finding) if reads is None else reads),
    }
