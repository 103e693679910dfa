"""Declared next to observed, for one run: what the job said it would be and what the network
saw, figure by figure, with the ratio and a plain sentence, a chart, and, when a gap is large
enough, the finding that reports it (pre-filled).

The scheduler reports what it measured as optional `observed` values on events and holds
(OBSERVED_KEYS). Byte counts are totals for the run so far (the largest report wins); the
nodes granted and the exit reason are as last reported."""

from dataclasses import dataclass, field
from functools import cached_property

from django.db import transaction
from django.utils import timezone

from jobs.jobformat.units import format_duration, size_for_people
from jobs.runs.models import EventStatus, Phase, RunOutcome, RunState
from portal.errors import DomainError

from . import ledger as ledger_mod
from . import timeline

MAX_BYTES = 10**21  # a zettabyte, as the format's sizes
OBSERVED_KEYS = (
    "bytes_staged", "bytes_delivered", "nodes_granted", "exit_reason",
    # What an attempt of the run used (USAGE_KEYS), and who cancelled it.
    "elapsed_seconds", "time_limit_seconds", "memory_requested_bytes", "peak_memory_bytes",
    "cpus_allocated", "cpu_seconds", "cpu_held_seconds", "exit_code", "signal",
    "tres_allocated", "gpu_memory_bytes", "gpu_utilization_percent", "cancelled_by",
    # Read from the engine's live records, not its accounting (Slurm without slurmdbd).
    "estimated",
)  # fmt: skip
# Figures read from times and holds: estimated when the engine kept no accounting.
TIMED = ("duration", "hours", "hours_running", "time_limit")
# Whole numbers, with their bounds; per attempt of the run (the last attempt's stand, except
# the peaks, the largest of any attempt, and CPU time, summed over attempts).
WHOLE = {
    "elapsed_seconds": (0, 10**10), "time_limit_seconds": (0, 10**10),
    "memory_requested_bytes": (0, MAX_BYTES), "peak_memory_bytes": (0, MAX_BYTES),
    "cpus_allocated": (1, 10**9), "exit_code": (0, 255), "signal": (0, 255),
    "gpu_memory_bytes": (0, MAX_BYTES),
}  # fmt: skip
DECIMAL = {"cpu_seconds": 1e15, "cpu_held_seconds": 1e15, "gpu_utilization_percent": 100_000}
PEAKS = ("peak_memory_bytes", "gpu_memory_bytes", "gpu_utilization_percent")
SUMMED = ("cpu_seconds", "cpu_held_seconds")
CANCELLED_BY = {"partner": "a member of the team", "staff": "staff", "cluster": "the cluster"}

# The staging time a declared data size implies: that size over a 10 Gbit/s link, the
# network's reference bandwidth (and the simulator's).
REFERENCE_BANDWIDTH = 1.25e9  # bytes per second
# A gap is worth a finding when observed is this many times declared (or its inverse)...
GAP_RATIO = 1.5
# ...and the difference is not trivially small.
GAP_SECONDS = 600
GAP_BYTES = 10**9
GAP_MEMORY = 2**30  # a GiB per node
GAP_CPU_SECONDS = 600  # CPU-seconds held and not used

LESS_COMPUTE = {
    "wait": "wait for the nodes it asked for",
    "fewer_nodes": "run on fewer nodes",
    "run_longer": "run longer on fewer nodes",
    "fewer_shards": "run fewer shards",
}


def clean_observed(values):
    """The observed values a scheduler sent, checked; None and absent keys are left out."""
    values = {k: v for k, v in (values or {}).items() if v is not None and v != ""}
    unknown = set(values) - set(OBSERVED_KEYS)
    if unknown:
        raise DomainError(f"Unknown observed values: {', '.join(sorted(unknown))}.")
    clean = {}
    for key in ("bytes_staged", "bytes_delivered"):
        if key in values:
            value = values[key]
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_BYTES:
                raise DomainError(f"{key} is a whole number of bytes, 0 to 10^21.")
            clean[key] = value
    if "nodes_granted" in values:
        value = values["nodes_granted"]
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100_000:
            raise DomainError("nodes_granted is a whole number from 1 to 100,000.")
        clean["nodes_granted"] = value
    for key in ("exit_reason", "tres_allocated"):
        if key in values:
            value = values[key]
            if not isinstance(value, str) or len(value) > 200:
                raise DomainError(f"{key} is a text of at most 200 characters.")
            clean[key] = " ".join(value.split())
    for key, (low, high) in WHOLE.items():
        if key in values:
            value = values[key]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise DomainError(f"{key} is a whole number from {low} to {high:g}.")
            clean[key] = value
    for key, high in DECIMAL.items():
        if key in values:
            value = values[key]
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise DomainError(f"{key} is a number from 0 to {high:g}.")
            if not 0 <= value <= high:
                raise DomainError(f"{key} is a number from 0 to {high:g}.")
            clean[key] = float(value)
    if "estimated" in values:
        if not isinstance(values["estimated"], bool):
            raise DomainError("estimated is true or false.")
        if values["estimated"]:
            clean["estimated"] = True
    if "cancelled_by" in values:
        if values["cancelled_by"] not in CANCELLED_BY:
            raise DomainError(f"cancelled_by is one of {', '.join(CANCELLED_BY)}.")
        clean["cancelled_by"] = values["cancelled_by"]
    return clean


