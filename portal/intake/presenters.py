"""What the staff list of applications shows of each row (portal/intake/staff_applications.html)."""

from portal.intake.models import ApplicationStatus, StagedDecision

STATUS_LABELS = dict(ApplicationStatus.choices)
STAGED_LABELS = dict(StagedDecision.choices)


def compute_summary(a):
    """IntakeApplication.compute_summary from a row's values."""
    n = a["accelerator_count"]
    if a["cpu_only"]:
        return f"{n} CPU node{'s' if n != 1 else ''} (no accelerators)"
    return f"{n} × {a['accelerator_type']}"


def _row(a):
    return {
        **a,
        "status_label": STATUS_LABELS.get(a["status"], a["status"]),
        "compute": compute_summary(a),
        "staged_label": STAGED_LABELS.get(a["staged_decision"], a["staged_decision"]),
        # str(User), or a dash for no one.
        "staged_by": a["staged_by__full_name"] or a["staged_by__email"] or "—",
    }


def application_rows(applications):
    """A window's applications (dicts of selectors.applications_for_review) as the rows
    of the staff list."""
    return [_row(a) for a in applications]
