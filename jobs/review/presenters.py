"""Which fields staff can name in a review, the review form built from them, and the
review queue's rows."""

from jobs.forms import ReviewForm
from jobs.models import untitled
from jobs.steps import PART_TITLES, all_field_paths, anchor_id, field_label


def _job(row):
    """str(JobDescription) from a row's values."""
    return row["job__name"] or untitled(row["job__number"], row["job_id"])


def queue_rows(revisions):
    """The revisions waiting for review (dicts of selectors.review_queue) as the queue
    shows them (jobs/staff_reviews.html)."""
    return [
        {
            "job_id": revision["job_id"],
            "job": _job(revision),
            "team": revision["job__team__name"],
            "number": revision["number"],
            "submitted_at": revision["submitted_at"],
            # str(User), or a dash for no one.
            "submitted_by": (
                revision["submitted_by__full_name"] or revision["submitted_by__email"] or "—"
            ),
            "warnings": len(revision["warnings_acknowledged"] or []),
        }
        for revision in revisions
    ]


def ready_rows(runs):
    """The accepted runs waiting for a cluster (dicts of dispatch.ready_rows) as the queue
    shows them."""
    return [
        {
            "pk": run["pk"],
            "job_id": run["job_id"],
            "job": _job(run),
            "team": run["job__team__name"],
            "number": run["revision__number"],
        }
        for run in runs
    ]


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