@dataclass
class Reports:
    bytes_staged: int | None = None
    bytes_delivered: int | None = None
    nodes_granted: int | None = None
    exit_reason: str = ""
    elapsed_seconds: int | None = None
    time_limit_seconds: int | None = None
    memory_requested_bytes: int | None = None
    peak_memory_bytes: int | None = None
    cpus_allocated: int | None = None
    cpu_seconds: float | None = None
    cpu_held_seconds: float | None = None
    exit_code: int | None = None
    signal: int | None = None
    tres_allocated: str = ""
    gpu_memory_bytes: int | None = None
    gpu_utilization_percent: float | None = None
    cancelled_by: str = ""
    estimated: bool = False


def reports(events, holds):
    """What the scheduler measured, from applied events and holds, in the order it happened."""
    timed = [(e.occurred_at, e.observed) for e in events if e.status == EventStatus.APPLIED]
    timed += [(h.ended_at or h.started_at, h.observed) for h in holds]
    out = Reports()
    for _, values in sorted((t for t in timed if t[1]), key=lambda t: t[0]):
        for key in ("bytes_staged", "bytes_delivered"):
            if values.get(key) is not None:
                setattr(out, key, max(getattr(out, key) or 0, values[key]))
        if values.get("nodes_granted"):
            out.nodes_granted = values["nodes_granted"]
        if values.get("exit_reason"):
            out.exit_reason = values["exit_reason"]
        out.estimated = out.estimated or bool(values.get("estimated"))
        for key in PEAKS:
            if values.get(key) is not None:
                setattr(out, key, max(getattr(out, key) or 0, values[key]))
        for key in SUMMED:
            if values.get(key) is not None:
                setattr(out, key, (getattr(out, key) or 0) + values[key])
        for key in ("elapsed_seconds", "time_limit_seconds", "memory_requested_bytes",
                    "cpus_allocated", "exit_code", "signal", "tres_allocated", "cancelled_by"):  # fmt: skip
            if values.get(key) not in (None, ""):
                setattr(out, key, values[key])
    return out


def approx_size(nbytes):
    """Three significant figures, powers of 1000: 3_100_000_000_000 -> '3.1 TB'."""
    if nbytes is None:
        return "—"
    value, unit = float(nbytes), "B"
    for unit in ("B", "KB", "MB", "GB", "TB", "PB", "EB", "ZB"):
        if value < 1000 or unit == "ZB":
            break
        value /= 1000
    return f"{value:.3g} {unit}"


def approx_duration(seconds):
    if seconds is None:
        return "—"
    seconds = int(round(seconds))
    if seconds >= 3 * 86400:  # days and hours are enough past three days
        days, hours = divmod(int(round(seconds / 3600)), 24)
        return f"{days}d {hours}h" if hours else f"{days}d"
    if seconds >= 600:
        seconds = int(round(seconds / 60) * 60)  # minutes are enough past ten of them
    return format_duration(seconds)


def _hours(value):
    return ledger_mod.say_hours(value)


@dataclass
class Figure:
    key: str
    label: str
    declared_text: str
    observed_text: str
    sentence: str
    declared: float | None = None
    observed: float | None = None
    # The finding that reports this gap, when it is large enough: kind and field to name.
    finding: dict | None = None
    gap: bool = False
    # Observed so far against a declaration for the whole run (time, hours of a run still
    # going): no ratio until the run ends, never "0.01×" half way.
    so_far: bool = False

    def __post_init__(self):
        self.gap = self.gap or bool(self.finding)

    @property
    def ratio(self):
        if self.so_far:
            return None
        if self.declared and self.observed is not None and self.declared > 0:
            return round(self.observed / self.declared, 2)
        return None


# Figures that grow while the run goes on, declared for the whole run: no ratio before it ends.
GROWING = ("duration", "hours", "hours_running")


