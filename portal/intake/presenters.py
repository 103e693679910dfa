"""What the staff list of applications shows, a row at a time."""

from django.urls import reverse
from django.utils.safestring import SafeString

from portal.dates import day_month
from portal.intake.models import ApplicationStatus, StagedDecision
from portal.links import row_url
from portal.rows import html_row

STATUS_LABELS = dict(ApplicationStatus.choices)
STAGED_LABELS = dict(StagedDecision.choices)

# A row of a window's applications (made in Python: portal/rows.py).
APPLICATION_ROW = (
    "<tr>"
    '<td><a href="{link}">{team_name}</a><br><span class="muted">{organisation}</span></td>'
    "<td>{status}{team}</td>"
    '<td class="num">{typical} → <strong>{peak}</strong>{cpu}</td>'
    '<td>every {spike_interval}<br><span class="muted">next {next_spike}</span></td>'
    "<td>{compute}, {data_size}, {duration}"
    '<br><span class="muted">due {deadline}</span></td>'
    "<td>{real_time}</td>"
    "<td>{staged}</td>"
    "</tr>"
)
TEAM_LINK = '<br><a href="{link}">{name}</a>'
STAGED = '{decision}<br><span class="muted">by {by}</span>'
CPU_NODES = html_row('<br><span class="muted">CPU nodes</span>')
REAL_TIME = html_row('<span class="badge badge-warn">real-time</span>')


def compute_summary(a):
    """IntakeApplication.compute_summary from a row's values."""
    n = a["accelerator_count"]
    if a["cpu_only"]:
        return f"{n} CPU node{'s' if n != 1 else ''} (no accelerators)"
    return f"{n} × {a['accelerator_type']}"


def _row(a):
    team = ""
    if a["team__slug"] is not None:
        team = html_row(
            TEAM_LINK, link=reverse("team_detail", args=[a["team__slug"]]), name=a["team__name"]
        )
    staged = "—"
    if a["staged_decision"]:
        staged = html_row(
            STAGED,
            decision=STAGED_LABELS.get(a["staged_decision"], a["staged_decision"]),
            # str(User), or a dash for no one.
            by=a["staged_by__full_name"] or a["staged_by__email"] or "—",
        )
    return html_row(
        APPLICATION_ROW,
        link=row_url("staff_intake_application", a["pk"]),
        team_name=a["team_name"],
        organisation=a["organisation"],
        status=STATUS_LABELS.get(a["status"], a["status"]),
        team=team,
        typical=a["typical_accelerators"],
        peak=a["peak_accelerators"],
        cpu=CPU_NODES if a["cpu_only"] else "",
        spike_interval=a["spike_interval_text"],
        next_spike=day_month(a["next_spike"], time=False),
        compute=compute_summary(a),
        data_size=a["data_size_text"],
        duration=a["duration_text"],
        deadline=day_month(a["deadline"], time=False),
        real_time=REAL_TIME if a["has_real_time"] else "no",
        staged=staged,
    )


def application_rows(applications):
    """A window's applications (dicts of selectors.applications_for_review) as the rows
    of the staff list, in one piece of HTML."""
    return SafeString("".join(_row(a) for a in applications))
