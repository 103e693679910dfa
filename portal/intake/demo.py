"""Demo intake for `load_demo`: a past window closed by the scheduler and a current open
one with three places and applications in several states (one decision staged, ready
to release). Idempotent: it does nothing once any intake window exists."""

import uuid
from datetime import timedelta

from django.utils import timezone

from portal.intake.models import IntakeWindow

from . import services
from .forms import ApplicationForm

ANNOUNCEMENT = """Design-partner intake is **open**. We are taking three teams with heavy, bursty
AI batch jobs who can describe one real job precisely.

- Describe the job in four parts: work, data, request, output.
- Say how bursty your demand is: typical and peak accelerators, and when the next spike comes.
- No commitment to buy, no reference, no quote. No rates exist."""


def _application(n, team, org, email, *, now, **extra):
    year = now.year + 1
    data = {
        "submission_token": str(uuid.uuid4()),
        "team_name": team,
        "organisation": org,
        "contact_name": email.split("@")[0].title(),
        "contact_email": email,
        "engineering_contacts": "Lead ML engineer\nData platform engineer",
        "job_work": "Nightly retraining of a detection model on the week's new footage.",
        "job_data": "Video frames in object storage with a Parquet index.",
        "job_request": f"{8 * n} accelerators until done; with half it takes twice as long.",
        "job_output": "Checkpoints (safetensors) and an evaluation report to our bucket.",
        "accelerator_type": "H100 80GB",
        "accelerator_count": str(8 * n),
        "data_size": f"{n * 1.5} TiB",
        "duration": f"{12 * n}h",
        "deadline": f"{year}-03-01",
        "typical_accelerators": str(2 * n),
        "peak_accelerators": str(64 * n),
        "spike_interval": f"{n + 2}w",
        "next_spike": f"{year}-02-{10 + n:02d}",
        "consent": "on",
        **extra,
    }
    form = ApplicationForm(data, now=now)
    if not form.is_valid():  # pragma: no cover - demo data is written to be valid
        raise ValueError(form.errors.as_text())
    return services.submit_application(
        submission_token=form.cleaned_data["submission_token"],
        data=form.application_data(),
        now=now,
    ).application


def load_intake(*, teams, users):
    if IntakeWindow.objects.exists():
        return
    staff = next(u for u in users.values() if u.is_staff)
    now = timezone.now()

    past = IntakeWindow.objects.create(
        opens_at=now - timedelta(days=120),
        closes_at=now - timedelta(days=90),
        places=2,
        announcement="A first, small intake.",
        created_by=staff,
    )
    services.close_due_windows(now=now)  # recorded as closed by the scheduler
    past.refresh_from_db()

    window = services.create_window(
        opens_at=now - timedelta(days=2),
        closes_at=now + timedelta(days=12),
        places=3,
        announcement=ANNOUNCEMENT,
        created_by=staff,
        now=now,
    )
    _application(1, "Kestrel Footage", "Kestrel Media Lab", "rui@kestrel.example", now=now)
    reviewing = _application(2, "Tern Simulations", "Tern Climate", "ines@tern.example", now=now)
    services.start_review(application=reviewing, by=staff, now=now)
    staged = _application(3, "Osprey Robotics", "Osprey Labs", "maya@osprey.example", now=now)
    services.stage_decision(application=staged, decision="accepted", reason="", by=staff)
    vague = _application(4, "Plover Analytics", "Plover Ltd", "kim@plover.example", now=now)
    realtime = _application(
        5,
        "Gannet Live",
        "Gannet Streaming",
        "lee@gannet.example",
        now=now,
        has_real_time="on",
        real_time_description="The whole job serves live viewers with a 200 ms budget.",
    )
    services.stage_decision(
        application=vague,
        decision="not_yet",
        reason="The request does not say what the job does with fewer accelerators, and the output has no format.",
        by=staff,
    )
    services.stage_decision(
        application=realtime,
        decision="declined",
        reason="This is real-time work: it belongs on your own systems, not on the network.",
        by=staff,
    )
    # Release those two so their status pages show an outcome; Osprey's acceptance stays
    # staged for the demo's staff to release (it creates the team and invites Maya).
    services.unstage_decision(application=staged)
    services.release_decisions(window=window, released_by=staff)
    services.stage_decision(application=staged, decision="accepted", reason="", by=staff)
