"""The guided steps, derived from the format's one definition (jobs/jobformat/model.py).

Each step lists the fields of one part; labels, help, examples, units and input
kinds all come from the pydantic models, so the form never re-declares a field."""

import math
import re
import types
import typing
from dataclasses import dataclass, field
from enum import Enum

from pydantic import BaseModel

from portal.validators import is_number

from .jobformat import model as m
from .jobformat.quantities import Amount, Duration, Quantity, Size, When
from .jobformat.units import number_for_people

STEPS = [
    ("work", "Work", "What runs, and whether it is a batch job at all."),
    ("data", "Data", "What the job reads, how large it is and how it reaches compute."),
    ("request", "Request", "How much compute, for how long, by when, and what happens with less."),
    ("output", "Output", "What comes back, where it lands and when."),
    ("review", "Review", "Everything the precision check found, then submit."),
]
STEP_NAMES = [s[0] for s in STEPS]
# The real-time screen is asked with the work: it decides whether the job belongs here at all.
STEP_PARTS = {
    "work": ["work", "realtime"],
    "data": ["data"],
    "request": ["request"],
    "output": ["output"],
}

LABELS = {
    "cpus_per_node": "CPU cores per node",
    "min_nodes": "Minimum nodes",
    "no_inputs": "The job reads no data",
    "no_deadline": "There is no deadline",
    "stage_before_rent": "Data can be staged before compute is rented",
    "expected_accelerator_hours": "Expected accelerator-hours",
    "on_deadline_missed": "If the deadline is missed",
    "less_compute": "With less compute than asked",
    "depends_on": "Depends on jobs",
    "read_only": "Read-only",
    "partial_useful": "Partial output is useful",
    "finishes_on_its_own": "Finishes on its own",
    "serves_requests": "Serves inbound requests",
    "latency_bound": "Per-request latency it must meet",
    "start_delay": "Start delay it tolerates",
    "until_done": "Runs until done",
    "image": "Container image or entry point",
    "no_accelerators": "No accelerators (CPU only)",
    "expected_node_hours": "Expected node-hours",
    "instance_type": "Cloud instance type",
    "node_features": "Node features",
    "chain_runs": "Runs in the chain",
    "nodes_per_shard": "Nodes per shard",
    "runs_with": "Runs together with jobs",
    "code": "Code and configuration",
    "credentials": "Credentials (names or paths only)",
    "unclassified": "Mounts of unclear direction",
}
# Where the form's words differ from the file's: a choice's value is its key in the file.
CHOICE_LABELS = {
    "shape": {
        "gang": "All nodes together (a gang)",
        "shards": "Independent shards",
        "chain": "A chain of runs",
    },
}
HELP = {
    "shape": "All nodes together: the nodes start and stop as one. Independent shards: pieces "
    "that can run apart, each on its own nodes. A chain of runs: the same nodes run several "
    "times in a row, each run resuming from the last checkpoint.",
    # Every way of writing a time shown here is one units.parse_when reads (test_steps_views).
    "earliest_start": "The first moment the job may start: a day, as 31 March 2027 or "
    "2027-03-31 (from 00:00 that day), or a day and time, as 2027-03-31 09:00.",
    "deadline": "When the output must be back: a day, as 31 March 2027 or 2027-03-31 "
    "(00:00 that day, so the day before if you mean its evening), or a day and time, as "
    "2027-03-31 18:00.",
}
# The file's examples are ISO 8601; the form shows one as people write it.
EXAMPLES = {
    "earliest_start": "1 March 2027",
    "deadline": "2027-03-04 09:00 UTC",
}
UNITS = {
    Size: "B, KB, MB, GB, TB, PB (powers of 1000) or KiB…PiB (1024)",
    Duration: "s, min, h, d, w, or HH:MM:SS",
    When: "UTC, unless you add an offset, as in 2027-03-31 09:00+02:00",
    Amount: "your own, after the number",
}
LONG_TEXT = {"summary", "setup", "command", "downstream"}


