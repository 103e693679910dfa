"""Freezing a job's ledger figures and timeline as plain JSON for a finding."""

from jobs.runs import ledger, observed, timeline
from jobs.runs.models import Run


def capture(job):
    """The evidence of `job` right now, or None when it has not entered the lifecycle.

    Returns the fields of an EvidenceSnapshot (without the finding)."""
    run = Run.objects.filter(job=job).select_related("revision").first()
    if run is None:
        return None
    events = list(run.events.all())
    holds = list(run.holds.all())
    # A simulated run lives in job time laid in the past: its "now" is its latest event,
    # as on the job page, so the frozen figures match what the partner saw there.
    now = max((e.occurred_at for e in events), default=None) if run.simulated else None
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
    """Initial values of an accounting finding from ledger figures: the phase that differs
    most from nothing expected is the non-running phase holding the most hours."""
    initial = {}
    if figures.get("expected_hours") is not None:
        initial["expected_hours"] = round(figures["expected_hours"], 3)
    initial["held_hours"] = round(figures.get("held_hours") or 0, 3)
    others = {k: v for k, v in (figures.get("phases") or {}).items() if k != "running"}
    if others:
        initial["phase"] = max(others, key=others.get)
    elif figures.get("phases"):
        initial["phase"] = "running"
    return initial