def _gap(declared, observed, floor):
    if not declared or observed is None:
        return False
    ratio = observed / declared
    return (ratio > GAP_RATIO or ratio < 1 / GAP_RATIO) and abs(observed - declared) > floor


def _times(ratio):
    return f"{ratio:.2f}×" if ratio is not None else ""


@dataclass
class Observed:
    figures: list = field(default_factory=list)
    exit_reason: str = ""
    live: bool = False
    estimated: bool = False  # times and holds from the engine's live records, no accounting
    finished_at: object = None
    numbers: dict = field(default_factory=dict)

    @cached_property
    def gaps(self):
        return [f for f in self.figures if f.gap]

    def figure(self, key):
        return next((f for f in self.figures if f.key == key), None)

    def as_dict(self):
        """Plain data, for evidence frozen in a finding and for the API."""
        return {
            "figures": [
                {
                    "key": f.key,
                    "declared": f.declared,
                    "observed": f.observed,
                    "ratio": f.ratio,
                    "sentence": f.sentence,
                }
                for f in self.figures
            ],
            "exit_reason": self.exit_reason,
            "numbers": dict(self.numbers),
        }


def _first_time(events, kind):
    times = [e.occurred_at for e in events if e.status == EventStatus.APPLIED and e.kind == kind]
    return min(times) if times else None


def compute(run, *, events, holds, ledger=None, segments=None, now=None, description=None):
    """Every figure the description declared, next to what was observed so far (`ledger`,
    `segments`, `description`: as the caller worked them out, else worked out here)."""
    r = _gather(run, events, holds, ledger, segments, now or timezone.now(), description)
    figures = [
        _running_time(r),
        _data_staged(r),
        _staging_time(r),
        _hours_held(r),
        _hours_while_running(r),
        _output_delivered(r),
        _restarts(r),
        _deadline(r),
        _nodes(r),
        *usage_figures(r),
    ]
    figures = [f for f in figures if f is not None]
    if r.got.estimated:
        for f in figures:
            if f.key in TIMED and f.observed is not None:
                f.observed_text += " (estimated)"
    if not r.final:
        for f in figures:
            f.so_far = f.so_far or f.key in GROWING
    return Observed(
        figures=figures,
        estimated=r.got.estimated,
        exit_reason=r.got.exit_reason,
        live=not r.final,
        finished_at=r.finished_at,
        numbers=_numbers(r, {f.key: f for f in figures}),
    )


@dataclass
class _Run:
    """What the figures are read from, gathered once for one run."""

    run: object
    description: object
    request: object
    got: Reports
    ledger: object
    segments: list
    now: object
    final: bool
    finished_at: object
    ran: list  # the segments it was running
    declared_seconds: float | None
    observed_seconds: float | None
    input_bytes: float | None


def _gather(run, events, holds, ledger, segments, now, description=None):
    description = description or run.revision.as_description()
    request = description.request
    got = reports(events, holds)
    ledger = ledger or ledger_mod.compute(run, holds=holds, now=now, description=description)
    segments = segments if segments is not None else timeline.segments(run, events, now=now)
    final = run.is_final
    released_at = _first_time(events, "released")
    ran = [s for s in segments if s.state == RunState.RUNNING]
    estimate = request.estimate
    return _Run(
        run=run,
        description=description,
        request=request,
        got=got,
        ledger=ledger,
        segments=segments,
        now=now,
        final=final,
        finished_at=(released_at or run.state_since) if final else released_at,
        ran=ran,
        declared_seconds=estimate.seconds if estimate and estimate.exact else None,
        observed_seconds=float(sum(s.seconds for s in ran)) if ran else None,
        input_bytes=_exact_bytes(description.data.inputs),
    )


def _exact_bytes(items):
    """The total of the exactly declared sizes, or None if no size is exact."""
    sized = [i.size.bytes for i in items or [] if i.size and i.size.exact]
    return float(sum(sized)) if sized else None


def _running_time(r):
    """Time spent running, all attempts together, against the exact estimate."""
    declared_s, observed_s = r.declared_seconds, r.observed_seconds
    typed = r.request.estimate.text if declared_s else ""  # as the team wrote it: 48h, not 2d
    running_now = r.run.state == RunState.RUNNING
    if observed_s is None:
        sentence = "Not running yet." if not r.final else "The job never ran."
    elif running_now:
        sentence = f"Running for {approx_duration(observed_s)} so far" + (
            f" of {typed} estimated." if declared_s else "."
        )
    elif declared_s:
        ratio = observed_s / declared_s
        sentence = (
            f"Ran {approx_duration(observed_s)} against {typed} estimated: "
            f"{_times(ratio)} the estimate"
            + (f", across {len(r.ran)} attempts." if len(r.ran) > 1 else ".")
        )
    else:
        sentence = f"Ran {approx_duration(observed_s)}; no exact estimate was declared."
    # A run still going has not shown its length yet.
    gap = bool(r.ran) and not running_now and _gap(declared_s, observed_s, GAP_SECONDS)
    return Figure(
        "duration",
        "Running time",
        typed or "not declared",
        approx_duration(observed_s) if observed_s is not None else "—",
        sentence,
        declared_s,
        observed_s,
        {"kind": "ambiguous_description", "field": "request.estimate"} if gap else None,
    )


