"""Missing declarations: what the network needs and the description leaves out.

RULES is the whole check, in the order its issues come out. A row raises its issue when its
field is unset (None, or an empty list) and its condition holds; the message then ends with
the field's example from the format, so the two never disagree. A function in the table
yields issues whose messages name a value."""

import functools
from collections.abc import Callable
from dataclasses import dataclass

from ..issues import Issue, Level, Problem
from ..model import Shape
from .common import DATA, DECLARE, SCHED, E, W, example


@dataclass(frozen=True)
class Rule:
    field: str
    code: str
    level: Level
    problem: Problem
    when: Callable  # the description -> whether the rule applies to it
    message: str
    example: bool = True  # False where the message already says what to write


@dataclass(frozen=True)
class Each:
    """Rules for every item of the list at `field`, item by item; their fields are the item's."""

    field: str
    rules: tuple[Rule, ...]


def always(d):
    return True


def cpu_only(d):
    # The ledger counts such a job in node-hours, any other in accelerator-hours.
    return bool(d.request.no_accelerators and not d.request.accelerators)


def unclear_directions(d):
    # The location itself is the question, so the message names it.
    for i, entry in enumerate(d.data.unclassified or []):
        yield Issue(
            f"data.unclassified.{i}",
            W,
            "unclear_data_direction",
            f"{entry}: does the job read this, write its output there, or keep checkpoints "
            "there? Move it to data inputs, output artifacts or the checkpoint location.",
            DATA,
        )


