"""The simulator, played through Celery: one task per step, in job time."""

from datetime import datetime

from celery import shared_task

from jobs.runs.models import Run
from portal.outbox import enqueue

from . import simulator


@shared_task
def simulate_run(run_id, speed=3600.0, start=None):
    """Schedule each step of a simulated run, `speed` seconds of job time per second, its job
    time starting now or at `start` (ISO 8601; never before the job's acceptance)."""
    run = Run.objects.filter(pk=run_id).select_related("revision").first()
    if run is None or run.is_final:
        return 0
    steps = simulator.plan(run)
    start = datetime.fromisoformat(start) if start else None
    base = simulator.base_time(steps, run=run, start=start).isoformat()
    for index, step in enumerate(steps):
        enqueue(simulate_step, run_id, index, base, countdown=step.offset / speed)
    return len(steps)


@shared_task(autoretry_for=(OSError,), retry_backoff=5, max_retries=5)
def simulate_step(run_id, index, base):
    run = Run.objects.filter(pk=run_id).select_related("revision").first()
    if run is None:
        return
    steps = simulator.plan(run)
    if index < len(steps):
        simulator.apply_step(run, steps, index, datetime.fromisoformat(base))
