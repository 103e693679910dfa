"""The precision check: what a description leaves missing, vague or inconsistent.

check(description) returns a list of Issue(field, level, code, message, problem).
Messages say exactly what is missing and give an example of an exact answer,
taken from the format's own field examples so the two never disagree."""

import re

from pydantic import BaseModel

from . import units
from .issues import Issue, Level, Problem
from .model import (
    PARTS,
    Access,
    DataInput,
    Description,
    LessCompute,
    Shape,
)
from .quantities import Quantity
from .realtime import ADVICE, serving_signals

E, W = Level.ERROR, Level.WARNING
DECLARE, DATA, SCHED = Problem.DECLARE, Problem.DATA, Problem.SCHEDULING

# Words and phrases that say "roughly" where the network needs "exactly".
VAGUE = [
    (r"\broughly\b", "roughly"),
    (r"\b(?:about|around|approximately|approx\.?|circa|ca\.)\s*~?\d", "an approximate number"),
    (r"~\s*\d", "an approximate number (~)"),
    (r"\b\d+(?:\.\d+)?\s*-?ish\b|\bish\b", "“-ish”"),
    (r"\ba few\b|\ba couple(?: of)?\b|\bseveral\b", "a vague count"),
    (r"\blots\b|\ba lot\b|\bloads of\b|\btons of\b", "a vague amount"),
    (r"\bTBD\b|\bTBC\b|\bto be (?:determined|confirmed|decided)\b", "TBD"),
    (r"\b(?:as soon as possible|ASAP)\b", "as soon as possible"),
    (r"\bthe usual\b|\bas usual\b|\bas needed\b|\bwhatever\b", "an unstated convention"),
    (r"\bor so\b|\bmore or less\b|\bgive or take\b", "an approximate number"),
    (r"\buntil (?:it )?converges?\b|\buntil convergence\b", "“until it converges”"),
    (r"\b(?:maybe|probably|perhaps|not sure|unknown)\b", "uncertainty"),
]
RANGE = re.compile(r"\d\s*(?:-|–|to)\s*\d")

# Text fields read by people; commands and URIs are not scanned for vague words.
PROSE_FIELDS = {
    ("work", "summary"),
    ("output", "downstream"),
}
PROSE_LIST_FIELDS = {
    ("data", "inputs"): ("format",),
    ("output", "artifacts"): ("format", "name"),
}


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


def check(description: Description):
    # The real-time screen comes first: if it fires, nothing else matters much.
    return (
        _realtime(description)
        + _missing(description)
        + _vague(description)
        + _inconsistent(description)
    )


def has_errors(issues):
    return any(issue.level == E for issue in issues)


def _need(issues, obj, name, field, code, message, level=E, problem=DECLARE):
    if getattr(obj, name) is None:
        issues.append(Issue(field, level, code, message + example(type(obj), name), problem))