def _data_staged(r):
    """Bytes the scheduler staged against the declared data size."""
    inputs = r.description.data.inputs or []
    declared_b, staged = r.input_bytes, r.got.bytes_staged
    if staged is None:
        sentence = "The scheduler has not reported the bytes it staged."
    elif declared_b:
        sentence = (
            f"Staged {approx_size(staged)} against {approx_size(declared_b)} declared: "
            f"{_times(staged / declared_b)}."
        )
    else:
        sentence = f"Staged {approx_size(staged)}; no exact data size was declared."
    gap = _gap(declared_b, staged, GAP_BYTES)
    size_field = "data.inputs.0.size" if len(inputs) == 1 else "data.inputs"
    return Figure(
        "data",
        "Data staged",
        approx_size(declared_b) if declared_b else "not declared",
        approx_size(staged),
        sentence,
        declared_b,
        None if staged is None else float(staged),
        {"kind": "ambiguous_description", "field": size_field} if gap else None,
    )


def _staging_time(r):
    """Staging time against the time the declared size implies."""
    declared_b = r.input_bytes
    implied = declared_b / REFERENCE_BANDWIDTH if declared_b else None
    staging_line = next((p for p in r.ledger.phases if p.phase == Phase.STAGING), None)
    rented = [s for s in r.segments if s.state == RunState.RENTED]
    if staging_line is not None:
        staging_s, staging_open = float(staging_line.seconds), staging_line.open
    elif rented:
        staging_s, staging_open = float(rented[0].seconds), r.run.state == RunState.RENTED
    else:
        staging_s, staging_open = None, False
    if staging_s is None:
        sentence = "Staging has not started."
    elif staging_open:
        sentence = f"Staging for {approx_duration(staging_s)} so far" + (
            f"; the declared size implies {approx_duration(implied)}." if implied else "."
        )
    elif implied:
        sentence = (
            f"Staging took {approx_duration(staging_s)}; {approx_size(declared_b)} at the "
            f"reference 10 Gbit/s implies {approx_duration(implied)}: {_times(staging_s / implied)}."
        )
    else:
        sentence = f"Staging took {approx_duration(staging_s)}; no exact data size was declared."
    slow = (
        not staging_open
        and implied is not None
        and staging_s is not None
        and staging_s > implied * GAP_RATIO
        and staging_s - implied > GAP_SECONDS
    )
    return Figure(
        "staging",
        "Staging time",
        approx_duration(implied) if implied else "not implied",
        approx_duration(staging_s),
        sentence,
        implied,
        staging_s,
        {"kind": "staging_slower"} if slow else None,
    )


def _hours_held(r):
    """Accelerator-hours in all, phase by phase."""
    ledger = r.ledger
    held_by_phase = ", ".join(f"{p.phase.label.lower()} {_hours(p.hours)}" for p in ledger.phases)
    expected = ledger.expected
    if not ledger.phases:
        sentence = "Nothing held yet."
    elif not r.final:
        sentence = f"{ledger.so_far[:1].upper()}{ledger.so_far[1:]} ({held_by_phase})"
    elif expected:
        sentence = (
            f"Held {_hours(ledger.held)} against {_hours(expected)} expected: "
            f"{_times(ledger.held / expected)} ({held_by_phase})."
        )
    else:
        sentence = (
            f"Held {_hours(ledger.held)} ({held_by_phase}); the team declared no expectation."
        )
    return Figure(
        "hours",
        "Accelerator-hours held",
        _hours(expected) if expected else "not declared",
        _hours(ledger.held),
        sentence,
        expected,
        ledger.held if ledger.phases else None,
        # The ledger above already offers the accounting finding, pre-filled.
        gap=ledger.offer_finding,
    )


