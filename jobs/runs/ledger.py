"""The ledger: accelerator-hours requested (declared), held (per phase) and expected,
never money, with the difference explained in words and drawn as an SVG chart.

A job that states no_accelerators is counted in node-hours: the scheduler holds nodes for
it (a hold's count is then nodes), and its request and expectation are in node-hours."""

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property

from django.utils import timezone

from jobs import jobformat
from jobs.jobformat.units import format_duration
from jobs.runs.models import Phase

# A gap between held and expected larger than both of these is worth a finding.
GAP_RATIO = 0.10
GAP_HOURS = 1.0
WHAT = {
    Phase.STAGING: "data staging",
    Phase.WAITING: "waiting",
    Phase.RUNNING: "the run",
    Phase.OUTPUT: "output delivery",
    Phase.IDLE_TAIL: "the idle tail before release",
}


@dataclass
class PhaseLine:
    phase: Phase
    hours: float
    seconds: int  # wall-clock span covered by the phase's holds (their union)
    accelerators: int  # most accelerators (nodes, for a CPU-only job) held at once
    open: bool
    source: str = "reported"  # measured, simulated, reported, or mixed


@dataclass
class Ledger:
    """Its totals are worked out once, when first read (a page reads them several times):
    read them only once compute() has listed the phases."""

    requested: float | None
    expected: float | None
    phases: list = field(default_factory=list)
    explanations: list = field(default_factory=list)
    unit: str = "accelerator-hours"
    holder: str = "accelerator"  # what a hold counts: accelerators, or nodes
    final: bool = True  # the run has ended: what it held will not grow any more

    @property
    def cpu_only(self):
        return self.unit == "node-hours"

    @cached_property
    def source(self):
        """Where the held figures come from: measured, simulated, reported, mixed or ''."""
        return _source(p.source for p in self.phases)

    @cached_property
    def held(self):
        return round(sum(p.hours for p in self.phases), 6)

    @cached_property
    def gap(self):
        """Held minus expected, for the whole run. Nothing held yet (accepted, not started):
        no gap, not "-1200 h against expected". A run still going has held only part of what
        it will: its gap is counted when it ends, unless it already holds more than the whole
        run was expected to (that only grows), so a running run's gap is never negative."""
        if self.expected is None or not self.phases:
            return None
        gap = round(self.held - self.expected, 3)
        if not self.final and gap <= 0:
            return None
        return gap

    @cached_property
    def so_far(self):
        """A running run's held hours in one sentence, against the whole run's expectation
        without a difference or a ratio ('' once the run has ended or before it holds any)."""
        if self.final or not self.phases:
            return ""
        held = f"{say_hours(self.held)} held so far"
        if not self.expected:
            return f"{held}; the run is still going."
        if self.gap is not None:
            return (
                f"{held}: already {say_hours(self.gap)} more than the "
                f"{say_hours(self.expected)} expected for the whole run, and still going."
            )
        return (
            f"{held} of the {say_hours(self.expected)} expected for the whole run; "
            "the difference is counted when the run ends."
        )

    @cached_property
    def offer_finding(self):
        # A run still going has a gap only once it holds more than expected (see gap).
        if self.gap is None or not self.phases:
            return False
        return abs(self.gap) > GAP_HOURS and abs(self.gap) > GAP_RATIO * max(self.expected, 1e-9)

    def figures(self):
        """Plain numbers, for freezing as evidence in a finding."""
        return {
            "requested_hours": self.requested,
            "expected_hours": self.expected,
            "held_hours": self.held,
            "gap_hours": self.gap,
            "phases": {p.phase.value: round(p.hours, 3) for p in self.phases},
            "held_source": self.source,
            "explanations": self.explanations,
            "unit": self.unit,
        }


def _source(sources):
    found = set(sources)
    return found.pop() if len(found) == 1 else ("mixed" if found else "")


def _union_seconds(intervals):
    total, current_start, current_end = 0.0, None, None
    for start, end in sorted(intervals):
        if current_end is None or start > current_end:
            if current_end is not None:
                total += (current_end - current_start).total_seconds()
            current_start, current_end = start, end
        else:
            current_end = max(current_end, end)
    if current_end is not None:
        total += (current_end - current_start).total_seconds()
    return total


def _peak(holds, now):
    points = []
    for h in holds:
        points += [(h.started_at, h.count), (h.ended_at or max(now, h.started_at), -h.count)]
    peak = level = 0
    for _, delta in sorted(points, key=lambda p: (p[0], p[1])):
        level += delta
        peak = max(peak, level)
    # Open holds are held now, even one that began this very second.
    return max(peak, sum(h.count for h in holds if h.ended_at is None))


