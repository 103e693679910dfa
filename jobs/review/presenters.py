"""Which fields staff can name in a review, and the review form built from them."""

from django.utils.safestring import SafeString

from jobs.forms import ReviewForm
from jobs.steps import PART_TITLES, all_field_paths, anchor_id, field_label
from portal.dates import row_dates
from portal.links import row_url
from portal.rows import html_row

# A row of the review queue (made in Python: portal/rows.py).
QUEUE_ROW = (
    '<tr><td><a href="{job_link}">{job}</a></td><td>{team}</td>'
    '<td><a href="{revision_link}">Read revision {number} and decide</a></td>'
    "<td>{submitted_at} UTC by {submitted_by}</td><td>{warnings}</td></tr>"
)


def queue_rows(revisions):
    """The revisions waiting for review (dicts of selectors.review_queue), as the rows of
    the queue in one piece of HTML."""
    dates = row_dates()
    return SafeString("".join(_queue_row(revision, dates) for revision in revisions))


def _queue_row(revision, dates):
    job_id = revision["job_id"]
    return html_row(
        QUEUE_ROW,
        job_link=row_url("job_detail", job_id),
        job=revision["job__name"] or f"Untitled job {job_id}",  # str(JobDescription)
        team=revision["job__team__name"],
        revision_link=row_url("revision_detail", job_id, revision["number"]),
        number=revision["number"],
        submitted_at=dates.day_month(revision["submitted_at"]),
        # str(User), or a dash for no one.
        submitted_by=revision["submitted_by__full_name"] or revision["submitted_by__email"] or "—",
        warnings=len(revision["warnings_acknowledged"] or []),
    )


# A row of the accepted runs waiting for a cluster (made in Python, as the queue's rows):
# with clusters, a form to dispatch the run to one of them.
READY_ROW = (
    '<tr><td><a href="{job_link}">{job}</a></td><td>{team}</td><td>{number}</td>\n'
    "      <td>{dispatch}</td></tr>"
)
DISPATCH_FORM = (
    '<form method="post" action="{action}" class="inline-form">'
    '<input type="hidden" name="csrfmiddlewaretoken" value="{csrf_token}">'
    '<input type="hidden" name="next" value="review_queue">\n'
    '        <label for="dispatch-{pk}" class="visually-hidden">Cluster for {job}</label>'
    '<select name="cluster" id="dispatch-{pk}">{options}</select>\n'
    '        <button type="submit">Dispatch<span class="visually-hidden"> {job}</span></button>'
    "</form>"
)
CLUSTER_OPTION = '<option value="{pk}">{name}</option>'


def ready_rows(runs, clusters, csrf_token):
    """The accepted runs waiting for a cluster (dicts of dispatch.ready_rows) as rows, each
    with a form to dispatch it to one of `clusters` ((pk, name) pairs), or a dash if there
    are none; in one piece of HTML."""
    options = SafeString(
        "".join(html_row(CLUSTER_OPTION, pk=pk, name=name) for pk, name in clusters)
    )
    return SafeString("\n    ".join(_ready_row(run, clusters, options, csrf_token) for run in runs))


def _ready_row(run, clusters, options, csrf_token):
    job_id = run["job_id"]
    job = run["job__name"] or f"Untitled job {job_id}"  # str(JobDescription)
    dispatch = "—"
    if clusters:
        dispatch = html_row(
            DISPATCH_FORM,
            action=row_url("run_dispatch", job_id),
            csrf_token=csrf_token,
            pk=run["pk"],
            job=job,
            options=options,
        )
    return html_row(
        READY_ROW,
        job_link=row_url("job_detail", job_id),
        job=job,
        team=run["job__team__name"],
        number=run["revision__number"],
        dispatch=dispatch,
    )


def review_paths(revision):
    """Fields staff can name: every field of the format, with the list items present."""
    paths = [p for p in all_field_paths() if ".N." not in p]
    for path in _indexed_paths(revision.data):
        if path not in paths:
            paths.append(path)
    return sorted(paths)


def review_form(revision, data=None):
    return ReviewForm(data, field_choices=[(p, p) for p in review_paths(revision)])


def _indexed_paths(data, prefix=""):
    """Paths of list items actually present, e.g. data.inputs.0.size."""
    for key, value in (data or {}).items():
        if key == "source":
            continue
        if isinstance(value, dict):
            yield from _indexed_paths(value, f"{prefix}{key}.")
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            for i, item in enumerate(value):
                for sub in item:
                    yield f"{prefix}{key}.{i}.{sub}"


def review_groups(revision):
    """The fields staff can name, grouped by part, as (title, [(path, label, id)]) for checkboxes."""
    groups = {}
    for path in review_paths(revision):
        part = path.split(".", 1)[0]
        groups.setdefault(part, []).append(
            (path, field_label(path), "clarify-" + anchor_id(path)[2:])
        )
    order = ["work", "realtime", "data", "request", "output"]
    return [(PART_TITLES.get(p, p), groups[p]) for p in order if p in groups]