def _missing(d):
    out = []
    w, data, r, o, rt = d.work, d.data, d.request, d.output, d.realtime
    _need(out, w, "kind", "work.kind", "missing_work_kind", "Say what kind of work this is.")
    _need(
        out,
        w,
        "summary",
        "work.summary",
        "missing_summary",
        "Describe the work in a sentence or two.",
    )
    if w.command is None and w.image is None:
        out.append(
            Issue(
                "work.command",
                E,
                "missing_command",
                "Say exactly what runs: a container image and the command."
                + example(type(w), "command"),
            )
        )
    _need(
        out,
        w,
        "shape",
        "work.shape",
        "missing_shape",
        "Say whether the nodes form one gang or the work splits into independent shards.",
        problem=SCHED,
    )
    if w.shape == Shape.SHARDS and w.shards is None:
        out.append(
            Issue(
                "work.shards",
                E,
                "missing_shard_count",
                "Say how many shards the work splits into." + example(type(w), "shards"),
                SCHED,
            )
        )
    _need(
        out,
        w,
        "amount",
        "work.amount",
        "missing_amount",
        "Say how much work there is, in your own unit, so speed can be measured.",
        level=W,
    )

    if not data.inputs and not data.no_inputs:
        out.append(
            Issue(
                "data.inputs",
                E,
                "missing_data",
                "List what the job reads (location, size, format, how it reaches compute), "
                "or state no_inputs: true.",
                DATA,
            )
        )
    for i, item in enumerate(data.inputs or []):
        base = f"data.inputs.{i}"
        _need(
            out,
            item,
            "location",
            f"{base}.location",
            "missing_data_location",
            "Say where this input is now, as a URI.",
            problem=DATA,
        )
        _need(
            out,
            item,
            "size",
            f"{base}.size",
            "missing_data_size",
            "Say how large this input is, with a unit.",
            problem=DATA,
        )
        _need(
            out,
            item,
            "access",
            f"{base}.access",
            "missing_data_access",
            "Say how the data reaches compute: stream, copy_before_start or cached_mount.",
            problem=DATA,
        )
        _need(
            out,
            item,
            "format",
            f"{base}.format",
            "missing_data_format",
            "Say what format the data is in.",
            level=W,
            problem=DATA,
        )
        _need(
            out,
            item,
            "objects",
            f"{base}.objects",
            "missing_object_count",
            "Say how many files or objects there are (many small files stage slowly).",
            level=W,
            problem=DATA,
        )
        _need(
            out,
            item,
            "region",
            f"{base}.region",
            "missing_data_region",
            "Say which region or site holds the data.",
            level=W,
            problem=DATA,
        )
    if data.inputs:
        _need(
            out,
            data,
            "scratch",
            "data.scratch",
            "missing_scratch",
            "Say how much local disk each node needs.",
            level=W,
            problem=DATA,
        )
        _need(
            out,
            data,
            "stage_before_rent",
            "data.stage_before_rent",
            "missing_staging",
            "Say whether the data can be staged before accelerators are rented.",
            level=W,
            problem=DATA,
        )

    if not r.accelerators:
        out.append(
            Issue(
                "request.accelerators",
                E,
                "missing_accelerator",
                "Name the accelerator type and how many per node, e.g. H100-80GB × 8.",
                SCHED,
            )
        )
    for i, acc in enumerate(r.accelerators or []):
        _need(
            out,
            acc,
            "type",
            f"request.accelerators.{i}.type",
            "missing_accelerator_type",
            "Name the accelerator model.",
            problem=SCHED,
        )
        _need(
            out,
            acc,
            "count",
            f"request.accelerators.{i}.count",
            "missing_accelerator_count",
            "Say how many of this accelerator each node needs.",
            problem=SCHED,
        )
    _need(
        out,
        r,
        "nodes",
        "request.nodes",
        "missing_nodes",
        "Say how many nodes you want.",
        problem=SCHED,
    )
    if r.estimate is None and not r.until_done:
        out.append(
            Issue(
                "request.estimate",
                E,
                "missing_duration",
                "Say how long the job runs, or that it runs until done (with a maximum)."
                + example(type(r), "estimate"),
                SCHED,
            )
        )
    if r.maximum is None:
        out.append(
            Issue(
                "request.maximum",
                E if r.until_done else W,
                "missing_maximum",
                "Give a hard maximum after which the job is stopped." + example(type(r), "maximum"),
                SCHED,
            )
        )
    if r.deadline is None and not r.no_deadline:
        out.append(
            Issue(
                "request.deadline",
                E,
                "missing_deadline",
                "Give a deadline, or state no_deadline: true." + example(type(r), "deadline"),
                SCHED,
            )
        )
    if r.deadline is not None and r.on_deadline_missed is None:
        out.append(
            Issue(
                "request.on_deadline_missed",
                W,
                "missing_deadline_policy",
                "Say what happens if the deadline passes: cancel, finish_late or deliver_partial.",
                SCHED,
            )
        )
    _need(
        out,
        r,
        "less_compute",
        "request.less_compute",
        "missing_less_compute",
        "Say what the job does with less compute than asked: wait, fewer_nodes, run_longer or fewer_shards.",
        problem=SCHED,
    )
    _need(
        out,
        r,
        "preemptible",
        "request.preemptible",
        "missing_preemption",
        "Say whether the job survives being stopped and restarted.",
        problem=SCHED,
    )
    if r.preemptible and r.checkpoint_interval is None:
        out.append(
            Issue(
                "request.checkpoint_interval",
                W,
                "missing_checkpoint",
                "Say how often the job checkpoints, and where."
                + example(type(r), "checkpoint_interval"),
                SCHED,
            )
        )
    _need(
        out,
        r,
        "cpus_per_node",
        "request.cpus_per_node",
        "missing_cpus",
        "Say how many CPU cores each node needs.",
        level=W,
        problem=SCHED,
    )
    _need(
        out,
        r,
        "memory_per_node",
        "request.memory_per_node",
        "missing_memory",
        "Say how much memory each node needs.",
        level=W,
        problem=SCHED,
    )
    _need(
        out,
        r,
        "expected_accelerator_hours",
        "request.expected_accelerator_hours",
        "missing_expected_hours",
        "Say how many accelerator-hours you expect to be billed for, so the ledger can be compared.",
    )

    if not o.artifacts:
        out.append(
            Issue(
                "output.artifacts",
                E,
                "missing_output",
                "List what comes back: each artifact's format and destination.",
            )
        )
    for i, art in enumerate(o.artifacts or []):
        base = f"output.artifacts.{i}"
        _need(
            out,
            art,
            "format",
            f"{base}.format",
            "missing_output_format",
            "Say what format this output is in.",
        )
        _need(
            out,
            art,
            "destination",
            f"{base}.destination",
            "missing_output_destination",
            "Say where this output must land, as a URI.",
            problem=DATA,
        )
        _need(
            out,
            art,
            "size",
            f"{base}.size",
            "missing_output_size",
            "Say how large this output will be.",
            level=W,
            problem=DATA,
        )
    _need(
        out,
        o,
        "delivery",
        "output.delivery",
        "missing_delivery",
        "Say when output is delivered: on_exit, on_exit_and_eviction or continuous.",
    )
    _need(
        out,
        o,
        "partial_useful",
        "output.partial_useful",
        "missing_partial",
        "Say whether a partial result is useful.",
        level=W,
    )
    _need(
        out,
        o,
        "downstream",
        "output.downstream",
        "missing_downstream",
        "Say what the system that consumes the output needs.",
        level=W,
    )

    _need(
        out,
        rt,
        "finishes_on_its_own",
        "realtime.finishes_on_its_own",
        "missing_realtime_screen",
        "Say whether the job ends by itself when the work is done.",
    )
    _need(
        out,
        rt,
        "serves_requests",
        "realtime.serves_requests",
        "missing_realtime_screen",
        "Say whether the job answers inbound requests.",
    )
    return out


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