def _hours_while_running(r):
    """Accelerator-hours of the running phase against those requested; None if neither is known."""
    ledger = r.ledger
    running_line = next((p for p in ledger.phases if p.phase == Phase.RUNNING), None)
    if not (ledger.requested or running_line):
        return None
    held_running = running_line.hours if running_line else None
    return Figure(
        "hours_running",
        "Accelerator-hours while running",
        _hours(ledger.requested) if ledger.requested else "not declared",
        _hours(held_running),
        (
            f"The run itself has held {_hours(held_running)} so far of the "
            f"{_hours(ledger.requested)} requested for the whole run (count × nodes × estimate)."
            if held_running is not None and ledger.requested and not r.final
            else f"The run itself held {_hours(held_running)} against "
            f"{_hours(ledger.requested)} requested (count × nodes × estimate)."
            if held_running is not None and ledger.requested
            else "Nothing held while running yet."
            if held_running is None
            else f"The run itself held {_hours(held_running)}."
        ),
        ledger.requested,
        held_running,
    )


def _output_delivered(r):
    """Bytes the scheduler delivered against the declared output size."""
    artifacts = r.description.output.artifacts or []
    declared_o, delivered = _exact_bytes(artifacts), r.got.bytes_delivered
    if delivered is None:
        sentence = "The scheduler has not reported the bytes it delivered."
    elif declared_o:
        sentence = (
            f"Delivered {approx_size(delivered)} against {approx_size(declared_o)} declared: "
            f"{_times(delivered / declared_o)}."
        )
    else:
        sentence = f"Delivered {approx_size(delivered)}; no exact output size was declared."
    gap = _gap(declared_o, delivered, GAP_BYTES)
    size_field = "output.artifacts.0.size" if len(artifacts) == 1 else "output.artifacts"
    return Figure(
        "output",
        "Output delivered",
        approx_size(declared_o) if declared_o else "not declared",
        approx_size(delivered),
        sentence,
        declared_o,
        None if delivered is None else float(delivered),
        {"kind": "ambiguous_description", "field": size_field} if gap else None,
    )


def _restarts(r):
    """Declared preemptible or not, against the restarts the run survived."""
    pre, restarts = r.request.preemptible, r.run.restarts
    declared_text = {None: "not declared", True: "preemptible", False: "not preemptible"}[pre]
    if restarts and pre is False:
        sentence = (
            f"Declared not preemptible, yet preempted {restarts} time{'s' * (restarts != 1)}."
        )
    elif restarts:
        ended = "finished" if r.run.state == RunState.RELEASED else "went on"
        sentence = f"Preempted {restarts} time{'s' * (restarts != 1)} and {ended}, as declared."
    else:
        sentence = "Not preempted" + (" so far." if not r.final else ".")
    return Figure(
        "restarts",
        "Restarts",
        declared_text,
        str(restarts),
        sentence,
        None,
        float(restarts),
        {"kind": "scheduling"} if restarts and pre is False else None,
    )


def _deadline(r):
    """The deadline, met or missed by the margin in seconds (the figure's observed value)."""
    req = r.request
    deadline = req.deadline.value if req.deadline and req.deadline.exact else None
    margin = None
    if deadline is None:
        sentence = "No deadline was declared." if req.no_deadline else "No exact deadline."
        observed_text = "—"
    elif r.finished_at is not None and r.run.state == RunState.RELEASED:
        margin = (deadline - r.finished_at).total_seconds()
        word = "before" if margin >= 0 else "after"
        sentence = (
            f"{'Met' if margin >= 0 else 'Missed'}: done {approx_duration(abs(margin))} "
            f"{word} the deadline."
        )
        observed_text = "met" if margin >= 0 else "missed"
    elif r.final:
        sentence = "The run ended without delivering: the deadline was not met."
        observed_text = "not delivered"
    else:
        left = (deadline - r.now).total_seconds()
        sentence = (
            f"The deadline is in {approx_duration(left)}."
            if left >= 0
            else f"The deadline passed {approx_duration(-left)} ago."
        )
        observed_text = "pending"
    return Figure(
        "deadline",
        "Deadline",
        req.deadline.in_words() if deadline else "not declared",
        observed_text,
        sentence,
        None,
        margin,
        {"kind": "scheduling"} if margin is not None and margin < 0 else None,
    )


