"""Which fields staff can name in a review, and the review form built from them."""

from jobs.forms import ReviewForm
from jobs.steps import PART_TITLES, all_field_paths, anchor_id, field_label
from portal.dates import day_month
from portal.links import row_url
from portal.rows import html_row

# A row of the review queue (made in Python: portal/rows.py).
QUEUE_ROW = (
    '<tr><td><a href="{job_link}">{job}</a></td><td>{team}</td>'
    '<td><a href="{revision_link}">Read revision {number} and decide</a></td>'
    "<td>{submitted_at} UTC by {submitted_by}</td><td>{warnings}</td></tr>"
)


def queue_rows(revisions):
    """Each revision waiting for review as its row of the queue."""
    for revision in revisions:
        job = revision.job
        revision.row = html_row(
            QUEUE_ROW,
            job_link=row_url("job_detail", job.pk),
            job=job,
            team=job.team.name,
            revision_link=row_url("revision_detail", job.pk, revision.number),
            number=revision.number,
            submitted_at=day_month(revision.submitted_at),
            submitted_by=revision.submitted_by or "—",
            warnings=len(revision.warnings_acknowledged or []),
        )
    return revisions


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
