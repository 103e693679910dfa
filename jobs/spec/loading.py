"""Turn plain data into a Description without losing what can be kept.

A value that does not fit the format (a word where a number belongs, an unknown
field) is dropped from the description and reported as an issue, so a draft or an
imported file always yields a description plus the list of what was wrong."""

import copy

from pydantic import ValidationError

from .issues import Issue, Level
from .model import Description

MAX_PASSES = 200


def load(data):
    """Plain data -> (Description, [Issue]). Never raises on bad content."""
    if not isinstance(data, dict):
        return Description(), [
            Issue(
                "",
                Level.ERROR,
                "invalid",
                "A description is a mapping with work, data, request and output.",
            )
        ]
    try:
        # Most files are valid as they are: validate before paying for a copy to edit.
        return Description.model_validate(data), []
    except ValidationError:
        pass
    data = copy.deepcopy(data)
    issues = []
    for _ in range(MAX_PASSES):
        try:
            return Description.model_validate(data), issues
        except ValidationError as error:
            for detail in error.errors(include_url=False):
                path = [str(p) for p in detail["loc"]]
                issues.append(_issue_for(detail, path))
                _drop(data, detail["loc"])
    return Description(), issues + [
        Issue("", Level.ERROR, "invalid", "The description could not be read.")
    ]


def _issue_for(detail, path):
    field = ".".join(path)
    if detail["type"] == "extra_forbidden":
        return Issue(
            field,
            Level.ERROR,
            "unknown_field",
            f"{field} is not a field of the format (version 1).",
        )
    given = detail.get("input")
    shown = repr(given)[:80] if not isinstance(given, dict | list) else "this value"
    return Issue(field, Level.ERROR, "invalid", f"{shown} is not valid here: {detail['msg']}.")


def _drop(data, loc):
    """Remove the value at loc (or its nearest existing parent entry)."""
    node = data
    for key in loc[:-1]:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return
    last = loc[-1] if loc else None
    if isinstance(node, dict) and last in node:
        del node[last]
    elif isinstance(node, list) and isinstance(last, int) and last < len(node):
        node.pop(last)
    elif loc:
        _drop(data, loc[:-1])
    else:
        data.clear()