def _nodes(r):
    """Nodes asked and granted, and what the job did with less."""
    declared_s, observed_s = r.declared_seconds, r.observed_seconds
    asked, granted = r.request.nodes, r.got.nodes_granted
    less = r.request.less_compute.value if r.request.less_compute else None
    mismatch = False
    if granted is None:
        sentence = "The scheduler has not reported the nodes it granted."
    elif asked and granted < asked:
        said = LESS_COMPUTE.get(less, "(nothing declared)")
        did = (
            f"it ran on {granted} for {approx_duration(observed_s)}"
            + (f", {_times(observed_s / declared_s)} its estimate" if declared_s else "")
            if observed_s
            else f"it has {granted} so far"
        )
        sentence = f"Asked for {asked} nodes, granted {granted}. Declared it would {said}; {did}."
        mismatch = less in ("wait", None) and bool(observed_s)
    elif asked:
        sentence = f"Granted the {granted} node{'s' * (granted != 1)} asked for."
    else:
        sentence = f"Granted {granted} node{'s' * (granted != 1)}; none were declared."
    return Figure(
        "nodes",
        "Nodes",
        str(asked) if asked else "not declared",
        str(granted) if granted else "—",
        sentence,
        float(asked) if asked else None,
        float(granted) if granted else None,
        {"kind": "ambiguous_description", "field": "request.less_compute"} if mismatch else None,
    )


def _percent(ratio):
    """11 %, 0.4 %, 100 %: a share as a person reads it."""
    value = ratio * 100
    return f"{value:.1f} %" if 0 < value < 1 else f"{value:.0f} %"


def _gib(nbytes):
    return size_for_people(int(nbytes)) if nbytes is not None else "—"


def usage_figures(r):
    """What the cluster saw the run use, from its accounting (Slurm: sacct's MaxRSS, TotalCPU,
    AllocCPUS, ReqMem, Elapsed, Timelimit), against what the job declared. Only for a run an
    engine measured: a simulated or hand-reported run has none of these."""
    got = r.got
    if got.elapsed_seconds is None:
        return []
    return [_memory(r), _cpu(r), _time_limit(r), _accelerator_use(r)]


def declared_memory(r):
    memory = r.request.memory_per_node
    if memory is not None and memory.exact:
        return float(memory.bytes)
    return float(r.got.memory_requested_bytes) if r.got.memory_requested_bytes else None


def _memory(r):
    """Peak resident memory on a node (MaxRSS) against the memory declared per node."""
    declared, peak = declared_memory(r), r.got.peak_memory_bytes
    said = "declared" if r.request.memory_per_node else "was given"
    oom = r.run.failure_reason == "out_of_memory"
    if peak is None:
        sentence = "Peak memory: not measured on this cluster."
    elif oom and declared:
        sentence = (
            f"Killed out of memory: its peak was {_gib(peak)} against the {_gib(declared)} "
            f"it {said} per node."
        )
    elif oom:
        sentence = f"Killed out of memory at a peak of {_gib(peak)} per node."
    elif declared:
        sentence = f"Used {_percent(peak / declared)} of the {_gib(declared)} it {said} per node."
    else:
        sentence = f"Peak memory {_gib(peak)} per node; none was declared."
    gap = r.final and not oom and _gap(declared, peak, GAP_MEMORY)
    return Figure(
        "memory",
        "Peak memory per node",
        _gib(declared) if declared else "not declared",
        _gib(peak) if peak is not None else "not measured",
        sentence,
        declared,
        None if peak is None else float(peak),
        {"kind": "ambiguous_description", "field": "request.memory_per_node"} if gap else None,
        gap=oom,
    )


def _cpu(r):
    """CPU time used (TotalCPU) against the CPUs held × elapsed: the CPU efficiency."""
    got = r.got
    used, held = got.cpu_seconds, got.cpu_held_seconds
    cpus = got.cpus_allocated
    declared = r.request.cpus_per_node
    declared_text = (
        f"{declared:g} per node" if declared else (f"{cpus} given" if cpus else "not declared")
    )
    if used is None or not held:
        sentence = "CPU time: not measured on this cluster."
        efficiency = None
    else:
        efficiency = used / held
        sentence = (
            f"Kept its {cpus or ''} CPU{'s' * ((cpus or 2) != 1)} busy {_percent(efficiency)} "
            f"of the time it held them ({approx_duration(used)} of CPU time in "
            f"{approx_duration(held)} of CPUs held)."
        ).replace("  ", " ")
    gap = r.final and efficiency is not None and efficiency < 1 / GAP_RATIO
    gap = gap and held - used > GAP_CPU_SECONDS
    return Figure(
        "cpu",
        "CPU efficiency",
        declared_text,
        _percent(efficiency) if efficiency is not None else "not measured",
        sentence,
        held,
        used,
        {"kind": "ambiguous_description", "field": "request.cpus_per_node"} if gap else None,
    )


