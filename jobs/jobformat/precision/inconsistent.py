"""Inconsistent declarations: parts of a description that cannot all be true."""

import re

from .. import units
from ..envs import unresolved
from ..instances import is_known_accelerator
from ..issues import Issue
from ..model import Access, LessCompute, Shape
from .common import DATA, SCHED, E, W, _exact

# "8x H100", "8 × A100", "H100 x8": a count typed into the type.
COUNT_IN_TYPE = re.compile(
    r"^\s*(?P<lead>\d+)\s*(?:[x×*]\s*|\s+)(?P<rest>\D.*)$|^(?P<head>.*?\S)(?:\s+[x×*]\s*|\s*[×*]\s*)(?P<tail>\d+)\s*$",
    re.IGNORECASE,
)


def count_in_type(name):
    """(count, model) for "8x H100" typed as an accelerator type, else None. The intake form
    asks the same of its own type box."""
    counted = COUNT_IN_TYPE.match(name)
    if not counted:
        return None
    return counted["lead"] or counted["tail"], (counted["rest"] or counted["head"]).strip()


def _accelerator_types(r):
    out = []
    for i, accelerator in enumerate(r.accelerators or []):
        name = (accelerator.type or "").strip()
        if not name:
            continue
        field = f"request.accelerators.{i}.type"
        counted = count_in_type(name)
        if counted:
            count, model = counted
            out.append(
                Issue(
                    field,
                    E,
                    "count_in_type",
                    f"{units.quoted(name)} has a count in it: write {units.quoted(model)} here "
                    f"and {count} in Count (per node).",
                    SCHED,
                )
            )
        elif not is_known_accelerator(name):
            out.append(
                Issue(
                    field,
                    W,
                    "unknown_accelerator",
                    f"{units.quoted(name)} is not an accelerator model the network knows: name "
                    "it as the vendor does, e.g. H100-80GB, A100-40GB, L40S, L4 or MI300X.",
                    SCHED,
                )
            )
    return out


def _inconsistent(d):
    out = []
    w, data, r = d.work, d.data, d.request
    out += _accelerator_types(r)
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
                    f"The job runs {r.estimate.text} but the window from earliest start to "
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
                    f"The maximum ({r.maximum.text}) is longer than the window "
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
    if r.no_accelerators and r.accelerators:
        out.append(
            Issue(
                "request.no_accelerators",
                E,
                "accelerators_and_no_accelerators",
                "no_accelerators is set but accelerators are listed: keep one.",
                SCHED,
            )
        )
    for path, location in _locations(d):
        names = unresolved(location)
        if names:
            out.append(
                Issue(
                    path,
                    W,
                    "unresolved_variable",
                    f"{location} uses {', '.join('$' + n for n in names)}, which has no value here: "
                    "write the location it stands for.",
                    DATA,
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
    copied = [i.size for i in (data.inputs or []) if i.access == Access.COPY and _exact(i.size)]
    scratch = _exact(data.scratch)
    if copied and scratch and sum(q.value for q in copied) > scratch:
        # Sizes are printed as the team typed them ('1.8 TiB', not its bytes).
        total = " + ".join(q.text for q in copied)
        if len(copied) > 1:  # and the sum as a person would write it
            total += f" = {units.size_for_people(sum(q.value for q in copied))}"
        out.append(
            Issue(
                "data.scratch",
                E,
                "data_exceeds_scratch",
                f"{total} is copied before start but each node has {data.scratch.text} of "
                "scratch disk.",
                DATA,
            )
        )
    if w.shape in (Shape.GANG, Shape.CHAIN) and r.less_compute == LessCompute.FEWER_SHARDS:
        out.append(
            Issue(
                "request.less_compute",
                E,
                "fewer_shards_for_gang",
                "A gang job has no shards to drop: choose wait, fewer_nodes or run_longer.",
                SCHED,
            )
        )
    if w.shape in (Shape.GANG, Shape.CHAIN) and w.shards:
        out.append(
            Issue(
                "work.shards",
                W,
                "shards_for_gang",
                f"Shards are set but the shape is {w.shape}: is it shards?",
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
                f"You expect {units.number_for_people(expected)} accelerator-hours but the "
                f"request is {units.number_for_people(requested)} "
                f"(count × nodes × estimate). Explain the difference or correct one of them.",
            )
        )
    expected, requested = r.expected_node_hours, requested_node_hours(d)
    if expected is not None and requested and abs(expected - requested) > 0.25 * requested:
        out.append(
            Issue(
                "request.expected_node_hours",
                W,
                "expected_hours_mismatch",
                f"You expect {units.number_for_people(expected)} node-hours but the request is "
                f"{units.number_for_people(requested)} "
                f"(nodes × estimate). Explain the difference or correct one of them.",
            )
        )
    return out


def _locations(d):
    for i, item in enumerate(d.data.inputs or []):
        yield f"data.inputs.{i}.location", item.location
    for i, art in enumerate(d.output.artifacts or []):
        yield f"output.artifacts.{i}.destination", art.destination
    yield "request.checkpoint_location", d.request.checkpoint_location


def requested_node_hours(d):
    """Node-hours the request asks for (nodes × estimate): the unit of a CPU-only job."""
    est = _exact(d.request.estimate)
    if not (d.request.nodes and est):
        return None
    return d.request.nodes * est / 3600


def requested_accelerator_hours(d):
    r = d.request
    est = _exact(r.estimate)
    if not (r.accelerators and r.accelerators[0].count and r.nodes and est):
        return None
    return r.accelerators[0].count * r.nodes * est / 3600