def _vague_words(text):
    return [label for pattern, label in VAGUE if re.search(pattern, text, flags=re.IGNORECASE)]


def _vague(d):
    out = []
    for path, q in _walk_quantities(d):
        if q.exact:
            continue
        words = _vague_words(q.text)
        if words:
            msg = f"“{q.text}” is {words[0]}, not an exact value. {q.error}"
            code = "vague_wording"
        elif RANGE.search(q.text):
            msg = f"“{q.text}” is a range. Give the one value to plan for. {q.error}"
            code = "vague_range"
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
        words = _vague_words(text)
        if words:
            out.append(
                Issue(
                    path,
                    W,
                    "vague_wording",
                    f"This says {words[0]} where the network needs an exact declaration: "
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


def _inconsistent(d):
    out = []
    w, data, r = d.work, d.data, d.request
    if r.nodes and r.min_nodes and r.min_nodes > r.nodes:
        out.append(
            Issue(
                "request.min_nodes",
                E,
                "min_nodes_above_nodes",
                f"The minimum ({r.min_nodes} nodes) is above the nodes you want ({r.nodes}).",
                SCHED,
            )
        )
    start, deadline = _exact(r.earliest_start), _exact(r.deadline)
    if start and deadline and deadline <= start:
        out.append(
            Issue(
                "request.deadline",
                E,
                "deadline_before_start",
                "The deadline is not after the earliest start.",
                SCHED,
            )
        )
    elif start and deadline:
        window = (deadline - start).total_seconds()
        est, mx = _exact(r.estimate), _exact(r.maximum)
        if est and est > window:
            out.append(
                Issue(
                    "request.estimate",
                    E,
                    "duration_exceeds_window",
                    f"The job runs {units.format_duration(est)} but the window from earliest start to "
                    f"deadline is {units.format_duration(int(window))}.",
                    SCHED,
                )
            )
        elif mx and mx > window:
            out.append(
                Issue(
                    "request.maximum",
                    W,
                    "maximum_exceeds_window",
                    f"The maximum ({units.format_duration(mx)}) is longer than the window "
                    f"({units.format_duration(int(window))}): say what happens at the deadline.",
                    SCHED,
                )
            )
    est, mx = _exact(r.estimate), _exact(r.maximum)
    if est and mx and est > mx:
        out.append(
            Issue(
                "request.estimate",
                E,
                "estimate_above_maximum",
                "The estimate is longer than the hard maximum.",
                SCHED,
            )
        )
    if r.no_deadline and r.deadline is not None:
        out.append(
            Issue(
                "request.no_deadline",
                E,
                "deadline_and_no_deadline",
                "Both a deadline and no_deadline are set: keep one.",
                SCHED,
            )
        )
    if data.no_inputs and data.inputs:
        out.append(
            Issue(
                "data.no_inputs",
                E,
                "inputs_and_no_inputs",
                "no_inputs is set but inputs are listed: keep one.",
                DATA,
            )
        )
    copied = [
        _exact(i.size) for i in (data.inputs or []) if i.access == Access.COPY and _exact(i.size)
    ]
    scratch = _exact(data.scratch)
    if copied and scratch and sum(copied) > scratch:
        out.append(
            Issue(
                "data.scratch",
                E,
                "data_exceeds_scratch",
                f"{units.format_size(sum(copied))} is copied before start but each node has "
                f"{units.format_size(scratch)} of scratch disk.",
                DATA,
            )
        )
    if w.shape == Shape.GANG and r.less_compute == LessCompute.FEWER_SHARDS:
        out.append(
            Issue(
                "request.less_compute",
                E,
                "fewer_shards_for_gang",
                "A gang job has no shards to drop: choose wait, fewer_nodes or run_longer.",
                SCHED,
            )
        )
    if w.shape == Shape.GANG and w.shards:
        out.append(
            Issue(
                "work.shards",
                W,
                "shards_for_gang",
                "Shards are set but the shape is gang: is it shards?",
                SCHED,
            )
        )
    expected = r.expected_accelerator_hours
    requested = requested_accelerator_hours(d)
    if expected is not None and requested and abs(expected - requested) > 0.25 * requested:
        out.append(
            Issue(
                "request.expected_accelerator_hours",
                W,
                "expected_hours_mismatch",
                f"You expect {expected:g} accelerator-hours but the request is {requested:g} "
                f"(count × nodes × estimate). Explain the difference or correct one of them.",
            )
        )
    return out


def requested_accelerator_hours(d):
    r = d.request
    est = _exact(r.estimate)
    if not (r.accelerators and r.accelerators[0].count and r.nodes and est):
        return None
    return r.accelerators[0].count * r.nodes * est / 3600


def _realtime(d):
    out = []
    rt = d.realtime
    reasons = []
    if rt.serves_requests:
        reasons.append("it answers inbound requests")
    if rt.latency_bound is not None:
        reasons.append(f"it needs a per-request latency of {rt.latency_bound}")
    if rt.finishes_on_its_own is False:
        reasons.append("it does not finish on its own")
    if reasons:
        out.append(
            Issue(
                "realtime",
                E,
                "not_a_network_job",
                f"This is real-time work, not a network job: {', '.join(reasons)}. {ADVICE}",
            )
        )
    elif signals := serving_signals(d.work.command, d.work.setup):
        out.append(
            Issue(
                "work.command",
                W,
                "looks_like_a_service",
                f"The command {signals[0]}. If the job serves requests, it is not a network job. "
                f"{ADVICE}",
            )
        )
    return out


def _exact(q):
    if q is None:
        return None
    return q.value if q.exact else None


def input_bytes(item: DataInput):
    return _exact(item.size)