def _time_limit(r):
    """The last attempt's elapsed time against its time limit (the declared maximum)."""
    got = r.got
    limit, elapsed = got.time_limit_seconds, got.elapsed_seconds
    if r.run.failure_reason == "time_limit":
        estimate = r.declared_seconds
        sentence = f"Killed at its time limit after {approx_duration(elapsed)}" + (
            f": it declared {approx_duration(estimate)}." if estimate else "."
        )
    elif limit:
        sentence = (
            f"Ran {approx_duration(elapsed)} of its {approx_duration(limit)} time limit "
            f"({_percent(elapsed / limit)})."
        )
    else:
        sentence = f"Ran {approx_duration(elapsed)}; no time limit."
    gap = (
        r.run.state == RunState.RELEASED
        and bool(limit)
        and _gap(float(limit), float(elapsed), GAP_SECONDS)
    )
    return Figure(
        "time_limit",
        "Time limit",
        approx_duration(limit) if limit else "none",
        approx_duration(elapsed),
        sentence,
        float(limit) if limit else None,
        float(elapsed),
        {"kind": "ambiguous_description", "field": "request.maximum"} if gap else None,
        gap=r.run.failure_reason == "time_limit",
    )


def _accelerator_use(r):
    """Accelerator memory and utilisation, only where the cluster reports them (Slurm:
    gres/gpumem and gres/gpuutil in TRESUsageInMax); never a zero for "not measured"."""
    got = r.got
    if got.gpu_memory_bytes is None and got.gpu_utilization_percent is None:
        sentence = "Accelerator use: not measured on this cluster."
        observed_text = "not measured"
    else:
        parts = []
        if got.gpu_memory_bytes is not None:
            parts.append(f"peak accelerator memory {_gib(got.gpu_memory_bytes)}")
        if got.gpu_utilization_percent is not None:
            parts.append(f"peak utilisation {got.gpu_utilization_percent:g} %")
        sentence = " and ".join(parts).capitalize() + "."
        observed_text = ", ".join(parts)
    return Figure("accelerator_use", "Accelerator use", "—", observed_text, sentence)


def end_sentence(run, got):
    """How a run that ended, ended, in words for the team: the notice, the e-mail and the
    job page. Empty while it goes on. `got`: what the scheduler reported (`reports`)."""
    job = run.job
    if run.state == RunState.RELEASED:
        return f"{job} completed: resources were released. Check the ledger."
    if run.state == RunState.CANCELLED:
        who = CANCELLED_BY.get(run.cancelled_by or got.cancelled_by)
        return f"{job} was cancelled" + (f" by {who}." if who else ".")
    if run.state != RunState.FAILED:
        return ""
    reason = run.failure_reason
    if reason in ("time_limit", "out_of_memory"):
        request = run.revision.as_description().request
    if reason == "time_limit":
        estimate = request.estimate.seconds if request.estimate and request.estimate.exact else 0
        after = f" after {approx_duration(got.elapsed_seconds)}" if got.elapsed_seconds else ""
        said = f": it declared {approx_duration(estimate)}" if estimate else ""
        return f"{job} was killed at its time limit{after}{said}."
    if reason == "out_of_memory":
        memory = request.memory_per_node
        peak = f": its peak was {_gib(got.peak_memory_bytes)}" if got.peak_memory_bytes else ""
        said = (
            f" against the {_gib(memory.bytes)} it declared per node"
            if peak and memory and memory.exact
            else ""
        )
        return f"{job} ran out of memory{peak}{said}."
    if reason == "exit_code":
        code = f"exit code {got.exit_code}" if got.exit_code else ""
        signal = f"signal {got.signal}" if got.signal else ""
        said = " and ".join(p for p in (code, signal) if p)
        return f"{job} failed" + (f" with {said}." if said else ".")
    if reason == "node_failure":
        return f"{job} stopped: a node it ran on failed."
    if reason == "preempted":
        return f"{job} was preempted and not requeued."
    if reason == "setup":
        return (
            f"{job} could not start: the cluster refused it before running it. Staff must act: "
            "dispatch it again to a cluster that can run it, or ask the team to revise it."
        )
    label = run.get_failure_reason_display().lower()
    return f"{job} failed ({label})."


def _numbers(r, figure):
    """The run's figures as plain numbers, by key (a RunOutcome's columns)."""
    return {
        "declared_seconds": figure["duration"].declared,
        "observed_seconds": figure["duration"].observed,
        "declared_bytes": _whole(figure["data"].declared),
        "staged_bytes": r.got.bytes_staged,
        "implied_staging_seconds": figure["staging"].declared,
        "staging_seconds": figure["staging"].observed,
        "expected_hours": figure["hours"].declared,
        "held_hours": figure["hours"].observed,
        "declared_output_bytes": _whole(figure["output"].declared),
        "delivered_bytes": r.got.bytes_delivered,
        "nodes_asked": r.request.nodes,
        "nodes_granted": r.got.nodes_granted,
        "preemptible": r.request.preemptible,
        "restarts": r.run.restarts,
        "deadline_margin_seconds": figure["deadline"].observed,
        "declared_memory_bytes": _whole(figure["memory"].declared) if "memory" in figure else None,
        "peak_memory_bytes": r.got.peak_memory_bytes,
        "memory_ratio": _figure_ratio(figure.get("memory")),
        "cpu_efficiency": _figure_ratio(figure.get("cpu")),
        "time_limit_seconds": r.got.time_limit_seconds,
        "elapsed_seconds": r.got.elapsed_seconds,
        "time_limit_ratio": _figure_ratio(figure.get("time_limit")),
    }


