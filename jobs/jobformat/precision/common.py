"""What every group of precision rules shares."""

import functools

from ..issues import Level, Problem

E, W = Level.ERROR, Level.WARNING
DECLARE, DATA, SCHED = Problem.DECLARE, Problem.DATA, Problem.SCHEDULING


@functools.cache
def example(model, name):
    info = model.model_fields[name]
    examples = (
        (info.json_schema_extra or {}).get("examples")
        if isinstance(info.json_schema_extra, dict)
        else None
    )
    examples = examples or info.examples
    if not examples:
        return ""
    value = examples[0]
    if isinstance(value, bool):
        value = "true" if value else "false"
    elif isinstance(value, list):
        value = ", ".join(map(str, value))
    return f" For example: {str(value).rstrip('.')}."


def _exact(q):
    if q is None:
        return None
    return q.value if q.exact else None