@dataclass
class FieldSpec:
    name: str
    label: str
    help: str
    example: str
    kind: str  # choice, bool, int, float, text, textarea, quantity, lines, group
    choices: list = field(default_factory=list)
    unit: str = ""
    children: list = field(default_factory=list)  # for groups: FieldSpecs of one item
    item_label: str = ""
    only_with_shape: str = ""  # the work's shape this field applies to ("" for every shape)

    @property
    def unit_label(self):
        """What the unit line names: a time's "unit" is its time zone."""
        return "Time zone" if self.unit == UNITS[When] else "Unit"

    @property
    def choice_values(self):
        return [value for value, _ in self.choices]

    @property
    def example_words(self):
        """The example as the form shows it: a choice by its label. A yes/no question has
        none (its answer is the person's, and "Example: yes" says nothing)."""
        if self.kind == "bool":
            return ""
        if self.kind == "choice":
            return dict(self.choices).get(self.example, "")
        return self.example

    def path(self, prefix):
        return f"{prefix}.{self.name}" if prefix else self.name


def _unwrap(annotation):
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        annotation = args[0]
    if typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    return annotation


def _example(info):
    examples = info.examples or []
    if not examples:
        return ""
    value = examples[0]
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


# The format says in a field's description which shape of work it applies to ("… (only with
# shape: shards)"); a shard's node count says it in words of its own.
_ONLY_WITH_SHAPE = re.compile(r"\s*\(only with shape: ([a-z]+)\)")
SHAPE_OF = {"nodes_per_shard": "shards"}


def _only_with_shape(name, description):
    found = _ONLY_WITH_SHAPE.search(description)
    return found[1] if found else SHAPE_OF.get(name, "")


def specs_for(model_cls):
    specs = []
    for name, info in model_cls.model_fields.items():
        annotation = _unwrap(info.annotation)
        label = LABELS.get(name, name.replace("_", " ").capitalize())
        common = {
            "name": name,
            "label": label,
            "help": HELP.get(name) or info.description or "",
            "example": EXAMPLES.get(name) or _example(info),
            "only_with_shape": _only_with_shape(name, info.description or ""),
        }
        origin = typing.get_origin(annotation)
        if origin is list:
            inner = _unwrap(typing.get_args(annotation)[0])
            if isinstance(inner, type) and issubclass(inner, BaseModel):
                item = {"inputs": "Input", "accelerators": "Accelerator", "artifacts": "Artifact"}
                specs.append(
                    FieldSpec(
                        **common,
                        kind="group",
                        children=specs_for(inner),
                        item_label=item.get(name, "Item"),
                    )
                )
            else:
                specs.append(FieldSpec(**common, kind="lines"))
        elif isinstance(annotation, type) and issubclass(annotation, Quantity):
            specs.append(FieldSpec(**common, kind="quantity", unit=UNITS.get(annotation, "")))
        elif isinstance(annotation, type) and issubclass(annotation, Enum):
            words = CHOICE_LABELS.get(name, {})
            choices = [
                (c.value, words.get(c.value) or c.value.replace("_", " ")) for c in annotation
            ]
            specs.append(FieldSpec(**common, kind="choice", choices=choices))
        elif annotation is bool:
            specs.append(FieldSpec(**common, kind="bool"))
        elif annotation is int:
            specs.append(FieldSpec(**common, kind="int"))
        elif annotation is float:
            specs.append(FieldSpec(**common, kind="float"))
        else:
            specs.append(FieldSpec(**common, kind="textarea" if name in LONG_TEXT else "text"))
    return specs


PART_MODELS = {
    "work": m.Work,
    "data": m.Data,
    "request": m.Request,
    "output": m.Output,
    "realtime": m.Realtime,
}
PART_SPECS = {part: specs_for(model) for part, model in PART_MODELS.items()}
PART_TITLES = {
    "work": "Work",
    "data": "Data",
    "request": "Request",
    "output": "Output",
    "realtime": "Real-time screen",
}


