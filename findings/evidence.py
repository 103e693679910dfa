"""Freezing a job's ledger figures and timeline as plain JSON for a finding."""

from decimal import Decimal

from jobs.runs import ledger, observed, timeline
from jobs.runs.models import Run
from jobs.runs.presenters import simulated_now


def capture(job):
    """The evidence of `job` right now, or None when it has not entered the lifecycle.

    Returns the fields of an EvidenceSnapshot (without the finding)."""
    run = Run.objects.filter(job=job).select_related("revision").first()
    if run is None:
        return None
    events = list(run.events.all())
    holds = list(run.holds.all())
    # A simulated run lives in its own job time: its "now" is the job page's, so the frozen
    # figures match what the partner saw there.
    now = simulated_now(run, events)
    computed = ledger.compute(run, holds=holds, now=now)
    figures = computed.figures()
    segments = timeline.segments(run, events, now=now)
    figures["observed"] = observed.compute(
        run, events=events, holds=holds, ledger=computed, segments=segments, now=now
    ).as_dict()
    return {
        "job": job,
        "job_name": str(job)[:300],
        "revision_number": run.revision.number,
        "run_state": run.state,
        "ledger": figures,
        "timeline": [
            {
                "state": s.state.value,
                "label": s.state.label,
                "start": s.start.isoformat(),
                "end": s.end.isoformat(),
                "seconds": s.seconds,
                "duration": s.duration,
                "restart": s.restart,
            }
            for s in segments
        ],
    }


def accounting_prefill(figures):
    """Initial values of an accounting finding from ledger figures, as the ledger beside the
    form writes them (one decimal: 1,379.8, not 1379.816), and the phase where held and
    expected differ most: the running phase's gap is what it held beyond what was expected
    (what the team declares is for the run), any other phase's gap is all it held."""
    initial = {}
    expected = figures.get("expected_hours")
    if expected is not None:
        initial["expected_hours"] = _as_written(expected)
    initial["held_hours"] = _as_written(figures.get("held_hours") or 0)
    phases = figures.get("phases") or {}
    if phases:
        gaps = {
            phase: abs(hours - (expected or 0) if phase == "running" else hours)
            for phase, hours in phases.items()
        }
        if expected is None:
            gaps.pop("running", None)  # nothing expected: a run's hours are no gap to weigh
        initial["phase"] = max(gaps, key=gaps.get) if gaps else "running"
    return initial


def _as_written(hours):
    return Decimal(f"{hours:.1f}")
