"""The run's timeline: one bar per phase the run was in, with restarts marked."""

from dataclasses import dataclass

from django.utils import timezone

from jobs.jobformat.units import format_duration
from jobs.runs.models import EventStatus, RunState


@dataclass
class Segment:
    state: RunState
    start: object
    end: object
    restart: bool = False

    @property
    def seconds(self):
        return max(0, int((self.end - self.start).total_seconds()))

    @property
    def duration(self):
        return format_duration(self.seconds)


def segments(run, events, now=None):
    now = now or timezone.now()
    applied = [e for e in events if e.status == EventStatus.APPLIED]
    out = []
    # Queued from acceptance; a scheduler's clock a little behind ours may date its first
    # event earlier: start at whichever is first.
    first = min([run.created_at, *(e.occurred_at for e in applied[:1])])
    state, start, restart = RunState.SUBMITTED, first, False
    for event in applied:
        out.append(Segment(state, start, event.occurred_at, restart))
        restart = event.kind == "preempted"
        state, start = RunState(event.to_state), event.occurred_at
    out.append(Segment(state, start, start if run.is_final else max(now, start), restart))
    return out


def geometry(segs, width=640):
    """x/width for each bar across the whole span (a final state shows as a marker)."""
    if not segs:
        return {"bars": [], "width": width}
    begin, end = segs[0].start, max(s.end for s in segs)
    span = max((end - begin).total_seconds(), 1)
    usable = width - 20
    bars = []
    for s in segs:
        x = 10 + (s.start - begin).total_seconds() / span * usable
        w = max(s.seconds / span * usable, 3)
        bars.append({"segment": s, "x": round(x, 1), "width": round(w, 1), "state": s.state.value})
    return {"bars": bars, "width": width}