def compute(run, holds=None, now=None, description=None):
    """`description`: the run's revision as a description, if the caller has read it."""
    now = now or timezone.now()
    holds = list(run.holds.all()) if holds is None else holds
    description = description or run.revision.as_description()
    ledger = for_description(description)
    ledger.final = run.is_final
    for phase in Phase:
        mine = [h for h in holds if h.phase == phase]
        if not mine:
            continue
        # An open hold counts up to now, and never less than nothing: a simulated run's job
        # time may be ahead of the clock a caller passes.
        ends = [h.ended_at or max(now, h.started_at) for h in mine]
        hours = (
            sum(
                h.count * (end - h.started_at).total_seconds()
                for h, end in zip(mine, ends, strict=True)
            )
            / 3600
        )
        line = PhaseLine(
            phase=phase,
            hours=round(hours, 6),  # to the second: a short job reads in seconds
            seconds=int(
                _union_seconds([(h.started_at, end) for h, end in zip(mine, ends, strict=True)])
            ),
            accelerators=_peak(mine, now),
            open=any(h.ended_at is None for h in mine),
            source=_source(h.source for h in mine),
        )
        ledger.phases.append(line)
        if phase != Phase.RUNNING and line.hours > 0:
            ledger.explanations.append(
                f"+{say_hours(line.hours)} held during {phase.label.lower()}: {WHAT[phase]} took "
                f"{format_duration(line.seconds)} on {line.accelerators} {ledger.holder}"
                f"{'s' if line.accelerators != 1 else ''}{' (still open)' if line.open else ''}."
            )
    running = next((p for p in ledger.phases if p.phase == Phase.RUNNING), None)
    if running and ledger.requested and not ledger.final and running.hours <= ledger.requested:
        # Still going: what it has held so far, not a shortfall against the whole request.
        ledger.explanations.insert(
            0,
            f"The run itself has held {say_hours(running.hours)} so far of the "
            f"{say_hours(ledger.requested)} requested for the whole run.",
        )
    elif running and ledger.requested:
        diff = running.hours - ledger.requested
        word = "more" if diff > 0 else "less"
        ledger.explanations.insert(
            0,
            f"The run itself held {say_hours(running.hours)} against {say_hours(ledger.requested)} "
            f"requested ({say_hours(abs(diff))} {word}).",
        )
    return ledger


def say_hours(hours):
    """Held time as people read it: one decimal of an hour from an hour up, minutes (or
    seconds) below, so a 66-second job is not "0.0 h": 1.5 h, 2.2 min, 40 s."""
    if hours is None:
        return "—"
    sign, value = ("-" if hours < 0 else ""), abs(hours)
    if value >= 1 or value == 0:
        return f"{hours:,.1f} h"
    minutes = value * 60
    if minutes < 1:
        return f"{sign}{minutes * 60:.0f} s"
    return f"{sign}{minutes:.1f} min" if minutes < 10 else f"{sign}{minutes:.0f} min"


def for_description(description):
    """An empty ledger in the job's own unit, with what it requested and expected."""
    request = description.request
    if request.no_accelerators and not request.accelerators:
        return Ledger(
            requested=jobformat.requested_node_hours(description),
            expected=request.expected_node_hours,
            unit="node-hours",
            holder="node",
        )
    return Ledger(
        requested=jobformat.requested_accelerator_hours(description),
        expected=request.expected_accelerator_hours,
    )


TENTH = Decimal("0.1")


def _tenths(value):
    """An SVG coordinate to one decimal, halves rounded up (what the `floatformat:1` filter
    wrote): the template prints it as it is, the browser reads it."""
    return str(Decimal(str(value)).quantize(TENTH, ROUND_HALF_UP))


def chart(ledger, width=640, bar=26):
    """Geometry for the SVG bars: requested, expected and held (stacked by phase), each
    coordinate worked out here and written as the template prints it."""
    values = [v for v in (ledger.requested, ledger.expected, ledger.held) if v]
    top = max(values) if values else 1
    # Room on the left for the labels and on the right for the value, at the larger type
    # used on narrow screens (ui.css), so neither overlaps a bar at 360 px.
    scale = (width - 200) / top if top else 0
    rows = []
    y = 10
    for label, value in (("Requested", ledger.requested), ("Expected", ledger.expected)):
        rows.append(_chart_row(label, y, value, (value or 0) * scale))
        y += bar + 12
    x = 0.0
    segments = []
    for line in ledger.phases:
        w = line.hours * scale
        segments.append(
            {
                "phase": line.phase.value,
                "label": line.phase.label,
                "x": _tenths(x),
                "width": _tenths(w),
                "hours": line.hours,
            }
        )
        x += w
    rows.append(_chart_row("Held", y, ledger.held, x, segments))
    return {"rows": rows, "height": y + bar + 10, "width": width, "bar": bar, "x0": 110}


def _chart_row(label, y, value, width, segments=()):
    return {
        "label": label,
        "css": f"bar-{label.lower()}",
        "y": y,
        "text_y": y + 18,  # the label's and the value's baseline, inside the bar
        "segments": list(segments),
        "value": value,
        "width": _tenths(width),
    }