def step_of_field(path):
    """The step a dotted field path is edited on ('realtime.x' is on the work step)."""
    part = path.split(".", 1)[0]
    for step, parts in STEP_PARTS.items():
        if part in parts:
            return step
    return "review"


def anchor_id(path):
    """An HTML id for a field path: 'data.inputs.0.size' -> 'f-data-inputs-0-size'.
    A path about any item ('data.inputs.N.size') points at the group."""
    if ".N." in path:
        path = path.split(".N.", 1)[0]
    return "f-" + path.replace(".", "-").replace("_", "-")


def all_field_paths():
    """Every anchorable field path (an item of a list is written 'N'), for pickers."""
    paths = []
    for part, specs in PART_SPECS.items():
        paths.append(part)
        for spec in specs:
            paths.append(f"{part}.{spec.name}")
            for child in spec.children:
                paths.append(f"{part}.{spec.name}.N.{child.name}")
    return paths


# --- Form values <-> stored draft data -------------------------------------------------


def values_from_post(post, parts):
    """Collect the posted values of some parts into nested plain data.

    Empty inputs mean "not declared", numbers stay as typed (the loader converts them
    and reports what it cannot), and repeated groups are renumbered in order."""
    data = {}
    for part in parts:
        data[part] = _collect(post, part, PART_SPECS[part])
    return data


def _collect(post, prefix, specs):
    result = {}
    for spec in specs:
        path = spec.path(prefix)
        if spec.kind == "group":
            indices = sorted(
                {
                    int(key[len(path) + 1 :].split(".", 1)[0])
                    for key in post
                    if key.startswith(path + ".")
                    and re.fullmatch(r"[0-9]{1,6}", key[len(path) + 1 :].split(".", 1)[0])
                }
            )
            items = [_collect(post, f"{path}.{i}", spec.children) for i in indices[:50]]
            if items:
                result[spec.name] = items
            continue
        raw = post.get(path)
        if raw is None:
            continue
        raw = raw.strip()
        if raw == "":
            continue
        if spec.kind == "bool":
            result[spec.name] = {"true": True, "false": False}.get(raw, raw)
        elif spec.kind == "lines":
            result[spec.name] = [line.strip() for line in raw.splitlines() if line.strip()]
        elif spec.kind == "int" and re.fullmatch(r"-?[0-9]{1,11}", raw):
            result[spec.name] = int(raw)
        elif spec.kind == "float":
            # NaN and infinity are not JSON: keep such text as typed for the check to report.
            try:
                number = float(raw) if len(raw) < 30 else None
            except ValueError:
                number = None
            result[spec.name] = number if number is not None and math.isfinite(number) else raw
        else:
            result[spec.name] = raw[:200_000]
    return result


def display_value(value, spec):
    """Stored value -> the text shown in an input."""
    if value is None:
        return ""
    if spec.kind == "bool":
        return "true" if value is True else "false" if value is False else str(value)
    if spec.kind == "lines" and isinstance(value, list):
        return "\n".join(map(str, value))
    if isinstance(value, int | float) and math.isfinite(value):
        return number_for_people(value)
    return str(value)


def is_group(part, name):
    return any(s.name == name and s.kind == "group" for s in PART_SPECS.get(part, []))


def field_label(path):
    """'data.inputs.0.size' -> 'Data › Input 1 › Size' (and '…N…' -> 'each input'), for people."""
    if path == "name":
        return "Job name"
    if path == "version":
        return "Format version"
    bits = path.split(".")
    if bits[0] not in PART_SPECS:
        return path
    out, specs, i = [PART_TITLES[bits[0]]], PART_SPECS[bits[0]], 1
    while i < len(bits):
        spec = next((s for s in specs if s.name == bits[i]), None)
        if spec is None:
            return path
        if spec.kind == "group" and i + 1 < len(bits):
            index = bits[i + 1]
            item = spec.item_label
            out.append(f"{item} {int(index) + 1}" if is_number(index) else f"each {item.lower()}")
            specs, i = spec.children, i + 2
        else:
            out.append(spec.label)
            specs, i = spec.children, i + 1
    return " › ".join(out)


