"""Vague declarations: words and numbers that say "roughly" where "exactly" is needed."""

import re

from pydantic import BaseModel

from .. import units
from ..issues import Issue
from ..model import PARTS
from ..quantities import Quantity
from .common import DATA, DECLARE, SCHED, E, W

# Text fields read by people; commands and URIs are not scanned for vague words.
PROSE_FIELDS = {
    ("work", "summary"),
    ("output", "downstream"),
}
PROSE_LIST_FIELDS = {
    ("data", "inputs"): ("format",),
    ("output", "artifacts"): ("format", "name"),
}


def _walk_quantities(d):
    for part in PARTS:
        yield from _quantities(getattr(d, part), part)


def _quantities(model, prefix):
    for name in type(model).model_fields:
        value = getattr(model, name)
        path = f"{prefix}.{name}"
        if isinstance(value, Quantity):
            yield path, value
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, BaseModel):
                    yield from _quantities(item, f"{path}.{i}")


def _example(q):
    examples = type(q).json_schema.get("examples") or []
    return examples[0] if examples else "its exact value with a unit"


def _vague(d):
    out = []
    for path, q in _walk_quantities(d):
        if q.exact:
            continue
        if units.vague_words(q.text):
            msg, code = units.not_exact(q.text, _example(q)), "vague_wording"
        elif units.RANGE.search(q.text):
            msg, code = units.not_exact(q.text, _example(q)), "vague_range"
        elif re.fullmatch(r"\s*[\d.,_eE+-]+\s*", q.text):
            msg = q.error
            code = "no_unit"
        else:
            msg = q.error
            code = "not_exact"
        out.append(Issue(path, E, code, msg.strip(), DATA if path.startswith("data") else DECLARE))
    prose = [(f"{a}.{b}", getattr(getattr(d, a), b)) for a, b in PROSE_FIELDS]
    for (part, listname), names in PROSE_LIST_FIELDS.items():
        for i, item in enumerate(getattr(getattr(d, part), listname) or []):
            prose += [(f"{part}.{listname}.{i}.{n}", getattr(item, n)) for n in names]
    for path, text in prose:
        if not text:
            continue
        words = units.vague_words(text)
        if words:
            out.append(
                Issue(
                    path,
                    W,
                    "vague_wording",
                    f"This is {words[0]} where the network needs an exact declaration: "
                    "replace it with the number or fact it stands for.",
                )
            )
        if _range_without_unit(text):
            out.append(
                Issue(path, W, "vague_range", "A range with no unit: give one value and its unit.")
            )
    if d.request.until_done and d.request.maximum is None:
        out.append(
            Issue(
                "request.until_done",
                E,
                "vague_until_done",
                "“Until done” needs a hard maximum, e.g. maximum: 72h, or the job may never release its "
                "nodes.",
                SCHED,
            )
        )
    return out


def _range_without_unit(text):
    for match in re.finditer(r"\b\d+(?:\.\d+)?\s*(?:-|–|to)\s*\d+(?:\.\d+)?\s*([A-Za-z]*)", text):
        unit = match.group(1).lower()
        if unit not in units.SIZE_UNITS and unit not in units.DURATION_UNITS:
            return True
    return False
