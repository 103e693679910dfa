"""Turn plain data into a Description without losing what can be kept.

A value that does not fit the format (a word where a number belongs, an unknown
field) is dropped from the description and reported as an issue, so a draft or an
imported file always yields a description plus the list of what was wrong."""

import re

from pydantic import ValidationError

from . import units
from .issues import Issue, Level
from .model import Description

MAX_PASSES = 200
NUMBER_ERRORS = {"int_parsing", "int_type", "int_from_float", "float_parsing", "float_type"}
# Numbers as people type them: "52,000", "2 304", "1_000", "12,500.5".
GROUPED = re.compile(
    r"[+-]?[0-9]{1,3}(?:[,_ \u00a0\u202f][0-9]{3})+(?:\.[0-9]+)?|[+-]?[0-9]+\.?[0-9]*"
)
# A count with what it counts, as people write it: "52,000 files", "8 nodes", "64 GPUs".
COUNTED = re.compile(
    r"(?P<number>[+-]?[0-9][0-9,_ \u00a0\u202f.]*?)\s*(?P<what>[A-Za-z][A-Za-z-]*)"
)
APPROXIMATE = re.compile(
    r"\b(?:about|around|approx(?:imately|\.)?|roughly|circa|ca\.|some|nearly|almost|"
    r"or so|ish|maybe|probably)\b|~|±|\+/-",
    re.IGNORECASE,
)


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
    data = _copied(data)
    issues = []
    for _ in range(MAX_PASSES):
        try:
            return Description.model_validate(data), issues
        except ValidationError as error:
            for detail in error.errors(include_url=False):
                if _as_people_type_it(data, detail):
                    continue  # "52,000" is 52000: the draft keeps what was typed
                path = [str(p) for p in detail["loc"]]
                issues.append(_issue_for(detail, path))
                _drop(data, detail["loc"])
    return Description(), issues + [
        Issue("", Level.ERROR, "invalid", "The description could not be read.")
    ]


def _copied(value):
    """A copy of plain data to edit: its mappings and lists are new, its strings and numbers
    shared (they cannot change). deepcopy's bookkeeping for shared and cyclic objects, which
    parsed files cannot hold, cost more than the copy on a file of thousands of entries."""
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copied(item) for item in value]
    return value


def _as_people_type_it(data, detail):
    """Put the number in place of digits grouped by commas or spaces; False if it is not one."""
    given = detail.get("input")
    if detail["type"] not in NUMBER_ERRORS or not isinstance(given, str):
        return False
    text = given.strip()
    counted = COUNTED.fullmatch(text)
    field = str(detail["loc"][-1]) if detail["loc"] else ""
    if counted and not APPROXIMATE.search(text) and _counts_things(counted["what"], field):
        text = counted["number"]
    if not GROUPED.fullmatch(text):
        return False
    digits = re.sub(r"[,_ \u00a0\u202f]", "", text)
    try:
        number = int(digits) if re.fullmatch(r"[+-]?[0-9]+", digits) else float(digits)
    except ValueError:
        return False
    if detail["type"].startswith("int") and not isinstance(number, int):
        if not float(number).is_integer():
            return False
        number = int(number)
    node = data
    for key in detail["loc"][:-1]:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return False
    try:
        node[detail["loc"][-1]] = number
    except (KeyError, IndexError, TypeError):
        return False
    return True


HOURS = {"h", "hr", "hrs", "hour", "hours"}


def _counts_things(word, field):
    """A word naming what is counted ("files"), not a unit that changes the number ("TB", "h",
    "2k"); in a field of hours, "768 h" or "768 GPU-hours" is that many hours."""
    word = word.lower()
    if field.endswith("_hours") and (word in HOURS or word.endswith("-hours")):
        return True
    return len(word) > 1 and word not in units.SIZE_UNITS and word not in units.DURATION_UNITS


def _number_issue(field, given):
    """A number field that did not get a number: say so in words, never the parser's."""
    text = str(given).strip()
    shown = text if len(text) <= 40 else text[:40] + "…"
    if APPROXIMATE.search(text):
        return Issue(
            field,
            Level.ERROR,
            "vague_wording",
            f"“{shown}” is an approximate number, not an exact value: write the one number to "
            "plan for, e.g. 2300.",
        )
    if re.search(r"[0-9]\s*(?:-|–|to)\s*[0-9]", text):
        return Issue(
            field,
            Level.ERROR,
            "vague_range",
            f"“{shown}” is a range: write the one number to plan for.",
        )
    return Issue(
        field,
        Level.ERROR,
        "invalid",
        f"“{shown}” is not a number: write digits, e.g. 52000 or 52,000 files.",
    )


def _issue_for(detail, path):
    field = ".".join(path)
    if detail["type"] in NUMBER_ERRORS:
        given = detail.get("input")
        if detail["type"].startswith("int") and GROUPED.fullmatch(str(given).strip()):
            return Issue(
                field, Level.ERROR, "not_whole", f"“{given}” is not a whole number: round it."
            )
        return _number_issue(field, given)
    if detail["type"] == "extra_forbidden":
        return Issue(
            field,
            Level.ERROR,
            "unknown_field",
            f"{field} is not a field of the format (version 1).",
        )
    given = detail.get("input")
    shown = repr(given)[:80] if not isinstance(given, dict | list) else "this value"
    if detail["type"] in {"bool_parsing", "bool_type"}:
        return Issue(field, Level.ERROR, "invalid", f"{shown} is not a yes or a no: choose one.")
    if detail["type"] in {"enum", "literal_error"}:
        return Issue(field, Level.ERROR, "invalid", f"{shown} is not one of the choices: pick one.")
    if detail["type"] in {"greater_than_equal", "greater_than"}:
        return Issue(field, Level.ERROR, "invalid", f"{shown} is too small here.")
    if detail["type"] in {"less_than_equal", "less_than"}:
        return Issue(field, Level.ERROR, "invalid", f"{shown} is too large here.")
    if detail["type"].startswith("string_too_long"):
        return Issue(field, Level.ERROR, "invalid", "This is too long: shorten it.")
    if detail["type"] == "too_long":
        most = (detail.get("ctx") or {}).get("max_length")
        return Issue(
            field,
            Level.ERROR,
            "too_many",
            f"At most {most} entries here: keep the ones that matter.",
        )
    # Our own validators raise ValueError with a sentence for people; pydantic prefixes
    # "Value error, ". Anything else is described without the library's words.
    message = str(detail.get("msg", ""))
    if detail["type"] == "value_error" and message.startswith("Value error, "):
        return Issue(field, Level.ERROR, "invalid", message.removeprefix("Value error, "))
    return Issue(field, Level.ERROR, "invalid", f"{shown} does not fit this field.")


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