def spec_at(path):
    """The FieldSpec a dotted path names ('data.inputs.0.size'), or None."""
    bits = path.split(".")
    specs = PART_SPECS.get(bits[0])
    if specs is None:
        return None
    spec, i = None, 1
    while i < len(bits):
        spec = next((s for s in specs if s.name == bits[i]), None)
        if spec is None:
            return None
        if spec.kind == "group" and i + 1 < len(bits):
            specs, i = spec.children, i + 2
        else:
            specs, i = spec.children, i + 1
    return spec


def readable_value(path, value):
    """A stored value as a person reads it: Yes/No, a choice's label, a list one per line,
    text as typed, numbers as people write them (a revision stores 9000 for "9,000": it
    reads "9,000" again). None (not said) is the empty string."""
    if value is None or value == "":
        return ""
    spec = spec_at(path)
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if spec is not None and spec.kind == "choice":
        labels = dict(spec.choices)
        return labels.get(value, str(value))
    if isinstance(value, list):
        return "\n".join(map(str, value))
    if isinstance(value, int | float) and math.isfinite(value):
        return number_for_people(value)
    if spec is not None and spec.unit == UNITS[When]:
        return When.of(str(value)).in_words()
    return str(value)


# --- The form's words, not the file's -------------------------------------------------


def _walk_specs(specs):
    for s in specs:
        yield s
        yield from _walk_specs(s.children)


_FORM_NAMES = {s.name: s.label for specs in PART_SPECS.values() for s in _walk_specs(specs)}
_FORM_CHOICES = {
    value: label
    for specs in PART_SPECS.values()
    for s in _walk_specs(specs)
    for value, label in s.choices
}
_QUOTED = re.compile(r"(“[^”]*”)")
_STATE = re.compile(r"\b(?:state |set )?([a-z]+(?:_[a-z]+)+): (true|false)\b")
_EXAMPLE_BOOL = re.compile(r"(For example|e\.g\.):? (true|false)\b")
_TOKEN = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


_TRUE_IF = re.compile(r"^(True|False) (only )?if ")
_TRUE_TO = re.compile(r"^True to (state )?")


def help_words(text):
    """A field's help from the format in the form's words: the field sits beside its label
    and its answers are Yes and No, so "True if…" reads "Yes if…", and a note of which shape
    it applies to goes (the form shows the field only for that shape)."""
    text = _ONLY_WITH_SHAPE.sub("", str(text or ""))
    text = _TRUE_IF.sub(lambda m: f"{'Yes' if m[1] == 'True' else 'No'} {m[2] or ''}if ", text)
    text = _TRUE_TO.sub("Choose Yes to state ", text)
    return form_words(text)


def form_words(text):
    """A message or help text from the format ("state no_inputs: true", "choose wait,
    fewer_nodes…") in the words of the form ("choose Yes for “The job reads no data”",
    "fewer nodes"). Only known field names and choices change; what the person typed
    (between “ ”) is left alone. The CLI and the API keep the file's words."""
    out = []
    for piece in _QUOTED.split(str(text or "")):
        if piece.startswith("“"):
            out.append(piece)
            continue
        piece = _STATE.sub(
            lambda m: (
                f"choose {'Yes' if m[2] == 'true' else 'No'} for “{_FORM_NAMES[m[1]]}”"
                if m[1] in _FORM_NAMES
                else m[0]
            ),
            piece,
        )
        piece = _EXAMPLE_BOOL.sub(lambda m: f"{m[1]}: {'Yes' if m[2] == 'true' else 'No'}", piece)
        piece = _TOKEN.sub(
            lambda m: (
                f"“{_FORM_NAMES[m[0]]}”" if m[0] in _FORM_NAMES else _FORM_CHOICES.get(m[0], m[0])
            ),
            piece,
        )
        out.append(piece)
    return "".join(out)
