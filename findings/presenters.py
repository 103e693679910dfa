"""What a finding's page shows, for the partner and for staff (who see it with more)."""

from jobs.models import Phase
from jobs.steps import field_label
from portal.markdown import render_markdown

from . import rules, selectors
from .forms import DETAIL_LABELS
from .rules import Actor


def is_member(user, finding):
    return selectors.filing_teams(user).filter(pk=finding.team_id).exists()


def _shown(key, value):
    """Stored values as people read them: a phase by its label, a field path by its name."""
    if key == "phase" and value in Phase.values:
        return Phase(value).label
    if key == "field" and isinstance(value, str):
        return field_label(value)
    return value


def detail_context(request, finding, info_form_errors=None, reopen_text=""):
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
        **selectors.partner_detail(finding),
    }
