"""Missing declarations: what the network needs and the description leaves out."""

from ..issues import Issue
from ..model import Shape
from .common import DATA, DECLARE, SCHED, E, W, example


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
    if w.shape == Shape.CHAIN and w.chain_runs is None:
        out.append(
            Issue(
                "work.chain_runs",
                E,
                "missing_chain_runs",
                "Say how many runs follow one another." + example(type(w), "chain_runs"),
                SCHED,
            )
        )
    for i, entry in enumerate(data.unclassified or []):
        out.append(
            Issue(
                f"data.unclassified.{i}",
                W,
                "unclear_data_direction",
                f"{entry}: does the job read this, write its output there, or keep checkpoints "
                "there? Move it to data inputs, output artifacts or the checkpoint location.",
                DATA,
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

    if not r.accelerators and not r.no_accelerators:
        out.append(
            Issue(
                "request.accelerators",
                E,
                "missing_accelerator",
                "Name the accelerator type and how many per node, e.g. H100-80GB × 8, "
                "or state no_accelerators: true for a CPU-only job.",
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
    if r.no_accelerators and not r.accelerators:
        _need(
            out,
            r,
            "expected_node_hours",
            "request.expected_node_hours",
            "missing_expected_hours",
            "Say how many node-hours you expect the job to use, so the ledger can be compared.",
        )
    else:
        _need(
            out,
            r,
            "expected_accelerator_hours",
            "request.expected_accelerator_hours",
            "missing_expected_hours",
            "Say how many accelerator-hours you expect the job to use, so the ledger can be "
            "compared.",
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
