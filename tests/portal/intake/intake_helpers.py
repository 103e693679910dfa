"""Shared builders for the intake tests (not a test module)."""

import uuid
from datetime import timedelta

from django.utils import timezone

from portal.intake import services as intake_services
from portal.intake.models import IntakeWindow


def make_window(*, opens_in=timedelta(days=-1), closes_in=timedelta(days=14), places=3, **extra):
    now = timezone.now()
    return IntakeWindow.objects.create(
        opens_at=now + opens_in,
        closes_at=now + closes_in,
        places=places,
        announcement=extra.pop(
            "announcement", "We take **three** teams. <script>alert(1)</script>"
        ),
        **extra,
    )


def form_data(**overrides):
    data = {
        "submission_token": str(uuid.uuid4()),
        "team_name": "Orbit Vision",
        "organisation": "Orbit Labs",
        "contact_name": "Olu Orbit",
        "contact_email": "olu@orbit.example",
        "engineering_contacts": "Pat (ML infra)\nSam (data)",
        "job_work": "Retrain our 7B detection model on new footage.",
        "job_data": "Video frames in S3, Parquet index.",
        "job_request": "64 accelerators for 36 hours; with 32 it takes twice as long.",
        "job_output": "Checkpoints as safetensors to our bucket.",
        "accelerator_type": "H100 80GB",
        "accelerator_count": "64",
        "data_size": "2.5 TiB",
        "duration": "36h",
        "deadline": "2031-03-01",
        "typical_accelerators": "8",
        "peak_accelerators": "256",
        "spike_interval": "6w",
        "next_spike": "2031-02-15",
        "consent": "on",
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def application_data(**overrides):
    """IntakeApplication values as the form would clean them, for service tests."""
    from portal.intake.forms import ApplicationForm

    form = ApplicationForm(form_data(**overrides))
    assert form.is_valid(), form.errors
    return form.application_data()


def submit(**overrides):
    return intake_services.submit_application(
        submission_token=uuid.uuid4(), data=application_data(**overrides)
    )
