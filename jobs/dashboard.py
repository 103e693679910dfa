"""The rows of the jobs list (/jobs/), made in Python from the values of one query.

A row is only shown, so it is read as a dict (`selectors.dashboard`), not as six model
instances (job, team, editor, run, dispatch, cluster), and written as HTML with one format
string (portal/rows.py) rather than ~15 template look-ups a row. Same markup as before."""

from django.utils.safestring import SafeString

from portal.dates import row_dates
from portal.links import row_url
from portal.rows import escaped, html_row

from .models import JobStatus
from .templatetags.jobs_extras import phase_strip_of

# get_status_display() rebuilds the choices' dict on every call.
STATUS_LABELS = dict(JobStatus.choices)

ROW = (
    "<tr>"
    '<td><a href="{link}">{name}</a></td>'
    "<td>{status}</td>"
    "<td>{team}</td>"
    '<td><time datetime="{iso}">{when} UTC</time>{by}</td>'
    "<td>{discussion}</td>"
    "<td>{network}</td>"
    "</tr>"
)
BY = ' <span class="muted">by {who}</span>'
UNREAD = '<a href="{detail}#discussion"><span class="badge badge-error">{n} unread</span></a>'
NONE_UNREAD = html_row('<span class="muted">—</span>')
RUN = '<a href="{detail}#run">{strip}</a>{note}'
SIMULATED = html_row(' <span class="muted">(simulated)</span>')
REAL = ' <span class="muted">(real: {cluster})</span>'
ACTION = '<li><a href="{link}">{name}</a> <span class="action-{kind}">{what}</span></li>'
ACTION_ORDER = {"clarify": 0, "review": 1, "declined": 2, "unread": 3, "draft": 4}


def job_name(job):
    """str(JobDescription) from a row's values."""
    return job["name"] or f"Untitled job {job['pk']}"


def _editor(job):
    """str(User) of the last editor, from the row's values ("" for none)."""
    if job["updated_by__email"] is None:
        return ""
    return BY.format(who=escaped(job["updated_by__full_name"] or job["updated_by__email"]))


def _network(job, detail):
    """The run's phase strip and where it runs, or a dash for a job with no run."""
    if job["run__state"] is None:
        return "—"
    if job["run__simulated"]:
        note = SIMULATED
    elif job["run__dispatch__cluster__name"]:
        note = REAL.format(cluster=escaped(job["run__dispatch__cluster__name"]))
    else:
        note = ""
    return RUN.format(detail=detail, strip=phase_strip_of(job["run__state"]), note=note)


def row(job, dates):
    """One <tr> of the list. Each value is escaped once here (`escaped`); the links are
    made of ids and fixed paths, the phase strip is markup already. `dates`: the page's
    portal.dates.row_dates()."""
    pk, status, unread = job["pk"], job["status"], job["unread"]
    detail = row_url("job_detail", pk)
    when = job["last_activity_at"]
    return ROW.format(
        # A draft opens at its first step; any other job at its page.
        link=row_url("job_step", pk, "work") if status == JobStatus.DRAFT else detail,
        name=escaped(job_name(job)),
        status=escaped(STATUS_LABELS.get(status, status)),
        team=escaped(job["team__name"]),
        iso=dates.iso(when),
        when=escaped(dates.day_month(when)),
        by=_editor(job),
        discussion=UNREAD.format(detail=detail, n=unread) if unread else NONE_UNREAD,
        network=_network(job, detail),
    )


def _actions_for(job, user):
    """What this row asks of the person: (what, link, kind) each."""
    pk, status = job["pk"], job["status"]
    detail = row_url("job_detail", pk)
    if user.is_staff and status == JobStatus.IN_REVIEW:
        yield ("waits for your review", detail + "#reviews", "review")
    if not user.is_staff:
        if status == JobStatus.NEEDS_CLARIFICATION:
            yield ("staff asked you to clarify fields", row_url("job_step", pk, "work"), "clarify")
        elif status == JobStatus.DECLINED:
            yield (
                "declined as not a network job: revise the batch part",
                detail + "#reviews",
                "declined",
            )
        elif status == JobStatus.DRAFT:
            yield ("draft: finish it and submit", row_url("job_step", pk, "review"), "draft")
    if job["unread"]:
        n = job["unread"]
        yield (f"{n} new comment{'s' if n != 1 else ''} to read", detail + "#discussion", "unread")


def actions(jobs, user):
    """Of the jobs listed, those waiting on this person, most pressing first, as <li>s."""
    found = [(job, *action) for job in jobs for action in _actions_for(job, user)]
    found.sort(key=lambda item: ACTION_ORDER[item[3]])
    return [
        html_row(ACTION, link=link, name=job_name(job), kind=kind, what=what)
        for job, what, link, kind in found
    ]


def dashboard_rows(page, user):
    """The page's rows and its "needs your action" items, each as one piece of HTML."""
    dates = row_dates()
    rows = SafeString("".join(row(job, dates) for job in page))
    return rows, SafeString("".join(actions(page, user)))