# Each row: field, code, level, problem, when it applies (besides the field being unset); then
# the message.
RULES = (
    Rule("work.kind", "missing_work_kind", E, DECLARE, always,
         "Say what kind of work this is."),
    Rule("work.summary", "missing_summary", E, DECLARE, always,
         "Describe the work in a sentence or two."),
    Rule("work.command", "missing_command", E, DECLARE, lambda d: d.work.image is None,
         "Say exactly what runs: a container image and the command."),
    Rule("work.shape", "missing_shape", E, SCHED, always,
         "Say whether the nodes form one gang or the work splits into independent shards."),
    Rule("work.shards", "missing_shard_count", E, SCHED, lambda d: d.work.shape == Shape.SHARDS,
         "Say how many shards the work splits into."),
    Rule("work.chain_runs", "missing_chain_runs", E, SCHED, lambda d: d.work.shape == Shape.CHAIN,
         "Say how many runs follow one another."),
    unclear_directions,
    Rule("work.amount", "missing_amount", W, DECLARE, always,
         "Say how much work there is, in your own unit, so speed can be measured."),

    Rule("data.inputs", "missing_data", E, DATA, lambda d: not d.data.no_inputs,
         "List what the job reads (location, size, format, how it reaches compute), "
         "or state no_inputs: true.", example=False),
    Each("data.inputs", (
        Rule("location", "missing_data_location", E, DATA, always,
             "Say where this input is now, as a URI."),
        Rule("size", "missing_data_size", E, DATA, always,
             "Say how large this input is, with a unit."),
        Rule("access", "missing_data_access", E, DATA, always,
             "Say how the data reaches compute: stream, copy_before_start or cached_mount."),
        Rule("format", "missing_data_format", W, DATA, always,
             "Say what format the data is in."),
        Rule("objects", "missing_object_count", W, DATA, always,
             "Say how many files or objects there are (many small files stage slowly)."),
        Rule("region", "missing_data_region", W, DATA, always,
             "Say which region or site holds the data."),
    )),
    Rule("data.scratch", "missing_scratch", W, DATA, lambda d: bool(d.data.inputs),
         "Say how much local disk each node needs."),
    Rule("data.stage_before_rent", "missing_staging", W, DATA, lambda d: bool(d.data.inputs),
         "Say whether the data can be staged before accelerators are rented."),

    Rule("request.accelerators", "missing_accelerator", E, SCHED,
         lambda d: not d.request.no_accelerators,
         "Name the accelerator type and how many per node, e.g. H100-80GB × 8, "
         "or state no_accelerators: true for a CPU-only job.", example=False),
    Each("request.accelerators", (
        Rule("type", "missing_accelerator_type", E, SCHED, always,
             "Name the accelerator model."),
        Rule("count", "missing_accelerator_count", E, SCHED, always,
             "Say how many of this accelerator each node needs."),
    )),
    Rule("request.nodes", "missing_nodes", E, SCHED, always,
         "Say how many nodes you want."),
    Rule("request.estimate", "missing_duration", E, SCHED, lambda d: not d.request.until_done,
         "Say how long the job runs, or that it runs until done (with a maximum)."),
    # A job that runs until done has nothing else that stops it.
    Rule("request.maximum", "missing_maximum", E, SCHED, lambda d: d.request.until_done,
         "Give a hard maximum after which the job is stopped."),
    Rule("request.maximum", "missing_maximum", W, SCHED, lambda d: not d.request.until_done,
         "Give a hard maximum after which the job is stopped."),
    Rule("request.deadline", "missing_deadline", E, SCHED, lambda d: not d.request.no_deadline,
         "Give a deadline, or state no_deadline: true."),
    Rule("request.on_deadline_missed", "missing_deadline_policy", W, SCHED,
         lambda d: d.request.deadline is not None,
         "Say what happens if the deadline passes: cancel, finish_late or deliver_partial.",
         example=False),
    Rule("request.less_compute", "missing_less_compute", E, SCHED, always,
         "Say what the job does with less compute than asked: wait, fewer_nodes, run_longer or fewer_shards."),
    Rule("request.preemptible", "missing_preemption", E, SCHED, always,
         "Say whether the job survives being stopped and restarted."),
    Rule("request.checkpoint_interval", "missing_checkpoint", W, SCHED,
         lambda d: d.request.preemptible,
         "Say how often the job checkpoints, and where."),
    Rule("request.cpus_per_node", "missing_cpus", W, SCHED, always,
         "Say how many CPU cores each node needs."),
    Rule("request.memory_per_node", "missing_memory", W, SCHED, always,
         "Say how much memory each node needs."),
    Rule("request.expected_node_hours", "missing_expected_hours", E, DECLARE, cpu_only,
         "Say how many node-hours you expect the job to use, so the ledger can be compared."),
    Rule("request.expected_accelerator_hours", "missing_expected_hours", E, DECLARE,
         lambda d: not cpu_only(d),
         "Say how many accelerator-hours you expect the job to use, so the ledger can be compared."),

    Rule("output.artifacts", "missing_output", E, DECLARE, always,
         "List what comes back: each artifact's format and destination.", example=False),
    Each("output.artifacts", (
        Rule("format", "missing_output_format", E, DECLARE, always,
             "Say what format this output is in."),
        Rule("destination", "missing_output_destination", E, DATA, always,
             "Say where this output must land, as a URI."),
        Rule("size", "missing_output_size", W, DATA, always,
             "Say how large this output will be."),
    )),
    Rule("output.delivery", "missing_delivery", E, DECLARE, always,
         "Say when output is delivered: on_exit, on_exit_and_eviction or continuous."),
    Rule("output.partial_useful", "missing_partial", W, DECLARE, always,
         "Say whether a partial result is useful."),
    Rule("output.downstream", "missing_downstream", W, DECLARE, always,
         "Say what the system that consumes the output needs."),

    Rule("realtime.finishes_on_its_own", "missing_realtime_screen", E, DECLARE, always,
         "Say whether the job ends by itself when the work is done."),
    Rule("realtime.serves_requests", "missing_realtime_screen", E, DECLARE, always,
         "Say whether the job answers inbound requests."),
)  # fmt: skip


def _missing(d):
    return list(_evaluate(RULES, d, d, ""))


def _evaluate(rows, d, at, prefix):
    """The issues of `rows`, whose fields are read from `at` and named after `prefix`."""
    for row in rows:
        if isinstance(row, Each):
            for i, item in enumerate(_read(at, row.field) or []):
                yield from _evaluate(row.rules, d, item, f"{prefix}{row.field}.{i}.")
        elif isinstance(row, Rule):
            *parents, name = row.field.split(".")
            owner = functools.reduce(getattr, parents, at)
            if _unset(getattr(owner, name)) and row.when(d):
                message = row.message + (example(type(owner), name) if row.example else "")
                yield Issue(prefix + row.field, row.level, row.code, message, row.problem)
        else:
            yield from row(d)


def _read(at, field):
    return functools.reduce(getattr, field.split("."), at)


def _unset(value):
    return value is None or (isinstance(value, list) and not value)