def _figure_ratio(f):
    return _ratio(f.observed, f.declared) if f is not None else None


def _whole(value):
    return None if value is None else int(value)


def chart(observed, width=640, bar=18):
    """Geometry of the SVG: one bar per figure with a ratio, observed ÷ declared, against the 1×
    line (declared). Ratios beyond 3× are drawn at 3× and say so."""
    rows = [f for f in observed.figures if f.ratio is not None]
    top = 3.0
    x0, usable = 250, width - 310
    scale = usable / top
    out = []
    for i, f in enumerate(rows):
        shown = min(f.ratio, top)
        out.append(
            {
                "label": f.label,
                "y": 10 + i * (bar + 10),
                "text_y": 10 + i * (bar + 10) + 13,  # the label's and the ratio's baseline
                "width": round(max(shown * scale, 2), 1),
                "ratio": f.ratio,
                "text": f"{f.ratio:.2f}×" + (" (beyond the scale)" if f.ratio > top else ""),
                "gap": f.gap,
            }
        )
    height = 20 + len(rows) * (bar + 10) + 14
    return {
        "rows": out,
        "width": width,
        "height": height,
        "bar": bar,
        "x0": x0,
        "one": x0 + scale,  # where observed equals declared
        "ticks": [{"x": round(x0 + t * scale, 1), "label": f"{t:g}×"} for t in (0, 1, 2, 3)],
        "axis_y": height - 12,
        "tick_y": height - 1,
    }


def _ratio(a, b):
    return round(a / b, 4) if a is not None and b else None


@transaction.atomic
def record_outcome(run, *, events=None, holds=None):
    """Write (or rewrite) the run's RunOutcome once it has ended; remove it if it has not."""
    if not run.is_final:
        RunOutcome.objects.filter(run=run).delete()
        return None
    events = list(run.events.all()) if events is None else events
    holds = list(run.holds.all()) if holds is None else holds
    ends = [h.ended_at for h in holds if h.ended_at] + [run.state_since]
    now = max(ends)
    result = compute(run, events=events, holds=holds, now=now)
    n = result.numbers
    description = run.revision.as_description()
    values = {
        "team_id": run.job.team_id,
        "work_kind": description.work.kind.value if description.work.kind else "",
        "final_state": run.state,
        "simulated": run.simulated,
        "finished_at": result.finished_at or run.state_since,
        **{k: n[k] for k in n if k != "deadline_margin_seconds"},
        "restarts": run.restarts,
        "duration_ratio": _ratio(n["observed_seconds"], n["declared_seconds"]),
        "data_ratio": _ratio(n["staged_bytes"], n["declared_bytes"]),
        "staging_ratio": _ratio(n["staging_seconds"], n["implied_staging_seconds"]),
        "hours_ratio": _ratio(n["held_hours"], n["expected_hours"]),
        "output_ratio": _ratio(n["delivered_bytes"], n["declared_output_bytes"]),
        "deadline_margin_seconds": n["deadline_margin_seconds"],
        "deadline_met": None
        if result.figure("deadline").declared_text == "not declared"
        else (n["deadline_margin_seconds"] is not None and n["deadline_margin_seconds"] >= 0),
        "exit_reason": result.exit_reason[:200],
        "failure_reason": run.failure_reason,
        "cancelled_by": run.cancelled_by,
        "recorded_at": timezone.now(),
    }
    outcome, _ = RunOutcome.objects.update_or_create(run=run, defaults=values)
    return outcome


def staging_prefill(figures):
    """Initial values of a "staging slower" finding from frozen observed figures."""
    numbers = (figures or {}).get("numbers") or {}
    initial = {}
    size = numbers.get("staged_bytes") or numbers.get("declared_bytes")
    if size:
        initial["data_size"] = approx_size(size)
    if numbers.get("staging_seconds"):
        initial["staging_time"] = approx_duration(numbers["staging_seconds"])
    if numbers.get("observed_seconds"):
        initial["run_time"] = approx_duration(numbers["observed_seconds"])
    return initial
